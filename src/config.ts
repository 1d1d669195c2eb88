import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';

export type Environment = 'development' | 'preview' | 'production';

export type DatabaseTarget =
  | { dialect: 'sqlite'; path: string }
  | { dialect: 'postgres'; url: string };

export interface Config {
  port: number;
  host: string;
  appEnv: Environment;
  database: DatabaseTarget;
  adminToken: string;
  /** True when no token was configured and one was generated for this run. */
  adminTokenGenerated: boolean;
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
  /** How long the dispatcher holds a message it claimed; a crashed holder's messages are sent again after this. */
  outboxLeaseMs: number;
  /** The client of a request is the last X-Forwarded-For address (set it behind one reverse proxy). */
  trustProxy: boolean;
  unsubscribeSecret: string;
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

const httpUrl = z
  .string()
  .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), 'must be an http(s) URL');

const regex = z.string().transform((source, ctx) => {
  try {
    return new RegExp(`^(?:${source})$`);
  } catch {
    ctx.addIssue({ code: 'custom', message: 'must be a valid regular expression' });
    return z.NEVER;
  }
});

const EnvSchema = z.object({
  PORT: integer(0, 65535).default(8787),
  HOST: z.string().default('0.0.0.0'),
  APP_ENV: z.enum(['development', 'preview', 'production']).default('development'),
  DATABASE_URL: z.string().optional(),
  PREORDER_API_TOKEN: z.string().optional(),
  ADMIN_API_TOKEN: z.string().optional(),
  EMAIL_PROVIDER_API_KEY: z.string().optional(),
  EMAIL_API_URL: httpUrl.default(DEFAULT_EMAIL_API_URL),
  SMTP_URL: z
    .string()
    .refine((value) => URL.canParse(value) && /^smtps?:$/.test(new URL(value).protocol), 'must be an smtp:// or smtps:// URL')
    .optional(),
  EMAIL_FROM: z.string().default('tenpo <no-reply@localhost>'),
  RESERVATION_WEBHOOK_URL: httpUrl.optional(),
  RESTOCK_WEBHOOK_URL: httpUrl.optional(),
  PUBLIC_WEBHOOK_URL: httpUrl.optional(),
  PRODUCTION_ORIGIN: httpUrl.optional(),
  PREVIEW_ORIGIN_PATTERN: regex.optional(),
  PUBLIC_BASE_URL: httpUrl.optional(),
  CATALOG_PATH: z.string().default('data/products.json'),
  CONTENT_DIR: z.string().default('content'),
  SEARCH_INDEX_PATH: z.string().default('build/search-index.bin'),
  RATE_LIMIT_PER_MINUTE: integer(0, 1_000_000).default(10),
  OUTBOX_LEASE_SECONDS: integer(1, 3600).default(60),
  TRUST_PROXY: z.enum(['true', 'false', '1', '0']).optional(),
  UNSUBSCRIBE_SECRET: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
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
  'RESERVATION_WEBHOOK_URL',
  'RESTOCK_WEBHOOK_URL',
  'PUBLIC_WEBHOOK_URL',
]);

/**
 * Reads the configuration from an environment (normally `process.env`).
 * Empty values count as unset, as they do in most `.env` files.
 * Throws ConfigError naming the first variable at fault.
 */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const e = parseEnv(EnvSchema, env);

  const tokens = [e.PREORDER_API_TOKEN, e.ADMIN_API_TOKEN].filter((t) => t !== undefined);
  if (tokens.length === 2 && tokens[0] !== tokens[1]) {
    throw new ConfigError('PREORDER_API_TOKEN and ADMIN_API_TOKEN are both set and differ; set one of them');
  }
  if (tokens.length === 0 && e.APP_ENV === 'production') {
    throw new ConfigError('PREORDER_API_TOKEN (or ADMIN_API_TOKEN) is required when APP_ENV is production');
  }
  const adminToken = tokens[0] ?? randomBytes(24).toString('base64url');

  return {
    port: e.PORT,
    host: e.HOST,
    appEnv: e.APP_ENV,
    database: parseDatabaseUrl(e.DATABASE_URL ?? `sqlite:./var/tenpo-${e.APP_ENV}.db`),
    adminToken,
    adminTokenGenerated: tokens.length === 0,
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
    outboxLeaseMs: e.OUTBOX_LEASE_SECONDS * 1000,
    trustProxy: e.TRUST_PROXY === 'true' || e.TRUST_PROXY === '1',
    unsubscribeSecret: e.UNSUBSCRIBE_SECRET ?? deriveSecret('unsubscribe', adminToken),
    logLevel: e.LOG_LEVEL,
  };
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
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const variable = String(issue.path[0]);
    const shown = SECRET_VARIABLES.has(variable) ? '' : ` (got ${JSON.stringify(present[variable])})`;
    throw new ConfigError(`${variable} ${describeIssue(issue)}${shown}`);
  }
  return parsed.data;
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
