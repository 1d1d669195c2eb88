import { createHash, createPrivateKey, randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { nestsQuantifiers } from './text/nested-quantifiers.ts';

export type Environment = 'development' | 'preview' | 'production';

export type DatabaseTarget = { dialect: 'sqlite'; path: string } | { dialect: 'postgres'; url: string };

/** The proxies in front of the service: always `hops` of them (0: none), or the ones at these addresses and CIDR ranges. */
export type ProxyTrust = { hops: number } | { addresses: string[] };

/** The key SMTP mail is signed with (DKIM): published at `<selector>._domainkey.<domain>`. */
export interface DkimKey {
  domain: string;
  selector: string;
  /** PEM. */
  privateKey: string;
}

export interface Config {
  port: number;
  host: string;
  appEnv: Environment;
  database: DatabaseTarget;
  adminToken: string;
  /** True when no token was configured and one was generated. */
  adminTokenGenerated: boolean;
  /** Where a generated token is kept across restarts, outside production (absent: new at each start). */
  adminTokenFile?: string;
  email: {
    from: string;
    api?: { url: string; key: string };
    smtpUrl?: string;
    /** Signs SMTP mail; absent: unsigned. */
    dkim?: DkimKey;
    /** Verifies the provider's signed delivery events (`whsec_…`); absent: POST /api/webhooks/email answers 404. */
    webhookSecret?: string;
    /** Keys the hash a suppressed address is kept as once its customer is erased; derived from the unsubscribe secret, so every instance has the same. */
    addressKeySecret: string;
  };
  webhooks: {
    reservation?: string;
    restock?: string;
    public?: string;
  };
  cors: { productionOrigin?: string; previewOriginPattern?: RegExp };
  /** Where customers and staff reach tenpo: its own pages (manage, unsubscribe, the console). */
  publicBaseUrl: string;
  /** The storefront's base URL: the product pages emails and the public chat post link to. */
  storefrontUrl: string;
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

/** Configuration problems, each phrased as the one line the operator reads before the process exits. */
export class ConfigError extends Error {
  override name = 'ConfigError';
  readonly problems: string[];
  constructor(problems: string | string[]) {
    const list = typeof problems === 'string' ? [problems] : problems;
    super(list.join('\n'));
    this.problems = list;
  }
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

/** A variable's description, and its default in markdown when the schema cannot give it (one computed at start, or none). */
const about = (description: string, shownDefault?: string) => ({ description, shownDefault });

// Each variable's description is what `.env.example` and docs/configuration.md say of it (npm run
// env:example writes both from here), in the order they list them.
const EnvSchema = z.object({
  PORT: integer(0, 65535).default(8787).meta(about('The HTTP port to listen on.')),
  HOST: z.string().default('0.0.0.0').meta(about('The address to listen on.')),
  APP_ENV: z
    .enum(['development', 'preview', 'production'])
    .optional()
    .meta(
      about(
        '`development`, `preview` or `production`; each has its own data store (the default `DATABASE_URL`). `production` requires `PREORDER_API_TOKEN`, `PUBLIC_BASE_URL` and `STOREFRONT_URL`, both https.',
        '`development`, or `production` when `NODE_ENV` is',
      ),
    ),
  NODE_ENV: z
    .string()
    .optional()
    .meta(
      about(
        'Read for one thing only: `production` here with `APP_ENV` unset starts in `production`, and with `APP_ENV=development` is refused, so a process the host meant for production never runs as development.',
      ),
    ),
  DATABASE_URL: z
    .string()
    .optional()
    .meta(
      about(
        '`sqlite:<path>`, `sqlite::memory:` or `postgres://user:pass@host:port/db`. A SQLite file or directory the process cannot write stops the start naming the file; a new file (and its `-wal`, `-shm`) is created readable by its owner only (0600), a new directory 0700; an existing file (or `-wal`, `-shm`) others may read is made 0600 at start, with a warning naming it.',
        '`sqlite:./var/tenpo-<APP_ENV>.db`',
      ),
    ),
  PREORDER_API_TOKEN: z
    .string()
    .optional()
    .meta(
      about(
        'The admin bearer token (or `ADMIN_API_TOKEN`). Required in `production`, at least 32 characters there. Unset elsewhere, a random one is generated once and kept in `<APP_ENV>-admin-token` beside the SQLite file (`var/` for other stores), readable by its owner only, so restarts keep the console signed in; the start names the file, and shows the token itself only in `development` on a terminal, never in a log.',
        'generated',
      ),
    ),
  ADMIN_API_TOKEN: z.string().optional().meta(about('Another name for `PREORDER_API_TOKEN`; both set and different is an error.')),
  PUBLIC_BASE_URL: httpUrl
    .optional()
    .meta(
      about(
        "Where customers and staff reach tenpo itself: the base of the unsubscribe link and the customer's reservation page in emails, and of the link to a record's page in the console (`<PUBLIC_BASE_URL>/admin#/…`) in the shop's chat notices; also the server named in `/openapi.json`, an origin the signed-in console may post from (besides the `Host` it is reached at), and, when `https`, what makes the session cookie `Secure`. Required in `production`, and https there.",
        '`http://localhost:<PORT>`',
      ),
    ),
  STOREFRONT_URL: httpUrl
    .optional()
    .meta(
      about(
        "The storefront's base URL, where the product pages are: a product's link in emails (the restock email's 商品ページ, the reservation emails') and in the public chat post is its `detailHref` joined to it (the storefront's front page when it has none). Required in `production`, and https there.",
        '`PUBLIC_BASE_URL`',
      ),
    ),
  UNSUBSCRIBE_SECRET: z
    .string()
    .optional()
    .meta(
      about(
        "Signs unsubscribe links and the customer's reservation-page links (HMAC-SHA256 of the id); set the same on every instance; at least 32 characters in `production`. Changing it (or the admin token, when it is derived) invalidates links already sent, and for 24 hours answers 422 to retries of Idempotency-Keys taken before.",
        'derived from the admin token',
      ),
    ),
  METRICS_TOKEN: z
    .string()
    .optional()
    .meta(
      about(
        'A bearer token that opens `GET /metrics` (and nothing else) besides the admin token, for the scraper; at least 32 characters in `production`.',
      ),
    ),
  CATALOG_PATH: z
    .string()
    .default('data/products.json')
    .meta(about('The catalog snapshot (a JSON array of products); an invalid file stops the start naming the product and field.')),
  CONTENT_DIR: z
    .string()
    .default('content')
    .meta(
      about(
        'Searchable content, `<dir>/<contentType>/<fileSlug>.md` with YAML front matter `title`, `description`, `tags`, `createdAt`; bad front matter stops the start naming the file.',
      ),
    ),
  SEARCH_INDEX_PATH: z
    .string()
    .default('build/search-index.json')
    .meta(
      about(
        'Where `npm run build` writes the prebuilt search index; a start uses it only if it was built from the same content and code, otherwise it builds the index from the files (a slower start, never a stale index).',
      ),
    ),
  PRODUCTION_ORIGIN: httpUrl.optional().meta(about("The shop's site origin, allowed by CORS on public routes.")),
  PREVIEW_ORIGIN_PATTERN: originPattern
    .optional()
    .meta(
      about(
        'A regular expression matching whole preview origins allowed by CORS, e.g. `https://[a-z0-9-]+\\.shop-preview\\.pages\\.dev`. A pattern that repeats a group holding a repetition (`(a+)+`, `([a-z]+-)*`), which can backtrack catastrophically, stops the start; an `Origin` longer than 253 characters is never allowed.',
      ),
    ),
  EMAIL_PROVIDER_API_KEY: z
    .string()
    .optional()
    .meta(
      about(
        'The key of a Resend-compatible email API; emails go through it when set: `POST` with `Authorization: Bearer <key>` and `Idempotency-Key`. A non-2xx answer is retried, except a 4xx other than 408, 409 and 429, which gives the message up at once (docs/operations.md#answers-that-cannot-succeed-and-retry-after); `Retry-After` on 429 and 503 is followed.',
      ),
    ),
  EMAIL_API_URL: httpUrl.default(DEFAULT_EMAIL_API_URL).meta(about('The email API endpoint (see `EMAIL_PROVIDER_API_KEY`).')),
  SMTP_URL: z
    .string()
    .refine((value) => URL.canParse(value) && /^smtps?:$/.test(new URL(value).protocol), 'must be an smtp:// or smtps:// URL')
    .optional()
    .meta(
      about(
        '`smtp://user:pass@host:port` (or `smtps://`), sent through nodemailer; used when no API key is set; a 5xx reply gives the message up at once, a 4xx one is retried. With neither, emails are logged and counted as skipped.',
      ),
    ),
  EMAIL_FROM: z.string().default('tenpo <no-reply@localhost>').meta(about('The sender of customer emails.')),
  EMAIL_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_[A-Za-z0-9+/]{16,}={0,2}$/, 'must be whsec_ followed by the base64 secret the provider shows')
    .optional()
    .meta(
      about(
        "The signing secret (`whsec_…`) of the email provider's webhook for delivery events (Resend's, signed the Svix way), which `POST /api/webhooks/email` verifies each event with; unset, that route answers 404. Bounces and complaints then suppress their addresses (docs/operations.md#bounces-and-complaints).",
      ),
    ),
  DKIM_DOMAIN: z
    .string()
    .regex(/^(?=.{1,253}$)[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/, 'must be a domain name such as shop.example.jp')
    .optional()
    .meta(about('The domain SMTP mail is signed for (DKIM `d=`); with `DKIM_SELECTOR` and `DKIM_PRIVATE_KEY`, all three or none.')),
  DKIM_SELECTOR: z
    .string()
    .regex(/^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*$/, 'must be letters, digits, hyphens and dots')
    .optional()
    .meta(
      about(
        'The DKIM selector (`s=`): the public key is published at `<selector>._domainkey.<domain>` (docs/operations.md#sender-authentication).',
      ),
    ),
  DKIM_PRIVATE_KEY: z
    .string()
    .optional()
    .meta(
      about(
        'The PEM private key (RSA or Ed25519) SMTP mail is signed with; `\\n` in it is read as a line break, so it fits on one line of `.env`. A key that does not parse stops the start.',
      ),
    ),
  RESERVATION_WEBHOOK_URL: httpUrl
    .optional()
    .meta(
      about(
        'A chat webhook told of each new reservation (product, name, email, id, time): Discord style `{content, embeds}` for discord.com / discordapp.com hosts, Slack style `{text, blocks}` otherwise. Each chat webhook unset is skipped silently.',
      ),
    ),
  RESTOCK_WEBHOOK_URL: httpUrl.optional().meta(about('A chat webhook told of each new restock signup (product, email, id, time).')),
  PUBLIC_WEBHOOK_URL: httpUrl
    .optional()
    .meta(about('A chat webhook for the public "back in stock" announcement (product, price, page), never a name or an address.')),
  TRUST_PROXY: proxyTrust
    .optional()
    .meta(
      about(
        "The reverse proxies in front, whose `X-Forwarded-For` entries are believed (otherwise every customer would share the proxy's budgets): `false` none, the connection is the client; `true` (every hop: one proxy, and every connection from a private or loopback address is taken for it, so any process on those networks or this host can name any client) or a number n: always n proxies, reached from a private or loopback address (a connection from any other address came past them, and its header is ignored), the client is the n-th entry from the right; or a comma-separated list of the proxies' addresses and CIDR ranges (`10.0.0.0/8, 192.0.2.7`): from the connection leftwards every trusted address passes on to the entry before it, and the first untrusted one is the client. Entries further left are the client's own claims and never count, nor does an entry that is not an IP address.",
        '`false`',
      ),
    ),
  RATE_LIMIT_PER_MINUTE: integer(0, 1_000_000)
    .default(10)
    .meta(
      about(
        "Requests per client IP per minute (a window starting at the client's first request), one budget shared by `POST /api/reservation` and `POST /api/notify`; every request counts, refused and invalid ones too; over it `429` with `Retry-After` (seconds); `0` turns it off. On PostgreSQL the counts are kept in the database (table `rate_limits`), so every instance draws on one budget; while the database does not answer each instance counts in memory. On SQLite they are kept in memory.",
      ),
    ),
  ADMIN_AUTH_FAILURES_PER_MINUTE: integer(0, 1_000_000)
    .default(20)
    .meta(
      about(
        "Failed admin authentications (401: a wrong token, a session that is not live, a refused sign-in) a client IP may make in a minute (a window starting at its first failure); past them every admin request from it, the right token included, gets `429` with `Retry-After` until that minute ends; `0` turns it off. Counted like `RATE_LIMIT_PER_MINUTE`'s requests.",
      ),
    ),
  EMAILS_PER_ADDRESS_PER_DAY: integer(0, 1000)
    .default(10)
    .meta(
      about(
        "Emails the public forms (a reservation's confirmation) may cause to one address in 24 hours, counted by canonical address (a `+tag` or gmail's dots make no new one); past that the reservation is stored and its email kept as `skipped` with the reason, so nobody can make the shop flood a mailbox; `0` turns it off.",
      ),
    ),
  MAX_CONNECTIONS_PER_CLIENT: integer(0, 100_000)
    .default(100)
    .meta(
      about(
        'Open connections one peer address may hold; further ones are closed as soon as they are accepted, so one host cannot take every file descriptor; `0` turns it off. A proxy `TRUST_PROXY` trusts is exempt (its connections carry many clients). Whatever the setting, a request whose headers are not complete within 10 s, or that is not wholly received within 30 s, is closed (docs/operations.md#what-the-service-defends-itself-against).',
      ),
    ),
  KEYWORD_LOG_RETENTION_DAYS: integer(1, 3650)
    .default(90)
    .meta(
      about(
        'Days a search is kept in the keyword log (1-3650); older entries are deleted with their hourly counts, at start and every 10 minutes (docs/search.md#the-keyword-log).',
      ),
    ),
  OUTBOX_LEASE_SECONDS: integer(1, 3600)
    .default(60)
    .meta(
      about(
        'How long an instance holds a message it is delivering (1-3600); if the instance dies, its messages are sent again once the lease runs out. Keep it well above 15 s, the send timeout, or a slow delivery can be claimed and sent twice.',
      ),
    ),
  OUTBOX_RETENTION_DAYS: integer(1, 3650)
    .default(30)
    .meta(
      about(
        'Days a message (an email, a chat post) is kept once sent or skipped, or once given up (1-3650); then it is deleted, and with it the address it names. Every instance looks every 10 minutes and at start, 1,000 rows a statement (docs/operations.md#the-message-log-and-its-retention).',
      ),
    ),
  SHUTDOWN_DRAIN_SECONDS: integer(0, 300)
    .optional()
    .meta(
      about(
        "On SIGTERM, how long `/readyz` answers 503 while requests are still served, before the listener closes (0-300): at least the load balancer's health check interval times its unhealthy threshold.",
        '`5`, `0` in `development`',
      ),
    ),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .default('info')
    .meta(
      about(
        '`fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`. At `info`, failed requests are logged; `debug` logs every request.',
      ),
    ),
});

/** Variables whose values must never be echoed, not even in an error message. */
const SECRET_VARIABLES = new Set([
  'PREORDER_API_TOKEN',
  'ADMIN_API_TOKEN',
  'EMAIL_PROVIDER_API_KEY',
  // A URL can carry credentials (https://user:pass@host/…), so no URL is echoed either.
  'EMAIL_API_URL',
  'SMTP_URL',
  'EMAIL_WEBHOOK_SECRET',
  'DKIM_PRIVATE_KEY',
  'DATABASE_URL',
  'UNSUBSCRIBE_SECRET',
  'METRICS_TOKEN',
  'RESERVATION_WEBHOOK_URL',
  'RESTOCK_WEBHOOK_URL',
  'PUBLIC_WEBHOOK_URL',
]);

export interface ConfigSources {
  /**
   * Returns the token kept in `file`, making and saving one the first time. Given, a development or
   * preview start without a configured token keeps its token there, so the console stays signed in
   * and links signed with it (unsubscribe) keep working across restarts, and the operator, who is
   * never shown it outside development on a terminal, can read it there. Without it, a generated
   * token lasts one run; production requires one configured.
   */
  keptToken?: (file: string) => string;
}

/**
 * Reads the configuration from an environment (normally `process.env`).
 * Empty values count as unset, as they do in most `.env` files.
 * Throws ConfigError naming every variable at fault, one line each.
 */
export function loadConfig(env: Record<string, string | undefined>, sources: ConfigSources = {}): Config {
  const { values: e, problems, failed } = parseEnv(EnvSchema, env);
  const faulty = (variable: string, problem: string) => {
    problems.push(`${variable} ${problem}`);
    failed.add(variable);
  };

  // NODE_ENV=production is what most hosts set for a production process: followed when APP_ENV is
  // unset, refused against an APP_ENV that says development, so a production never runs as one.
  if (e.APP_ENV === 'development' && e.NODE_ENV === 'production') {
    faulty('APP_ENV', 'is development but NODE_ENV is production: set APP_ENV to production (or preview), or unset NODE_ENV');
  }
  const appEnv = environmentOf(e);
  const production = appEnv === 'production';
  const inProduction = 'when APP_ENV is production';

  let database: DatabaseTarget = { dialect: 'sqlite', path: ':memory:' };
  try {
    database = parseDatabaseUrl(e.DATABASE_URL ?? `sqlite:./var/tenpo-${appEnv}.db`);
  } catch (error) {
    problems.push((error as ConfigError).message);
  }

  const tokens = [e.PREORDER_API_TOKEN, e.ADMIN_API_TOKEN].filter((t) => t !== undefined);
  if (tokens.length === 2 && tokens[0] !== tokens[1]) {
    problems.push('PREORDER_API_TOKEN and ADMIN_API_TOKEN are both set and differ; set one of them');
  }
  if (tokens.length === 0 && production) faulty('PREORDER_API_TOKEN', `(or ADMIN_API_TOKEN) is required ${inProduction}`);
  if (production) {
    const tokenVariable = e.PREORDER_API_TOKEN !== undefined ? 'PREORDER_API_TOKEN' : 'ADMIN_API_TOKEN';
    for (const [variable, value] of [
      [tokenVariable, tokens[0]],
      ['UNSUBSCRIBE_SECRET', e.UNSUBSCRIBE_SECRET],
      ['METRICS_TOKEN', e.METRICS_TOKEN],
    ] as const) {
      if (value !== undefined && value.length < MIN_PRODUCTION_SECRET) {
        faulty(variable, `must be at least ${MIN_PRODUCTION_SECRET} characters ${inProduction}`);
      } else if (value !== undefined && new Set(value).size === 1) {
        // 40 × `a` has the length and none of the secret.
        faulty(variable, `must not be one character repeated ${inProduction}`);
      }
    }
    // A customer's links go where these say: localhost, or a page served in clear, hurts them.
    for (const [variable, value, why] of [
      ['PUBLIC_BASE_URL', e.PUBLIC_BASE_URL, "customers' unsubscribe and reservation links and the staff's links would point at localhost"],
      ['STOREFRONT_URL', e.STOREFRONT_URL, 'the product pages emails and the public chat post link to would be looked for on tenpo'],
    ] as const) {
      if (failed.has(variable)) continue;
      if (value === undefined) faulty(variable, `is required ${inProduction}: ${why}`);
      else if (new URL(value).protocol !== 'https:')
        faulty(variable, `must be an https URL ${inProduction}: the links emailed to customers would travel unencrypted`);
    }
  }
  const dkim = dkimKey(e, failed, faulty);
  if (problems.length > 0) throw new ConfigError(problems);

  const keptTokenFile = tokens.length === 0 && appEnv !== 'production' && sources.keptToken ? tokenFile(database, appEnv) : undefined;
  const adminToken = tokens[0] ?? (keptTokenFile ? sources.keptToken!(keptTokenFile) : generateToken());
  const unsubscribeSecret = e.UNSUBSCRIBE_SECRET ?? deriveSecret('unsubscribe', adminToken);
  const publicBaseUrl = (e.PUBLIC_BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');

  return {
    port: e.PORT,
    host: e.HOST,
    appEnv,
    database,
    adminToken,
    adminTokenGenerated: tokens.length === 0,
    adminTokenFile: keptTokenFile,
    email: {
      from: e.EMAIL_FROM,
      api: e.EMAIL_PROVIDER_API_KEY ? { url: e.EMAIL_API_URL, key: e.EMAIL_PROVIDER_API_KEY } : undefined,
      smtpUrl: e.SMTP_URL,
      dkim,
      webhookSecret: e.EMAIL_WEBHOOK_SECRET,
      addressKeySecret: deriveSecret('suppressed-addresses', unsubscribeSecret),
    },
    webhooks: {
      reservation: e.RESERVATION_WEBHOOK_URL,
      restock: e.RESTOCK_WEBHOOK_URL,
      public: e.PUBLIC_WEBHOOK_URL,
    },
    cors: { productionOrigin: e.PRODUCTION_ORIGIN, previewOriginPattern: e.PREVIEW_ORIGIN_PATTERN },
    publicBaseUrl,
    storefrontUrl: (e.STOREFRONT_URL ?? publicBaseUrl).replace(/\/+$/, ''),
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
    shutdownDrainMs: (e.SHUTDOWN_DRAIN_SECONDS ?? (appEnv === 'development' ? 0 : 5)) * 1000,
    logLevel: e.LOG_LEVEL,
  };
}

/** Every variable the configuration reads, described, with its default (for `.env.example` and docs/configuration.md). */
export function configVariables(): { name: string; description: string; defaultValue?: string; shownDefault?: string }[] {
  return Object.entries(EnvSchema.shape).map(([name, schema]) => {
    const fallback = schema.safeParse(undefined);
    const defaultValue = fallback.success && fallback.data !== undefined ? String(fallback.data) : undefined;
    const meta = schema.meta() as ReturnType<typeof about> | undefined;
    return {
      name,
      description: meta?.description ?? '',
      defaultValue,
      shownDefault: meta?.shownDefault ?? (defaultValue === undefined ? undefined : `\`${defaultValue}\``),
    };
  });
}

/**
 * The paths building the search index needs (scripts/build-search-index.ts). A build has no
 * secrets, so nothing else is read, and nothing else is required.
 */
export function loadContentConfig(env: Record<string, string | undefined>): Pick<Config, 'contentDir' | 'searchIndexPath'> {
  const { values: e, problems } = parseEnv(EnvSchema.pick({ CONTENT_DIR: true, SEARCH_INDEX_PATH: true }), env);
  if (problems.length > 0) throw new ConfigError(problems);
  return { contentDir: e.CONTENT_DIR, searchIndexPath: e.SEARCH_INDEX_PATH };
}

/**
 * The store the service's configuration names (the database commands, scripts/db.ts): a backup or a
 * migration needs no secret, so nothing else is read, and nothing else is required.
 */
export function loadDatabaseTarget(env: Record<string, string | undefined>): { appEnv: Config['appEnv']; database: DatabaseTarget } {
  const { values: e, problems } = parseEnv(EnvSchema.pick({ APP_ENV: true, NODE_ENV: true, DATABASE_URL: true }), env);
  if (problems.length > 0) throw new ConfigError(problems);
  const appEnv = environmentOf(e);
  return { appEnv, database: parseDatabaseUrl(e.DATABASE_URL ?? `sqlite:./var/tenpo-${appEnv}.db`) };
}

/**
 * Empty values count as unset, as they do in most `.env` files. Each variable at fault is one line of
 * `problems` and is in `failed`; `values` holds the others' (a faulty one's default, or nothing),
 * so that the checks across variables can go on and name every fault of a start at once.
 */
function parseEnv<S extends z.ZodObject>(
  schema: S,
  env: Record<string, string | undefined>,
): { values: z.output<S>; problems: string[]; failed: Set<string> } {
  const present: Record<string, string | undefined> = Object.fromEntries(
    Object.keys(schema.shape)
      .map((key) => [key, env[key]?.trim()] as const)
      .filter(([, value]) => value !== undefined && value !== ''),
  );
  // Parsed once a start: without zod's compiled fast path, which costs more to make than one parse.
  const parsed = schema.safeParse(present, { jitless: true });
  if (parsed.success) return { values: parsed.data, problems: [], failed: new Set() };
  const problems: string[] = [];
  const failed = new Set<string>();
  for (const issue of parsed.error.issues) {
    const variable = String(issue.path[0]);
    if (failed.has(variable)) continue;
    failed.add(variable);
    const shown = SECRET_VARIABLES.has(variable) ? '' : ` (got ${JSON.stringify(present[variable])})`;
    problems.push(`${variable} ${describeIssue(issue)}${shown}`);
  }
  const rest = Object.fromEntries(Object.entries(present).filter(([key]) => !failed.has(key)));
  return { values: schema.parse(rest, { jitless: true }), problems, failed };
}

/**
 * The DKIM key when all three variables are set and the key parses; a fault for each one missing
 * (not one refused already), or a key that does not parse.
 */
function dkimKey(
  e: { DKIM_DOMAIN?: string | undefined; DKIM_SELECTOR?: string | undefined; DKIM_PRIVATE_KEY?: string | undefined },
  failed: ReadonlySet<string>,
  faulty: (variable: string, problem: string) => void,
): DkimKey | undefined {
  const set = { DKIM_DOMAIN: e.DKIM_DOMAIN, DKIM_SELECTOR: e.DKIM_SELECTOR, DKIM_PRIVATE_KEY: e.DKIM_PRIVATE_KEY };
  if (Object.keys(set).some((variable) => failed.has(variable))) return undefined;
  const missing = Object.entries(set).filter(([, value]) => value === undefined);
  if (missing.length === 3) return undefined;
  for (const [variable] of missing) faulty(variable, 'is required when any of DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY is set');
  if (missing.length > 0) return undefined;
  const privateKey = e.DKIM_PRIVATE_KEY!.replaceAll('\\n', '\n');
  try {
    createPrivateKey(privateKey);
  } catch {
    faulty('DKIM_PRIVATE_KEY', 'is not a PEM private key');
    return undefined;
  }
  return { domain: e.DKIM_DOMAIN!, selector: e.DKIM_SELECTOR!, privateKey };
}

/** APP_ENV, or `production` when it is unset and NODE_ENV says so. */
function environmentOf(e: { APP_ENV?: Environment | undefined; NODE_ENV?: string | undefined }): Environment {
  return e.APP_ENV ?? (e.NODE_ENV === 'production' ? 'production' : 'development');
}

/** A new random admin token. */
export function generateToken(): string {
  return randomBytes(24).toString('base64url');
}

/**
 * Where a generated token is kept (`<APP_ENV>-admin-token`): beside the SQLite store it goes with
 * (var/ by default), since what it signs refers to that store's records; `var/` for an in-memory or
 * PostgreSQL store.
 */
function tokenFile(database: DatabaseTarget, appEnv: Environment): string {
  const directory = database.dialect === 'sqlite' && database.path !== ':memory:' ? dirname(database.path) : 'var';
  return join(directory, `${appEnv}-admin-token`);
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
