import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Histogram, Registry } from 'prom-client';
import type { RequestObserver } from '../http/request-context.ts';
import { RequestHistogram } from './request-histogram.ts';

type IntervalHistogram = ReturnType<typeof monitorEventLoopDelay>;

/** What the metrics read at each scrape, from the parts that keep the figures. */
export interface MetricsSources {
  /** Messages waiting and given up, and when the oldest waiting one was queued (one query). */
  outboxBacklog(): Promise<{ pending: number; dead: number; superseded: number; oldestPendingAt: string | null }>;
  /** Delivery attempts since the start, by channel and outcome. */
  deliveryAttempts(): { channel: string; outcome: string; count: number }[];
  /** Keyword-log entries since the start. */
  keywordLogCounts(): { queued: number; written: number; skipped: number };
  /** Passwords hashed or verified since the start. */
  passwordsHashed(): number;
  /** What the email provider (or an SMTP server) said of sent emails since the start, by kind. */
  emailEvents(): { kind: string; count: number }[];
  now?: () => number;
}

/** Counts each answered request (its mounted route, or `unmatched`) and reads the rest at each scrape. */
export interface Metrics extends RequestObserver {
  /** The Prometheus text exposition, with the figures read now. */
  render(): Promise<string>;
  readonly contentType: string;
}

// From a cached catalog answer (well under a millisecond) to a slow database write.
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** What prom-client's registry answers as its text exposition's Content-Type (a test holds the two equal). */
export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/**
 * The service's Prometheus metrics, one registry per running server. Only the request histogram is
 * touched while serving (one observation per request); everything else is read when scraped: the
 * outbox from the store, the delivery and keyword-log figures from the counts their owners keep.
 * prom-client itself, its registry and the process's default metrics are loaded at the first scrape,
 * not at start, which a first request after a deploy does not wait for: the default metrics that
 * count events (the collector's pauses) count from that first scrape. The event loop's delay is
 * sampled from the start instead (eventLoopDelay below): prom-client's own sampling, begun at the
 * first scrape, had nothing to show at it and answered a minimum of 9223372036.854776 s and NaN means.
 */
export function createMetrics(sources: MetricsSources): Metrics {
  const requests = new RequestHistogram({
    name: 'tenpo_http_request_duration_seconds',
    help: 'Requests answered, by route template, method and status, with the seconds taken to answer.',
    buckets: LATENCY_BUCKETS,
  });
  // Node's own sampler (a timer in libuv, no module to load): what each scrape reports, since the one before.
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  let exposition: Promise<() => Promise<string>> | undefined;
  return {
    contentType: PROMETHEUS_CONTENT_TYPE,
    observeRequest: (route, method, status, seconds) => {
      requests.observe(route ?? 'unmatched', method, status, seconds);
    },
    render: async () => {
      exposition ??= registryOf(requests, loopDelay, sources);
      return (await exposition)();
    },
  };
}

