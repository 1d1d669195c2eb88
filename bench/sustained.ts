import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPostgres } from '../test/helpers/postgres.ts';
import { deliveringTo, startCountingReceiver, type CountingReceiver } from './lib/counting-receiver.ts';
import { runMixedLoad, type Endpoint, type MixedLoadResult } from './lib/mixed-load.ts';
import { printTable, verdict } from './lib/report.ts';
import { seededRandom } from './lib/search-corpus.ts';
import { shopTraffic } from './lib/shop-traffic.ts';
import { startTenpo, type TenpoProcess } from './lib/tenpo-process.ts';

// Sustained mixed traffic against one service process, SQLite and PostgreSQL: 50 connections for 60 s
// (80 % catalog and search, 15 % reservations and signups, 5 % admin), messages delivered meanwhile,
// RSS sampled every second. Reported: req/s and latency per endpoint, errors (none), peak RSS, and
// RSS at the end within 20 % of after the warm-up (no leak), then the outbox drained. The warm-up
// lasts until RSS grew under 3 % in 10 s (10–60 s): V8 sizes its heap to the allocation rate, so
// earlier it would measure that sizing, not a leak; a leak would not settle.

const SECONDS = Number(process.env.BENCH_SUSTAINED_SECONDS ?? 60);
const WARM_UP = { minSeconds: 10, maxSeconds: 60, settledGrowth: 0.03, overSeconds: 10 };
const CONNECTIONS = 50;
const PORTS = { sqlite: 18891, postgres: 18892, receiver: 18893 };
const TOKEN = 'bench-admin-token';
const RSS_TOLERANCE = 0.2;

