import { Hono } from 'hono';
import { apiReferenceRoutes } from './api-reference/routes.ts';
import { catalogRoutes } from './catalog/routes.ts';
import { dashboardRoutes } from './dashboard/routes.ts';
import { frontPageRoutes } from './front-page/routes.ts';
import { emailTemplateRoutes } from './messaging/templates/routes.ts';
import type { Catalog } from './catalog/catalog.ts';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import type { Readiness } from './health/readiness.ts';
import { healthRoutes } from './health/routes.ts';
import type { AppEnv } from './http/app-env.ts';
import { clientAddressOf, clientResolver } from './http/client-address.ts';
import { shopOrigins } from './http/cors.ts';
import { mountRoutes, type PathHandler } from './http/mount.ts';
import { personalDataRoutes } from './personal-data/routes.ts';
import type { SessionReader } from './http/admin-auth.ts';
import type { AdminThrottle } from './http/admin-throttle.ts';
import type { Budgets, RateLimit } from './http/rate-limit.ts';
import type { Route } from './http/route.ts';
import type { KeywordLogStore } from './keyword-log/store.ts';
import { keywordLogRoutes } from './keyword-log/routes.ts';
import type { KeywordLogWriter } from './keyword-log/writer.ts';
import type { Logger } from './log.ts';
import type { Metrics } from './metrics/metrics.ts';
import { messageLogRoutes } from './messaging/log/routes.ts';
import { reputationRoutes } from './messaging/reputation/routes.ts';
import { metricsRoutes } from './metrics/routes.ts';
import type { SendEmail } from './messaging/delivery/delivery.ts';
import type { Dispatcher } from './messaging/delivery/dispatcher.ts';
import type { EmailEventCounts } from './messaging/reputation/event-counts.ts';
import type { Messaging } from './messaging/messaging.ts';
import { preorderRoutes } from './preorders/routes.ts';
import type { Transaction } from './db/group-commit.ts';
import { reservationRoutes } from './reservations/routes.ts';
import { reservationNames } from './reservations/store.ts';
import { searchRoutes, type SearchServices } from './search/routes.ts';
import { shopRoutes } from './shop/routes.ts';
import { sessionRoutes, staffRoutes } from './staff/routes.ts';
import { subscriptionRoutes } from './subscriptions/routes.ts';
import { unsubscribeEverySignupOf } from './subscriptions/unsubscribe.ts';
import { browserPageRoutes, type BuiltPage } from './web-assets/browser-page.ts';

/** Everything the routes need, opened and loaded by the caller (server.ts, or a test). */
export interface Services {
  config: Config;
  log: Logger;
  database: Database;
  catalog: Catalog;
  /** What the domains tell about what happened, in its transaction, to queue its messages. */
  messaging: Messaging;
  /** What the email provider (or an SMTP server) said of sent emails since the start, for /metrics. */
  emailEvents: EmailEventCounts;
  /** Delivers the outbox; wake it after committing messages. */
  dispatcher: Dispatcher;
  /** Sends an email through the configured provider at once, bypassing the outbox (the staff's test send). */
  sendEmail: SendEmail;
  /** Prometheus metrics; the request context observes every request. */
  metrics: Metrics;
  /** Turned off when a graceful stop begins, for /readyz. */
  readiness: Readiness;
  /** The transaction reservations are written in: those taken in the same moment share one (group commit). */
  reservationTransaction: Transaction;
  /** The transaction restock signups are written in, shared the same way. */
  signupTransaction: Transaction;
  /** The one per-client budget of the public write endpoints (POST /api/reservation, POST /api/notify). */
  publicWriteLimit: RateLimit;
  /** Failed admin authentications per client: past ADMIN_AUTH_FAILURES_PER_MINUTE, 429 for the rest of the minute. */
  adminThrottle: AdminThrottle;
  /** Failed sign-ins per address: ten in 15 minutes lock that address's sign-in until they pass. */
  signInFailures: Budgets;
  /** The staff's signed-in sessions, which the console's cookie names. */
  sessions: SessionReader;
  /** The site search, the index's file (which browsers search with) and suggestions. */
  search: SearchServices;
  keywordLogStore: KeywordLogStore;
  /** Queues searches for the keyword log; close it before the store. */
  keywordLog: KeywordLogWriter;
  /** The time preorder campaigns are judged at: the clock, or a test's. */
  now: () => Date;
  /** The pages served from the service's own browser code (the console; the demo storefront in development), built. */
  pages: BuiltPage[];
}