/** prom-client's registry of every metric, the request histogram among them, and what a scrape reads. */
async function registryOf(
  requests: RequestHistogram,
  loopDelay: IntervalHistogram,
  sources: MetricsSources,
): Promise<() => Promise<string>> {
  const { collectDefaultMetrics, Counter, Gauge, Registry } = await import('prom-client');
  const now = sources.now ?? Date.now;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  eventLoopDelay(registry, Gauge, loopDelay);
  // The registry reads a metric through get(), which RequestHistogram provides in prom-client's own shape.
  registry.registerMetric(requests as unknown as Histogram);
  const outboxMessages = new Gauge({
    name: 'tenpo_outbox_messages',
    help: 'Outbox messages waiting to be delivered (pending), given up after their last attempt (dead), and not sent because their record changed so that they were no longer true (superseded); the last two are kept until retention deletes them.',
    labelNames: ['status'] as const,
    registers: [registry],
  });
  const oldestPending = new Gauge({
    name: 'tenpo_outbox_oldest_pending_age_seconds',
    help: 'Age of the oldest message waiting to be delivered; 0 when none waits.',
    registers: [registry],
  });
  const outboxUp = new Gauge({
    name: 'tenpo_outbox_scrape_success',
    help: '1 when the outbox figures could be read from the store at this scrape, 0 when it did not answer.',
    registers: [registry],
  });
  const deliveries = new Counter({
    name: 'tenpo_outbox_delivery_attempts_total',
    help: 'Delivery attempts by channel (email, chat) and outcome: sent, skipped (channel not configured), superseded (no longer true of its record, so not sent), withdrawn (erased before it was sent), retry (failed, tried again later), dead (failed for the last time).',
    labelNames: ['channel', 'outcome'] as const,
    registers: [registry],
  });
  const keywordLog = new Counter({
    name: 'tenpo_keyword_log_entries_total',
    help: 'Keyword-log entries: queued (every search logged), written to the store, skipped (store down or queue full).',
    labelNames: ['state'] as const,
    registers: [registry],
  });
  const emailEvents = new Counter({
    name: 'tenpo_email_events_total',
    help: 'Events recorded of sent emails, by kind: delivered, delayed, soft_bounce, hard_bounce (the provider’s, or an SMTP 5xx to RCPT), complaint.',
    labelNames: ['kind'] as const,
    registers: [registry],
  });
  const passwords = new Counter({
    name: 'tenpo_password_hashes_total',
    help: 'Passwords hashed or verified (sign-ins, password changes, accounts created or reset), each a slow scrypt hash.',
    registers: [registry],
  });

  const readOutbox = async () => {
    outboxMessages.reset();
    oldestPending.reset();
    try {
      const backlog = await sources.outboxBacklog();
      outboxMessages.set({ status: 'pending' }, backlog.pending);
      outboxMessages.set({ status: 'dead' }, backlog.dead);
      outboxMessages.set({ status: 'superseded' }, backlog.superseded);
      oldestPending.set(backlog.oldestPendingAt ? Math.max(0, (now() - Date.parse(backlog.oldestPendingAt)) / 1000) : 0);
      outboxUp.set(1);
    } catch {
      // The rest is still worth scraping during a database outage; /healthz says why.
      outboxUp.set(0);
    }
  };

  return async () => {
    await readOutbox();
    // Totals kept by their owners since the start: set as they are (a counter reset is a restart).
    deliveries.reset();
    for (const { channel, outcome, count } of sources.deliveryAttempts()) deliveries.inc({ channel, outcome }, count);
    keywordLog.reset();
    for (const [state, count] of Object.entries(sources.keywordLogCounts())) keywordLog.inc({ state }, count);
    passwords.reset();
    passwords.inc(sources.passwordsHashed());
    emailEvents.reset();
    for (const { kind, count } of sources.emailEvents()) emailEvents.inc({ kind }, count);
    return registry.metrics();
  };
}

/** prom-client's event-loop metrics, by the same names and meanings, read from the sampler kept since the start. */
const LOOP_DELAY: [name: string, help: string, read: (delay: IntervalHistogram) => number][] = [
  ['nodejs_eventloop_lag_min_seconds', 'The minimum recorded event loop delay.', (d) => d.min],
  ['nodejs_eventloop_lag_max_seconds', 'The maximum recorded event loop delay.', (d) => d.max],
  ['nodejs_eventloop_lag_mean_seconds', 'The mean of the recorded event loop delays.', (d) => d.mean],
  ['nodejs_eventloop_lag_stddev_seconds', 'The standard deviation of the recorded event loop delays.', (d) => d.stddev],
  ['nodejs_eventloop_lag_p50_seconds', 'The 50th percentile of the recorded event loop delays.', (d) => d.percentile(50)],
  ['nodejs_eventloop_lag_p90_seconds', 'The 90th percentile of the recorded event loop delays.', (d) => d.percentile(90)],
  ['nodejs_eventloop_lag_p99_seconds', 'The 99th percentile of the recorded event loop delays.', (d) => d.percentile(99)],
];

/**
 * The event loop's delay since the last scrape (since the start, at the first), in place of
 * prom-client's: each figure of the sampler, and `nodejs_eventloop_lag_seconds`, the time this
 * scrape's own turn of the loop waited. Between two scrapes closer than one sample (10 ms) the
 * figures stay those of the scrape before, rather than the sampler's empty ones.
 */
function eventLoopDelay(registry: Registry, Gauge: typeof import('prom-client').Gauge, delay: IntervalHistogram): void {
  for (const [name] of LOOP_DELAY) registry.removeSingleMetric(name);
  registry.removeSingleMetric('nodejs_eventloop_lag_seconds');
  // Registered first, so that its collect, which sets the others before its first await, runs before they are read.
  const lag = new Gauge({
    name: 'nodejs_eventloop_lag_seconds',
    help: 'Lag of event loop in seconds.',
    registers: [registry],
    async collect() {
      if (delay.count > 0) {
        for (const { gauge, read } of gauges) gauge.set(read(delay) / 1e9);
        delay.reset();
      }
      const started = process.hrtime.bigint();
      await new Promise((resolve) => setImmediate(resolve));
      lag.set(Number(process.hrtime.bigint() - started) / 1e9);
    },
  });
  const gauges = LOOP_DELAY.map(([name, help, read]) => ({ gauge: new Gauge({ name, help, registers: [registry] }), read }));
}
