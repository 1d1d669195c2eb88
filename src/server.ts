import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createApp, type Services } from './app.ts';
import { loadCatalog } from './catalog/catalog.ts';
import type { Config } from './config.ts';
import { groupCommit, type Transaction } from './db/group-commit.ts';
import { openDatabase, type Database } from './db/database.ts';
import { Readiness } from './health/readiness.ts';
import { startKeyPurge } from './idempotency/purge.ts';
import { directLane } from './serving/direct-lane.ts';
import { createNodeServer, DEFAULT_CONNECTION_LIMITS, type NodeServerOptions } from './serving/node-server.ts';
import { adminThrottle } from './http/admin-throttle.ts';
import { refusalBody } from './http/app-error.ts';
import { clientAddressOf, trustedPeer } from './http/client-address.ts';
import { ClientBudgets, createRateLimit, type Budgets } from './http/rate-limit.ts';
import { createKeywordLogStore } from './keyword-log/store.ts';
import { createKeywordLogWriter } from './keyword-log/writer.ts';
import type { Logger } from './log.ts';
import { createDelivery } from './messaging/delivery/delivery.ts';
import { Dispatcher, type DispatcherTimings } from './messaging/delivery/dispatcher.ts';
import { EmailEventCounts } from './messaging/reputation/event-counts.ts';
import { sessionReader } from './staff/sessions.ts';
import { passwordsHashed } from './staff/password.ts';
import { ACCOUNT_FAILURES } from './staff/sign-in.ts';
import { loadBrowserPages } from './web-assets/browser-page.ts';
import { outboxBacklog } from './messaging/figures.ts';
import { createMessaging } from './messaging/messaging.ts';
import { startOutboxRetention } from './messaging/outbox/retention.ts';
import { createMetrics } from './metrics/metrics.ts';
import { loadSiteIndex } from './search/prebuilt-index.ts';
import { siteSearch } from './search/site-search.ts';
import { createSuggester } from './search/suggest.ts';
import { startKeywordLogRetention } from './keyword-log/retention.ts';
import { suggestedKeywords } from './keyword-log/suggestions.ts';
import { suggestibleKeyword } from './search/suggestible.ts';

/** The most searched keywords suggestions draw on. */
const SUGGESTED_KEYWORDS = 1000;

/** How often expired Idempotency-Keys are deleted, and how many a statement deletes. */
const KEY_PURGE = { intervalMs: 10 * 60_000, batchSize: 1000 };
/** Messages past OUTBOX_RETENTION_DAYS: looked for as often, deleted as many a statement (bench/outbox-retention.ts). */
const OUTBOX_PURGE = { intervalMs: 10 * 60_000, batchSize: 1000 };
/** Keyword log entries past KEYWORD_LOG_RETENTION_DAYS, and suggestion clients past its window: the same. */
const KEYWORD_LOG_PURGE = { intervalMs: 10 * 60_000, batchSize: 1000 };

/** Connections the kernel may queue for the service to accept. */
const LISTEN_BACKLOG = 4096;

/** How long shutdown waits for requests in flight before closing their connections. */
const DRAIN_TIMEOUT_MS = 10_000;

export interface RunningServer {
  url: string;
  port: number;
  services: Services;
  /**
   * Answers /readyz with 503 for the configured drain delay while still serving, then stops accepting,
   * lets requests in flight finish, settles deliveries in flight, and closes the store.
   */
  close(): Promise<void>;
}

export interface StartOptions {
  /** Shorter outbox timings for tests; production uses DEFAULT_DISPATCHER_TIMINGS and the configured lease. */
  dispatcher?: Partial<DispatcherTimings>;
  /** A clock for preorder campaigns' dates and Idempotency-Keys' expiry (tests move it); default the system's. */
  now?: () => Date;
}

