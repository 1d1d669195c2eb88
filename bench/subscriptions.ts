import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import autocannon from 'autocannon';
import pg from 'pg';
import { startPostgres } from '../test/helpers/postgres.ts';
import { deliveringTo, startCountingReceiver } from './lib/counting-receiver.ts';
import { printTable, verdict } from './lib/report.ts';
import { startTenpo, type TenpoProcess } from './lib/tenpo-process.ts';

// Restock subscriptions and the dashboard, on SQLite and on PostgreSQL, each on the real service
// started as its own process:
// 1. POST /api/notify under 50 connections: a new address on every request, then the same 24
//    signups over and over (the find-the-pending-one path); afterwards one row per address and
//    product, and one chat notice per row.
// 2. POST /api/admin/notify/send to 10,000 waiting subscribers: how long the request takes, the
//    service's peak RSS, and how long the dispatcher takes to deliver every email to a local receiver.
// 3. POST /api/admin-dashboard-stats over 1,000,000 keyword log entries spread over 40 days.

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const PORTS = { sqlite: 18831, postgres: 18832, receiver: 18833 };
const TOKEN = 'bench-admin-token';
const SUBSCRIBERS = 10_000;
const SEARCHES = 1_000_000;
const DAY = 86_400_000;

interface Store {
  count(sqlText: string): Promise<number>;
  exec(sqlText: string): Promise<void>;
  close(): Promise<void>;
}