export async function run(): Promise<string[]> {
  const receiver = await startCountingReceiver(PORTS.receiver);
  const dir = mkdtempSync(join(tmpdir(), 'tenpo-bench-sustained-'));
  const verdicts: string[] = [];
  try {
    verdicts.push(...(await runOn('SQLite', `sqlite:${join(dir, 'tenpo.db')}`, PORTS.sqlite, receiver)));
    receiver.reset();
    const cluster = await startPostgres();
    try {
      verdicts.push(...(await runOn('PostgreSQL', cluster.url, PORTS.postgres, receiver)));
    } finally {
      cluster.stop();
    }
  } finally {
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return verdicts;
}

async function runOn(store: string, databaseUrl: string, port: number, receiver: CountingReceiver): Promise<string[]> {
  const tenpo = await startTenpo(
    {
      DATABASE_URL: databaseUrl,
      PREORDER_API_TOKEN: TOKEN,
      RATE_LIMIT_PER_MINUTE: '0',
      LOG_LEVEL: 'warn',
      ...deliveringTo(receiver.url, ['reservation', 'restock']),
    },
    { port },
  );
  try {
    const random = seededRandom(20260307);
    const endpoints = shopTraffic(random, TOKEN);
    const rss = sampleRss(tenpo);
    const warmUp = await warmUpUntilSettled(tenpo.url, endpoints, random, rss);
    const rssAfterWarmUp = rss.now();
    const measured = await runMixedLoad({ url: tenpo.url, endpoints, connections: CONNECTIONS, seconds: SECONDS, random });
    const rssAtEnd = rss.now();
    rss.stop();

    const drainStarted = Date.now();
    const stats = await waitForEmptyOutbox(tenpo.url);
    const drainedMs = Date.now() - drainStarted;

    report(store, measured, warmUp.seconds);
    const change = (rssAtEnd - rssAfterWarmUp) / rssAfterWarmUp;
    const peak = Math.max(...rss.samples, rssAtEnd);
    console.log(
      `${store}: RSS ${mb(rssAfterWarmUp)} MB after the ${warmUp.seconds} s warm-up, ${mb(rssAtEnd)} MB at the end (${(change * 100).toFixed(1)} %), peak ${mb(peak)} MB; ` +
        `every 10 s from the start: ${rss.samples
          .filter((_, i) => i % 10 === 0)
          .map(mb)
          .join(' ')} MB`,
    );
    const expectedEmails = stats.reservations.total;
    const expectedChats = stats.reservations.total + stats.subscriptions.total;
    console.log(
      `${store}: ${stats.reservations.total} reservations and ${stats.subscriptions.total} restock signups stored; outbox drained ${drainedMs} ms after the load (${stats.outbox.dead} dead); ` +
        `receiver: ${receiver.emails.size} emails (+${receiver.duplicateEmails} repeats), ${receiver.chats} chat messages`,
    );
    if (warmUp.errors + measured.errors > 0)
      console.log(`${store}: first failures:\n  ${[...warmUp.failures, ...measured.failures].slice(0, 10).join('\n  ')}`);

    return [
      verdict(
        `sustained mix on ${store}: errors over ${warmUp.seconds + SECONDS} s`,
        warmUp.errors + measured.errors === 0,
        String(warmUp.errors + measured.errors),
        '0',
      ),
      verdict(
        `sustained mix on ${store}: RSS at the end vs after warm-up`,
        Math.abs(change) <= RSS_TOLERANCE,
        `${mb(rssAtEnd)} MB vs ${mb(rssAfterWarmUp)} MB (${change >= 0 ? '+' : ''}${(change * 100).toFixed(1)} %, peak ${mb(peak)} MB)`,
        `within ${RSS_TOLERANCE * 100} %`,
      ),
      verdict(
        `sustained mix on ${store}: throughput and p99 (informational)`,
        true,
        `${Math.round(measured.total / measured.seconds)} req/s, p99 ${ms(measured.overall.percentile(99))} ms over every request`,
        'none set',
      ),
      verdict(
        `sustained mix on ${store}: every message delivered once`,
        stats.outbox.dead === 0 &&
          receiver.emails.size === expectedEmails &&
          receiver.duplicateEmails === 0 &&
          receiver.chats === expectedChats,
        `${receiver.emails.size}/${expectedEmails} emails, ${receiver.chats}/${expectedChats} chat messages`,
        'all, once',
      ),
    ];
  } finally {
    await tenpo.stop();
  }
}

/** The traffic in 5 s rounds until RSS has settled (see the top of the file). */
async function warmUpUntilSettled(url: string, endpoints: Endpoint[], random: () => number, rss: ReturnType<typeof sampleRss>) {
  let seconds = 0;
  let errors = 0;
  const failures: string[] = [];
  const history: number[] = [rss.now()];
  const roundsOver = WARM_UP.overSeconds / 5;
  for (;;) {
    const round = await runMixedLoad({ url, endpoints, connections: CONNECTIONS, seconds: 5, random });
    seconds += 5;
    errors += round.errors;
    failures.push(...round.failures);
    history.push(rss.now());
    const before = history.at(-1 - roundsOver);
    const settled = before !== undefined && history.at(-1)! <= before * (1 + WARM_UP.settledGrowth);
    if ((seconds >= WARM_UP.minSeconds && settled) || seconds >= WARM_UP.maxSeconds) return { seconds, errors, failures };
  }
}

/** The service's resident set (VmRSS), read every second. */
function sampleRss(tenpo: TenpoProcess) {
  const read = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${tenpo.child.pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
  const samples = [read()];
  const timer = setInterval(() => samples.push(read()), 1_000);
  return { samples, now: read, stop: () => clearInterval(timer) };
}

interface Stats {
  reservations: { total: number };
  subscriptions: { total: number };
  outbox: { pending: number; dead: number };
}

async function waitForEmptyOutbox(url: string): Promise<Stats> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const response = await fetch(`${url}/api/admin-dashboard-stats`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}` },
      body: '{}',
    });
    const stats = (await response.json()) as Stats;
    if (stats.outbox.pending === 0) return stats;
    if (Date.now() > deadline) throw new Error(`outbox not drained after 120 s: ${JSON.stringify(stats.outbox)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function report(store: string, result: MixedLoadResult, warmUpSeconds: number): void {
  printTable(
    `${store}: ${CONNECTIONS} connections, ${Math.round(result.seconds)} s after a ${warmUpSeconds} s warm-up; ${Math.round(result.total / result.seconds)} req/s in all`,
    result.endpoints.map((e) => ({
      endpoint: e.name,
      share: `${((e.count / result.total) * 100).toFixed(1)} %`,
      'req/s': Math.round(e.count / result.seconds),
      'p50 ms': ms(e.histogram.percentile(50)),
      'p99 ms': ms(e.histogram.percentile(99)),
      'max ms': ms(e.histogram.max),
      errors: e.errors,
    })),
  );
}

const ms = (microseconds: number) => Math.round(microseconds / 100) / 10;
const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