/** Loads everything the service needs, then listens. Throws (and leaves nothing open) if any part fails. */
export async function startServer(config: Config, log: Logger, options: StartOptions = {}): Promise<RunningServer> {
  const catalog = loadCatalog(config.catalogPath);
  const { index: searchIndex, file: indexFile } = await loadSiteIndex(config.contentDir, config.searchIndexPath, log);
  const pages = await loadBrowserPages({ development: config.appEnv === 'development', log });
  const database = await openDatabase(config.database, log);
  // One after the other: each limiter creates the shared table if it is missing.
  const [budgets, adminFailureBudgets, signInFailures] = await (async (): Promise<[Budgets, Budgets, Budgets]> => [
    await clientBudgets(database, config.rateLimitPerMinute, 'public-writes'),
    await clientBudgets(database, config.adminAuthFailuresPerMinute, 'admin-auth-failures'),
    await clientBudgets(database, ACCOUNT_FAILURES.allowed, 'sign-in-failures', ACCOUNT_FAILURES.windowSeconds),
  ])().catch(async (error: unknown) => {
    await database.close();
    throw error;
  });
  const keywordLogStore = createKeywordLogStore(database, {
    clientSecret: config.keywordLogClientSecret,
    suggestible: suggestibleKeyword(searchIndex),
  });
  const keywordLog = createKeywordLogWriter(keywordLogStore, log);
  const delivery = await createDelivery(config, log, database);
  const emailEvents = new EmailEventCounts();
  const dispatcher = new Dispatcher({
    database,
    deliver: delivery.deliver,
    addressKeySecret: config.email.addressKeySecret,
    emailEvents,
    log,
    timings: { leaseMs: config.outboxLeaseMs, ...options.dispatcher },
  });
  const now = options.now ?? (() => new Date());
  const messaging = createMessaging({
    catalog,
    publicBaseUrl: config.publicBaseUrl,
    storefrontUrl: config.storefrontUrl,
    linkSecret: config.unsubscribeSecret,
    emailsPerAddressPerDay: config.emailsPerAddressPerDay,
  });
  const reservationTransaction = reservationsTransaction(database);
  // Signups of the same moment share one transaction too, and on PostgreSQL one instance's at a time.
  const signupTransaction = groupCommit(database, { lock: 'tenpo.signups' });
  const clientAddress = clientAddressOf(config.trustProxy);
  const publicWriteLimit = createRateLimit({ perMinute: config.rateLimitPerMinute, clientAddress, budgets });
  const adminFailures = adminThrottle({ perMinute: config.adminAuthFailuresPerMinute, clientAddress, budgets: adminFailureBudgets });
  const readiness = new Readiness();
  const metrics = createMetrics({
    outboxBacklog: () => outboxBacklog(database.db),
    deliveryAttempts: () => dispatcher.attemptCounts(),
    keywordLogCounts: () => keywordLog.counts(),
    passwordsHashed,
    emailEvents: () => emailEvents.entries(),
  });
  const services: Services = {
    config,
    log,
    database,
    catalog,
    messaging,
    emailEvents,
    dispatcher,
    sendEmail: delivery.sendEmail,
    readiness,
    metrics,
    reservationTransaction,
    signupTransaction,
    publicWriteLimit,
    adminThrottle: adminFailures,
    signInFailures,
    sessions: sessionReader(database.db, now),
    search: {
      siteSearch: siteSearch(searchIndex),
      indexFile,
      suggester: createSuggester(searchIndex.documents, (since) => suggestedKeywords(database.db, since, SUGGESTED_KEYWORDS)),
    },
    keywordLogStore,
    keywordLog,
    now,
    pages,
  };
  const { app, exactPaths } = createApp(services);

  let server: Server;
  try {
    server = await listen(app.fetch, config.port, {
      hostname: config.host,
      limits: { ...DEFAULT_CONNECTION_LIMITS, perClient: config.maxConnectionsPerClient, isProxy: trustedPeer(config.trustProxy) },
      lane: directLane(exactPaths),
      log,
      refusal: refusalBody,
    });
  } catch (error) {
    await keywordLog.close();
    await delivery.close();
    await database.close();
    throw error;
  }
  // Messages left pending by an earlier run (or another instance) are picked up from here on.
  dispatcher.start();
  const keyPurge = startKeyPurge(database.db, log, { ...KEY_PURGE, now });
  const outboxRetention = startOutboxRetention(database, log, { ...OUTBOX_PURGE, retentionDays: config.outboxRetentionDays, now });
  const keywordLogRetention = startKeywordLogRetention(database.db, log, {
    ...KEYWORD_LOG_PURGE,
    retentionDays: config.keywordLogRetentionDays,
    now,
  });
  const { port } = server.address() as AddressInfo;
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;

  return {
    url: `http://${host}:${port}`,
    port,
    services,
    close: async () => {
      readiness.drain();
      // The load balancer sees /readyz fail and stops sending requests; until then they are served.
      await new Promise((resolve) => setTimeout(resolve, config.shutdownDrainMs));
      await drain(server);
      // Searches answered before the drain are still queued: written while the store is open.
      await keywordLog.close();
      // Requests have finished, so nothing more is queued; deliveries in flight are settled, the rest stays pending.
      await dispatcher.stop();
      await delivery.close();
      await keyPurge.close();
      await outboxRetention.close();
      await keywordLogRetention.close();
      await database.close();
    },
  };
}

/**
 * On PostgreSQL every instance shares the counts; SQLite serves one instance, which keeps them in
 * memory. The shared counts' code (rate-limiter-flexible) is loaded only where it is used.
 */
async function clientBudgets(database: Database, perWindow: number, name: string, windowSeconds = 60): Promise<Budgets> {
  if (database.dialect === 'postgres' && perWindow > 0) {
    const { sharedBudgets } = await import('./http/shared-budgets.ts');
    return sharedBudgets(database, perWindow, name, windowSeconds);
  }
  return new ClientBudgets(perWindow, Date.now, windowSeconds * 1000);
}

function listen(fetch: (request: Request) => Response | Promise<Response>, port: number, options: NodeServerOptions): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createNodeServer(fetch, options);
    server.once('listening', () => resolve(server));
    server.once('error', reject);
    // A deep accept queue (the kernel caps it at net.core.somaxconn): a burst of connections, a
    // stranger's flood included, waits there to be accepted (and, past the per-client limit, closed)
    // instead of having the SYNs of everybody else dropped once Node's default 511 are queued.
    server.listen({ port, host: options.hostname, backlog: LISTEN_BACKLOG });
  });
}

function drain(server: Server): Promise<void> {
  return new Promise((resolve) => {
    const force = setTimeout(() => server.closeAllConnections(), DRAIN_TIMEOUT_MS);
    server.close(() => {
      clearTimeout(force);
      resolve();
    });
    server.closeIdleConnections();
  });
}

/**
 * The transaction reservations are written in: those of the same moment share one (db/group-commit.ts),
 * a batch starts at least 20 ms after the last (50 commits a second at most) and, on PostgreSQL,
 * waits for every instance's batch before it, so seats go first come, first served (docs/preorders.md).
 * At most 20 a batch: a request waiting at one instance waits for one batch of another's, not 100
 * (in a drop's queue, refused up to 139 ms before a later customer seated elsewhere; 2 ms with 20).
 */
export function reservationsTransaction(database: Database): Transaction {
  return groupCommit(database, { gatherMs: 20, maxBatch: 20, lock: 'tenpo.reservations' });
}