export async function run(): Promise<string[]> {
  const receiver = await startCountingReceiver(PORTS.receiver);
  const dir = mkdtempSync(join(tmpdir(), 'tenpo-bench-ntf-'));
  const cluster = await startPostgres({ durable: true });
  const rows: Record<string, string | number>[] = [];
  const verdicts: string[] = [];
  try {
    for (const dialect of ['sqlite', 'postgres'] as const) {
      receiver.reset();
      const databaseUrl = dialect === 'sqlite' ? `sqlite:${join(dir, 'tenpo.db')}` : cluster.url;
      const tenpo = await startTenpo(
        {
          DATABASE_URL: databaseUrl,
          RATE_LIMIT_PER_MINUTE: '0',
          LOG_LEVEL: 'warn',
          ...deliveringTo(receiver.url, ['restock', 'public']),
          PUBLIC_BASE_URL: 'https://shop.example.jp',
        },
        { port: PORTS[dialect] },
      );
      const store = dialect === 'sqlite' ? sqliteStore(join(dir, 'tenpo.db')) : await postgresStore(cluster.url);
      try {
        // 1. Signups.
        let n = 0;
        const fresh = await signupLoad(tenpo.url, () => ({
          email: `Buyer${n++}@Example.com`,
          productSlug: n % 2 ? 'kumo-vco-2' : 'tsuki-dual-lfo',
        }));
        // Each new signup queued a chat notice; let the dispatcher deliver them before the next load.
        await waitFor(
          async () => (await store.count("select count(*) as n from outbox where status = 'pending'")) === 0,
          'signup notices delivered',
          120_000,
        );
        const repeats = await signupLoad(tenpo.url, (i) => ({
          email: `repeat${i % 12}@example.com`,
          productSlug: i % 24 < 12 ? 'kumo-vco-2' : 'tsuki-dual-lfo',
        }));
        await waitFor(
          async () => (await store.count("select count(*) as n from outbox where status = 'pending'")) === 0,
          'signup notices delivered',
        );
        const subscriptions = await store.count('select count(*) as n from subscriptions');
        const pairs = await store.count('select count(*) as n from (select distinct email, product_slug from subscriptions) pairs');
        const notices = await store.count("select count(*) as n from outbox where destination = 'restock'");
        // Every new address was a row (plus any request cut off in flight), and the 24 repeated pairs one row each.
        const cutOff = subscriptions - 24 - fresh.ok;
        const signupsOk = subscriptions === pairs && notices === subscriptions && cutOff >= 0 && cutOff <= 50 && repeats.ok > 0;
        rows.push(
          {
            [`${dialect}`]: 'POST /api/notify, a new address each',
            'req/s': Math.round(fresh.rps),
            'p50 ms': fresh.p50,
            'p99 ms': fresh.p99,
            errors: fresh.errors,
          },
          {
            [`${dialect}`]: 'POST /api/notify, 24 signups repeated',
            'req/s': Math.round(repeats.rps),
            'p50 ms': repeats.p50,
            'p99 ms': repeats.p99,
            errors: repeats.errors,
          },
        );
        verdicts.push(
          verdict(
            `new signups/s on ${dialect}`,
            dialect === 'postgres' || fresh.rps >= 2000,
            String(Math.round(fresh.rps)),
            dialect === 'sqlite' ? '≥ 2,000' : 'none set',
          ),
          verdict(
            `one subscription per address and product, one notice each, on ${dialect}`,
            signupsOk,
            `${subscriptions} rows for ${pairs} pairs, ${notices} notices, ${fresh.ok + repeats.ok} answered 200`,
            'equal',
          ),
        );

        // 2. The send to 10,000.
        await store.exec('delete from subscriptions');
        await store.exec('delete from outbox');
        receiver.reset();
        await seedSubscribers(store, dialect);
        const rssBefore = peakRss(tenpo);
        const started = performance.now();
        const response = await fetch(`${tenpo.url}/api/admin/notify/send`, {
          method: 'POST',
          headers: { authorization: `Bearer ${TOKEN}` },
          body: '{"productSlug":"kumo-vco-2"}',
        });
        const answer = (await response.json()) as { notifiedCount?: number };
        const sendMs = performance.now() - started;
        const rssAfterSend = peakRss(tenpo);
        await waitFor(() => receiver.emails.size >= SUBSCRIBERS, `${SUBSCRIBERS} emails delivered`, 300_000);
        const deliveredMs = performance.now() - started;
        await new Promise((resolve) => setTimeout(resolve, 500));
        const sendOk =
          answer.notifiedCount === SUBSCRIBERS &&
          receiver.emails.size === SUBSCRIBERS &&
          receiver.duplicateEmails === 0 &&
          receiver.chatsTo('/hooks/public') === 1;
        console.log(
          `${dialect}: send to ${SUBSCRIBERS}: answered ${JSON.stringify(answer)} in ${Math.round(sendMs)} ms; peak RSS of the service ${rssBefore} → ${rssAfterSend} MB; ` +
            `${receiver.emails.size} emails (${receiver.duplicateEmails} repeated) and ${receiver.chatsTo('/hooks/public')} announcement delivered ${Math.round(deliveredMs)} ms after the request`,
        );
        rows.push({
          [`${dialect}`]: `send to ${SUBSCRIBERS.toLocaleString('en-US')} subscribers`,
          'req/s': '',
          'p50 ms': Math.round(sendMs),
          'p99 ms': '',
          errors: sendOk ? 0 : 1,
        });
        verdicts.push(
          verdict(`send to ${SUBSCRIBERS} on ${dialect} answers`, sendMs < 5_000, `${Math.round(sendMs)} ms`, '< 5,000 ms'),
          verdict(
            `service peak RSS during that send on ${dialect}`,
            rssAfterSend - rssBefore < 100,
            `+${rssAfterSend - rssBefore} MB (${rssAfterSend} MB)`,
            '< +100 MB',
          ),
          verdict(
            `every email delivered once, one announcement, on ${dialect}`,
            sendOk,
            `${receiver.emails.size} emails, ${receiver.duplicateEmails} repeats, ${receiver.chatsTo('/hooks/public')} announcements in ${Math.round(deliveredMs / 1000)} s`,
            `${SUBSCRIBERS}, 0, 1`,
          ),
        );

        // 3. The dashboard over a million searches.
        await seedSearches(store, dialect);
        const times: number[] = [];
        for (let i = 0; i < 5; i++) {
          const t = performance.now();
          const stats = await fetch(`${tenpo.url}/api/admin-dashboard-stats`, {
            method: 'POST',
            headers: { authorization: `Bearer ${TOKEN}` },
            body: '{}',
          });
          await stats.arrayBuffer();
          if (stats.status !== 200) throw new Error(`dashboard answered ${stats.status}`);
          times.push(performance.now() - t);
        }
        const median = times.sort((a, b) => a - b)[2]!;
        rows.push({
          [`${dialect}`]: `dashboard, ${SEARCHES.toLocaleString('en-US')} searches (${Math.round(SEARCHES * 0.75).toLocaleString('en-US')} in its window)`,
          'req/s': '',
          'p50 ms': Math.round(median),
          'p99 ms': '',
          errors: 0,
        });
        verdicts.push(
          verdict(
            `dashboard over ${SEARCHES} searches on ${dialect} (median of 5)`,
            median < 1_000,
            `${Math.round(median)} ms`,
            '< 1,000 ms',
          ),
        );
      } finally {
        await tenpo.stop();
        await store.close();
      }
    }
  } finally {
    cluster.stop();
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  }
  for (const dialect of ['sqlite', 'postgres'])
    printTable(
      `Restock subscriptions and the dashboard on ${dialect} (load: 50 connections, ${SECONDS} s each)`,
      rows.filter((r) => dialect in r),
    );
  return verdicts;
}

