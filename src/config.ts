import { createHash, randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { nestsQuantifiers } from './text/nested-quantifiers.ts';

export type Environment = 'development' | 'preview' | 'production';

export type DatabaseTarget = { dialect: 'sqlite'; path: string } | { dialect: 'postgres'; url: string };

/** The proxies in front of the service: always `hops` of them (0: none), or the ones at these addresses and CIDR ranges. */
export type ProxyTrust = { hops: number } | { addresses: string[] };

export interface Config {
  port: number;
  host: string;
  appEnv: Environment;
  database: DatabaseTarget;
  adminToken: string;
  /** True when no token was configured and one was generated. */
  adminTokenGenerated: boolean;
  /** Where a generated development token is kept across restarts (absent: new at each start). */
  adminTokenFile?: string;
  email: {
    from: string;
    api?: { url: string; key: string };
    smtpUrl?: string;
  };
  webhooks: {
    reservation?: string;
    restock?: string;
    public?: string;
  };
  cors: { productionOrigin?: string; previewOriginPattern?: RegExp };
  publicBaseUrl: string;
  catalogPath: string;
  contentDir: string;
  /** Where `npm run build` writes the search index and the start looks for it. */
  searchIndexPath: string;
  rateLimitPerMinute: number;
  /** Failed admin authentications a client may make in a minute before its admin requests get 429 (0: no limit). */
  adminAuthFailuresPerMinute: number;
  /** How long the dispatcher holds a message it claimed; a crashed holder's messages are sent again after this. */
  outboxLeaseMs: number;
  /** Days a message is kept once sent, skipped or given up. */
  outboxRetentionDays: number;
  /** Emails public forms may cause to one address in 24 hours (0: no cap). */
  emailsPerAddressPerDay: number;
  /** Days a keyword log entry is kept. */
  keywordLogRetentionDays: number;
  /** Keys the hash the keyword log keeps a searching client as (for suggestions); derived from the unsubscribe secret, so every instance has the same. */
  keywordLogClientSecret: string;
  /** Keys the fingerprint an Idempotency-Key keeps of its request; derived from the unsubscribe secret, so every instance has the same. */
  idempotencySecret: string;
  /** Which X-Forwarded-For entries to believe: none, those of n proxies, or those of proxies at these addresses. */
  trustProxy: ProxyTrust;
  /** Open connections one peer address may hold (0: no limit); the proxies TRUST_PROXY trusts are exempt. */
  maxConnectionsPerClient: number;
  unsubscribeSecret: string;
  /** A bearer token for GET /metrics besides the admin token, so a scraper need not hold the admin's. */
  metricsToken?: string;
  /** How long a graceful stop answers /readyz with 503, still serving, before it closes the listener. */
  shutdownDrainMs: number;
  logLevel: string;
}

/** A configuration problem, phrased as the one line the operator reads before the process exits. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

const DEFAULT_EMAIL_API_URL = 'https://api.resend.com/emails';

const integer = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, `must be an integer between ${min} and ${max}`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `must be an integer between ${min} and ${max}`);

const httpUrl = z.string().refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), 'must be an http(s) URL');

const regex = z.string().transform((source, ctx) => {
  try {
    return new RegExp(`^(?:${source})$`);
  } catch {
    ctx.addIssue({ code: 'custom', message: 'must be a valid regular expression' });
    return z.NEVER;
  }
});

/** A pattern every stranger's Origin is matched against: one that can backtrack catastrophically is refused. */
const originPattern = z
  .string()
  .refine(
    (source) => !nestsQuantifiers(source),
    'must not repeat a group holding a repetition, such as (a+)+, which can backtrack catastrophically',
  )
  .pipe(regex);

/** Production's admin token, unsubscribe secret and metrics token: long enough that guessing is hopeless. */
const MIN_PRODUCTION_SECRET = 32;

const PROXY_TRUST_MESSAGE = 'must be true, false, a number of proxies (0-20) or a comma-separated list of IP addresses and CIDR ranges';

const proxyTrust = z.string().transform((value, ctx): ProxyTrust => {
  if (value === 'false') return { hops: 0 };
  if (value === 'true') return { hops: 1 };
  if (/^\d{1,2}$/.test(value) && Number(value) <= 20) return { hops: Number(value) };
  const addresses = value.split(',').map((entry) => entry.trim());
  if (addresses.every(isAddressOrRange)) return { addresses };
  ctx.addIssue({ code: 'custom', message: PROXY_TRUST_MESSAGE });
  return z.NEVER;
});

/** Whether `entry` is an IP address or a CIDR range (`10.0.0.0/8`, `fd00::/8`). */
function isAddressOrRange(entry: string): boolean {
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address ?? '');
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

// Each variable's description is what `.env.example` says of it (npm run env:example writes it from here).
const EnvSchema = z.object({
  PORT: integer(0, 65535).default(8787).describe('HTTP port to listen on.'),
  HOST: z.string().default('0.0.0.0').describe('Address to listen on.'),
  APP_ENV: z
    .enum(['development', 'preview', 'production'])
    .default('development')
    .describe('development, preview or production; each has its own data store.'),
  DATABASE_URL: z
    .string()
    .optional()
    .describe('sqlite:<path>, sqlite::memory: or postgres://user:pass@host:port/db. Default: sqlite:./var/tenpo-<APP_ENV>.db'),
  PREORDER_API_TOKEN: z
    .string()
    .optional()
    .describe(
      'The admin bearer token (or ADMIN_API_TOKEN). Required in production; in development one is generated once and kept beside the SQLite store (var/ by default), elsewhere at each start.',
    ),
  ADMIN_API_TOKEN: z.string().optional().describe('Another name for PREORDER_API_TOKEN; both set and different is an error.'),
  EMAIL_PROVIDER_API_KEY: z.string().optional().describe('Key of the Resend-compatible email API; emails go through it when set.'),
  EMAIL_API_URL: httpUrl.default(DEFAULT_EMAIL_API_URL).describe('The email API endpoint (POST, Authorization: Bearer <key>).'),
  SMTP_URL: z
    .string()
    .refine((value) => URL.canParse(value) && /^smtps?:$/.test(new URL(value).protocol), 'must be an smtp:// or smtps:// URL')
    .optional()
    .describe('smtp://user:pass@host:port (or smtps://), used when no API key is set. With neither, emails are logged and skipped.'),
  EMAIL_FROM: z.string().default('tenpo <no-reply@localhost>').describe('Sender of customer emails.'),
  RESERVATION_WEBHOOK_URL: httpUrl.optional().describe('Chat webhook told of each new reservation (Discord or Slack style).'),
  RESTOCK_WEBHOOK_URL: httpUrl.optional().describe('Chat webhook told of each new restock signup.'),
  PUBLIC_WEBHOOK_URL: httpUrl.optional().describe('Chat webhook for the public back-in-stock announcement (no names or addresses).'),
  PRODUCTION_ORIGIN: httpUrl.optional().describe("The shop's site origin, allowed by CORS on public routes."),
  PREVIEW_ORIGIN_PATTERN: originPattern.optional().describe('Regular expression matching whole preview origins allowed by CORS.'),
  PUBLIC_BASE_URL: httpUrl.optional().describe('Base of the links in emails. Default: http://localhost:<PORT>'),
  CATALOG_PATH: z.string().default('data/products.json').describe('The catalog snapshot (JSON array of products).'),
  CONTENT_DIR: z.string().default('content').describe('Searchable content, <dir>/<contentType>/<fileSlug>.md.'),
  SEARCH_INDEX_PATH: z.string().default('build/search-index.json').describe('Where npm run build writes the prebuilt search index.'),
  RATE_LIMIT_PER_MINUTE: integer(0, 1_000_000)
    .default(10)
    .describe('Requests per client per minute shared by POST /api/reservation and POST /api/notify; 0 turns it off.'),
  ADMIN_AUTH_FAILURES_PER_MINUTE: integer(0, 1_000_000)
    .default(20)
    .describe(
      'Failed admin authentications a client may make in a minute; past them its admin requests get 429 until the minute ends. 0 turns it off.',
    ),
  OUTBOX_LEASE_SECONDS: integer(1, 3600).default(60).describe('How long an instance holds a message it is delivering (1-3600).'),
  OUTBOX_RETENTION_DAYS: integer(1, 3650)
    .default(30)
    .describe(
      'Days a message is kept after it was sent or skipped, or after it was given up (1-3650); then it is deleted with the address it names.',
    ),
  EMAILS_PER_ADDRESS_PER_DAY: integer(0, 1000)
    .default(10)
    .describe(
      'Emails the public forms (a reservation’s confirmation) may cause to one address in 24 hours; past that the record is stored and its email skipped with the reason (0: no cap).',
    ),
  KEYWORD_LOG_RETENTION_DAYS: integer(1, 3650)
    .default(90)
    .describe('Days a search is kept in the keyword log (1-3650); older entries are deleted.'),
  TRUST_PROXY: proxyTrust
    .optional()
    .describe(
      'The proxies in front, whose X-Forwarded-For entries are believed: false (none), true (one), a number of proxies, or a comma-separated list of their IP addresses and CIDR ranges.',
    ),
  MAX_CONNECTIONS_PER_CLIENT: integer(0, 100_000)
    .default(100)
    .describe(
      'Open connections one peer address may hold; further ones are closed at once (0: no limit). The proxies TRUST_PROXY trusts are exempt.',
    ),
  UNSUBSCRIBE_SECRET: z
    .string()
    .optional()
    .describe('Signs unsubscribe links; set the same on every instance. Default: derived from the admin token.'),
  METRICS_TOKEN: z
    .string()
    .optional()
    .describe('A bearer token for GET /metrics besides the admin token, for the Prometheus scraper; at least 32 characters in production.'),
  SHUTDOWN_DRAIN_SECONDS: integer(0, 300)
    .optional()
    .describe(
      'On SIGTERM, seconds /readyz answers 503 while requests are still served, before the listener closes: at least the load balancer health check interval times its unhealthy threshold. Default: 5, 0 in development.',
    ),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .default('info')
    .describe('fatal, error, warn, info, debug, trace or silent.'),
});

/** Variables whose values must never be echoed, not even in an error message. */
const SECRET_VARIABLES = new Set([
  'PREORDER_API_TOKEN',
  'ADMIN_API_TOKEN',
  'EMAIL_PROVIDER_API_KEY',
  // A URL can carry credentials (https://user:pass@host/…), so no URL is echoed either.
  'EMAIL_API_URL',
  'SMTP_URL',
  'DATABASE_URL',
  'UNSUBSCRIBE_SECRET',
  'METRICS_TOKEN',
  'RESERVATION_WEBHOOK_URL',
  'RESTOCK_WEBHOOK_URL',
  'PUBLIC_WEBHOOK_URL',
]);

export interface ConfigSources {
  /**
   * Returns the token kept in `file`, making and saving one the first time. Given, a development
   * start without a configured token keeps its token there, so the console stays signed in and
   * links signed with it (unsubscribe) keep working across restarts. Without it, or outside
   * development, a generated token lasts one run.
   */
  keptToken?: (file: string) => string;
}

/**
 * Reads the configuration from an environment (normally `process.env`).
 * Empty values count as unset, as they do in most `.env` files.
 * Throws ConfigError naming the first variable at fault.
 */
export function loadConfig(env: Record<string, string | undefined>, sources: ConfigSources = {}): Config {
  const e = parseEnv(EnvSchema, env);
  const database = parseDatabaseUrl(e.DATABASE_URL ?? `sqlite:./var/tenpo-${e.APP_ENV}.db`);

  const tokens = [e.PREORDER_API_TOKEN, e.ADMIN_API_TOKEN].filter((t) => t !== undefined);
  if (tokens.length === 2 && tokens[0] !== tokens[1]) {
    throw new ConfigError('PREORDER_API_TOKEN and ADMIN_API_TOKEN are both set and differ; set one of them');
  }
  if (tokens.length === 0 && e.APP_ENV === 'production') {
    throw new ConfigError('PREORDER_API_TOKEN (or ADMIN_API_TOKEN) is required when APP_ENV is production');
  }
  if (e.APP_ENV === 'production') {
    const tokenVariable = e.PREORDER_API_TOKEN !== undefined ? 'PREORDER_API_TOKEN' : 'ADMIN_API_TOKEN';
    for (const [variable, value] of [
      [tokenVariable, tokens[0]],
      ['UNSUBSCRIBE_SECRET', e.UNSUBSCRIBE_SECRET],
      ['METRICS_TOKEN', e.METRICS_TOKEN],
    ] as const) {
      if (value !== undefined && value.length < MIN_PRODUCTION_SECRET) {
        throw new ConfigError(`${variable} must be at least ${MIN_PRODUCTION_SECRET} characters when APP_ENV is production`);
      }
    }
  }
  const adminTokenFile =
    tokens.length === 0 && e.APP_ENV === 'development' && sources.keptToken ? developmentTokenFile(database) : undefined;
  const adminToken = tokens[0] ?? (adminTokenFile ? sources.keptToken!(adminTokenFile) : generateToken());
  const unsubscribeSecret = e.UNSUBSCRIBE_SECRET ?? deriveSecret('unsubscribe', adminToken);

  return {
    port: e.PORT,
    host: e.HOST,
    appEnv: e.APP_ENV,
    database,
    adminToken,
    adminTokenGenerated: tokens.length === 0,
    adminTokenFile,
    email: {
      from: e.EMAIL_FROM,
      api: e.EMAIL_PROVIDER_API_KEY ? { url: e.EMAIL_API_URL, key: e.EMAIL_PROVIDER_API_KEY } : undefined,
      smtpUrl: e.SMTP_URL,
    },
    webhooks: {
      reservation: e.RESERVATION_WEBHOOK_URL,
      restock: e.RESTOCK_WEBHOOK_URL,
      public: e.PUBLIC_WEBHOOK_URL,
    },
    cors: { productionOrigin: e.PRODUCTION_ORIGIN, previewOriginPattern: e.PREVIEW_ORIGIN_PATTERN },
    publicBaseUrl: (e.PUBLIC_BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    catalogPath: e.CATALOG_PATH,
    contentDir: e.CONTENT_DIR,
    searchIndexPath: e.SEARCH_INDEX_PATH,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    adminAuthFailuresPerMinute: e.ADMIN_AUTH_FAILURES_PER_MINUTE,
    outboxLeaseMs: e.OUTBOX_LEASE_SECONDS * 1000,
    outboxRetentionDays: e.OUTBOX_RETENTION_DAYS,
    trustProxy: e.TRUST_PROXY ?? { hops: 0 },
    maxConnectionsPerClient: e.MAX_CONNECTIONS_PER_CLIENT,
    unsubscribeSecret,
    emailsPerAddressPerDay: e.EMAILS_PER_ADDRESS_PER_DAY,
    keywordLogRetentionDays: e.KEYWORD_LOG_RETENTION_DAYS,
    keywordLogClientSecret: deriveSecret('keyword-log-clients', unsubscribeSecret),
    idempotencySecret: deriveSecret('idempotency-fingerprints', unsubscribeSecret),
    metricsToken: e.METRICS_TOKEN,
    shutdownDrainMs: (e.SHUTDOWN_DRAIN_SECONDS ?? (e.APP_ENV === 'development' ? 0 : 5)) * 1000,
    logLevel: e.LOG_LEVEL,
  };
}

/** Every variable the configuration reads, with its description and default (for `.env.example`). */
export function configVariables(): { name: string; description: string; defaultValue?: string }[] {
  return Object.entries(EnvSchema.shape).map(([name, schema]) => {
    const fallback = schema.safeParse(undefined);
    const defaultValue = fallback.success && fallback.data !== undefined ? String(fallback.data) : undefined;
    return { name, description: schema.description ?? '', defaultValue };
  });
}

/**
 * The paths building the search index needs (scripts/build-search-index.ts). A build has no
 * secrets, so nothing else is read, and nothing else is required.
 */
export function loadContentConfig(env: Record<string, string | undefined>): Pick<Config, 'contentDir' | 'searchIndexPath'> {
  const e = parseEnv(EnvSchema.pick({ CONTENT_DIR: true, SEARCH_INDEX_PATH: true }), env);
  return { contentDir: e.CONTENT_DIR, searchIndexPath: e.SEARCH_INDEX_PATH };
}

/** Empty values count as unset, as they do in most `.env` files. Throws ConfigError naming the first variable at fault. */
function parseEnv<S extends z.ZodObject>(schema: S, env: Record<string, string | undefined>): z.output<S> {
  const present = Object.fromEntries(
    Object.keys(schema.shape)
      .map((key) => [key, env[key]?.trim()] as const)
      .filter(([, value]) => value !== undefined && value !== ''),
  );
  // Parsed once a start: without zod's compiled fast path, which costs more to make than one parse.
  const parsed = schema.safeParse(present, { jitless: true });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const variable = String(issue.path[0]);
    const shown = SECRET_VARIABLES.has(variable) ? '' : ` (got ${JSON.stringify(present[variable])})`;
    throw new ConfigError(`${variable} ${describeIssue(issue)}${shown}`);
  }
  return parsed.data;
}

/** A new random admin token. */
export function generateToken(): string {
  return randomBytes(24).toString('base64url');
}

/**
 * Where the development token is kept: beside the SQLite store it goes with (var/ by default), since
 * what it signs refers to that store's records; `var/` for an in-memory or PostgreSQL store.
 */
function developmentTokenFile(database: DatabaseTarget): string {
  const directory = database.dialect === 'sqlite' && database.path !== ':memory:' ? dirname(database.path) : 'var';
  return join(directory, 'development-admin-token');
}

/** A secret for one purpose derived from another, so leaking one never reveals the other. */
function deriveSecret(purpose: string, from: string): string {
  return createHash('sha256').update(`tenpo:${purpose}:`).update(from).digest('base64url');
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_value') return `must be one of ${issue.values.map(String).join(', ')}`;
  return issue.message;
}

export function parseDatabaseUrl(url: string): DatabaseTarget {
  if (url === 'sqlite::memory:') return { dialect: 'sqlite', path: ':memory:' };
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length);
    if (path !== '') return { dialect: 'sqlite', path };
  }
  if (/^postgres(ql)?:\/\//.test(url) && URL.canParse(url)) return { dialect: 'postgres', url };
  throw new ConfigError('DATABASE_URL must be sqlite:<path>, sqlite::memory: or postgres://user:password@host:port/database');
}