/** Every route the service serves; the app and the API reference are both built from this list. */
export function allRoutes(services: Services): Route[] {
  const wakeDispatcher = () => services.dispatcher.wake();
  const staffDeps = {
    database: services.database,
    accountFailures: services.signInFailures,
    adminThrottle: services.adminThrottle,
    secureCookie: new URL(services.config.publicBaseUrl).protocol === 'https:',
    now: services.now,
  };
  const routes: Route[] = [
    ...frontPageRoutes(services.config.appEnv),
    ...healthRoutes(services.config.appEnv, services.database, services.readiness),
    ...catalogRoutes(services.catalog),
    ...reservationRoutes({
      database: services.database,
      catalog: services.catalog,
      transaction: services.reservationTransaction,
      rateLimit: services.publicWriteLimit,
      wakeDispatcher,
      now: services.now,
      messaging: services.messaging,
      manageSecret: services.config.unsubscribeSecret,
      idempotencySecret: services.config.idempotencySecret,
    }),
    ...preorderRoutes({ database: services.database, catalog: services.catalog, now: services.now }),
    ...subscriptionRoutes({
      database: services.database,
      catalog: services.catalog,
      transaction: services.signupTransaction,
      rateLimit: services.publicWriteLimit,
      messaging: services.messaging,
      unsubscribeSecret: services.config.unsubscribeSecret,
      wakeDispatcher,
      idempotencySecret: services.config.idempotencySecret,
      now: services.now,
    }),
    ...personalDataRoutes(services.database, services.config.email.addressKeySecret),
    ...shopRoutes(services.database),
    ...sessionRoutes(staffDeps),
    ...staffRoutes(staffDeps),
    ...emailTemplateRoutes({
      database: services.database,
      catalog: services.catalog,
      publicBaseUrl: services.config.publicBaseUrl,
      storefrontUrl: services.config.storefrontUrl,
      sendEmail: services.sendEmail,
    }),
    ...messageLogRoutes({
      database: services.database,
      wakeDispatcher,
      reservationNames: (ids) => reservationNames(services.database.db, ids),
    }),
    ...reputationRoutes({
      database: services.database,
      webhookSecret: services.config.email.webhookSecret,
      addressKeySecret: services.config.email.addressKeySecret,
      // A complaint unsubscribes the customer's restock signups: subscriptions' to do, handed to messaging here.
      onComplaint: unsubscribeEverySignupOf,
      eventCounts: services.emailEvents,
    }),
    ...dashboardRoutes({
      database: services.database,
      catalog: services.catalog,
      flushKeywordLog: () => services.keywordLog.flush(),
    }),
    ...searchRoutes(services.search, services.keywordLog, clientResolver(services.config.trustProxy)),
    ...keywordLogRoutes(services.keywordLogStore, services.keywordLog),
    ...services.pages.flatMap(browserPageRoutes),
    ...metricsRoutes(services.metrics, services.config.metricsToken),
  ];
  // The reference describes every route, its own included.
  routes.push(...apiReferenceRoutes(() => routes, services.config.publicBaseUrl));
  return routes;
}

/** The HTTP application, and the handlers of its paths without parameters (for the server's direct lane). */
export interface ServedApp {
  app: Hono<AppEnv>;
  exactPaths: ReadonlyMap<string, PathHandler>;
}

/** Builds the HTTP application, of the routes given. Does no I/O of its own. */
export function createApp(services: Services, routes: Route[] = allRoutes(services)): ServedApp {
  const app = new Hono<AppEnv>();
  const exactPaths = mountRoutes(app, routes, {
    adminToken: services.config.adminToken,
    adminThrottle: services.adminThrottle,
    sessions: services.sessions,
    isShopOrigin: shopOrigins(services.config.cors),
    serviceOrigin: new URL(services.config.publicBaseUrl).origin,
    clientAddress: clientAddressOf(services.config.trustProxy),
    log: services.log,
    metrics: services.metrics,
  });
  return { app, exactPaths };
}