async function signupLoad(url: string, body: (i: number) => { email: string; productSlug: string }) {
  let i = 0;
  const result = await autocannon({
    url,
    connections: 50,
    duration: SECONDS,
    requests: [
      {
        method: 'POST',
        path: '/api/notify',
        headers: { 'content-type': 'application/json' },
        setupRequest: (request) => ({ ...request, body: JSON.stringify(body(i++)) }),
      },
    ],
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok: result['2xx'],
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

/** The service's peak resident set so far (Linux VmHWM), in MB. */
function peakRss(tenpo: TenpoProcess): number {
  const status = readFileSync(`/proc/${tenpo.child.pid}/status`, 'utf8');
  return Math.round(Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024);
}

async function seedSubscribers(store: Store, dialect: 'sqlite' | 'postgres'): Promise<void> {
  const now = Date.now();
  if (dialect === 'postgres') {
    await store.exec(`insert into subscriptions (id, email, product_slug, status, created_at)
      select 'ntf_${now}-' || lpad(i::text, 10, '0'), 'subscriber' || i || '@example.com', 'kumo-vco-2', 'pending',
             to_char(to_timestamp(${now / 1000} + i / 1000.0) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
      from generate_series(1, ${SUBSCRIBERS}) as i`);
    await store.exec('analyze subscriptions');
    return;
  }
  await store.exec(`with recursive n(i) as (select 1 union all select i + 1 from n where i < ${SUBSCRIBERS})
    insert into subscriptions (id, email, product_slug, status, created_at)
    select 'ntf_${now}-' || printf('%010d', i), 'subscriber' || i || '@example.com', 'kumo-vco-2', 'pending',
           strftime('%Y-%m-%dT%H:%M:%fZ', (${now} + i) / 1000.0, 'unixepoch')
    from n`);
}

/** A million searches in time order over the last 40 days, 5,000 keywords, one in ten finding nothing, and their hourly counts (in all and per keyword). */
async function seedSearches(store: Store, dialect: 'sqlite' | 'postgres'): Promise<void> {
  const start = Date.now() - 40 * DAY;
  const step = (40 * DAY) / SEARCHES;
  await store.exec('delete from keyword_logs');
  await store.exec('delete from keyword_log_hours');
  await store.exec('delete from keyword_hours');
  if (dialect === 'postgres') {
    await store.exec(`insert into keyword_logs (keyword, "timestamp", result_count)
      select 'kw' || ((i * 7919) % 5000), to_char(to_timestamp((${start} + i * ${step}) / 1000.0) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
             case when i % 10 = 0 then 0 else 3 end
      from generate_series(0::bigint, ${SEARCHES - 1}) as i`);
  } else {
    await store.exec(`with recursive n(i) as (select 0 union all select i + 1 from n where i < ${SEARCHES - 1})
      insert into keyword_logs (keyword, "timestamp", result_count)
      select 'kw' || ((i * 7919) % 5000), strftime('%Y-%m-%dT%H:%M:%fZ', (${start} + i * ${step}) / 1000.0, 'unixepoch'),
             case when i % 10 = 0 then 0 else 3 end
      from n`);
  }
  await store.exec(
    `insert into keyword_log_hours (hour, entries) select substr("timestamp", 1, 13), count(*) from keyword_logs group by substr("timestamp", 1, 13)`,
  );
  await store.exec(`insert into keyword_hours (hour, keyword, searches, zero_result_searches)
    select substr("timestamp", 1, 13), keyword, count(*), sum(case when result_count = 0 then 1 else 0 end) from keyword_logs group by substr("timestamp", 1, 13), keyword`);
  if (dialect === 'postgres') await store.exec('analyze keyword_logs');
}

function sqliteStore(path: string): Store {
  const db = new DatabaseSync(path);
  db.exec('PRAGMA busy_timeout = 10000');
  return {
    count: async (text) => Number((db.prepare(text).get() as { n: number }).n),
    exec: async (text) => void db.exec(text),
    close: async () => db.close(),
  };
}

async function postgresStore(url: string): Promise<Store> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    count: async (text) => Number((await client.query(text)).rows[0].n),
    exec: async (text) => void (await client.query(text)),
    close: () => client.end(),
  };
}

async function waitFor(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
