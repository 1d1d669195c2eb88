import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { startPostgres } from '../test/helpers/postgres.ts';
import { load } from './lib/load.ts';
import { percentile, printTable, verdict } from './lib/report.ts';
import { startTenpo, type TenpoProcess } from './lib/tenpo-process.ts';

// A keyword log flooded with 2,000,000 searches in the last 30 days, as a script pasting random
// text into the search box would leave it: nine in ten keywords new (`flood<n>`), the rest the words
// shoppers type. The log and what the service keeps beside it (searches per hour; per keyword and
// hour, at most the first 200 keywords of each hour) are written behind the service's back, then
// the service is started as its own process and asked, on SQLite and on PostgreSQL: /healthz,
// /api/search and /api/search/suggest from 8 connections for 5 s each (p99 < 50 ms each: no request
// waits on work that grows with the log), and the dashboard's figures and the public log, one at a
// time (< 1 s).

const ENTRIES = 2_000_000;
const PORTS = { sqlite: 18891, postgres: 18892 };
const TOKEN = 'bench-admin-token';
const DAYS = 30;
/** What the service keeps per keyword and hour (src/keyword-log/store.ts KEYWORDS_PER_HOUR). */
const KEYWORDS_PER_HOUR = 200;
const WORDS = ['シンセ', 'VCO', 'フィルター', 'LFO', 'ケース', 'リバーブ', 'クロック', 'MIDI', 'VCA', 'ウェーブフォルダー'];

interface Store {
  /** The flood: `ENTRIES` searches in the `DAYS` days before `now`, and the counts kept beside them. */
  flood(now: number): Promise<void>;
  close(): Promise<void>;
}

export async function run(): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tenpo-bench-flood-'));
  const cluster = await startPostgres({ durable: true });
  const rows: Record<string, string | number>[] = [];
  const verdicts: string[] = [];
  try {
    for (const dialect of ['sqlite', 'postgres'] as const) {
      const databaseUrl = dialect === 'sqlite' ? `sqlite:${join(dir, 'tenpo.db')}` : cluster.url;
      const env = { DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '0' };
      await (await startTenpo(env, { port: PORTS[dialect] })).stop();
      const store = dialect === 'sqlite' ? sqliteStore(join(dir, 'tenpo.db')) : await postgresStore(cluster.url);
      const seeding = performance.now();
      try {
        await store.flood(Date.now());
      } finally {
        await store.close();
      }
      console.log(`${dialect}: ${ENTRIES.toLocaleString('en-US')} entries written in ${Math.round(performance.now() - seeding)} ms`);
      const tenpo = await startTenpo(env, { port: PORTS[dialect] });
      try {
        const measured = await measure(tenpo);
        for (const [what, p99, target] of measured) {
          rows.push({ [dialect]: what, 'p99 or max, ms': p99, 'target, ms': target });
          verdicts.push(
            verdict(
              `${what} with ${ENTRIES.toLocaleString('en-US')} log entries on ${dialect}`,
              p99 < target,
              `${p99} ms`,
              `< ${target} ms`,
            ),
          );
        }
        rows.push({ [dialect]: 'start to first /healthz 200', 'p99 or max, ms': Math.round(tenpo.coldStartMs), 'target, ms': '' });
      } finally {
        await tenpo.stop();
      }
    }
  } finally {
    cluster.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  for (const dialect of ['sqlite', 'postgres'])
    printTable(
      `A flooded keyword log on ${dialect} (${ENTRIES.toLocaleString('en-US')} entries in ${DAYS} days)`,
      rows.filter((r) => dialect in r),
    );
  return verdicts;
}

/** Each measure: what, its p99 (or its slowest answer, for one at a time), and its target. */
async function measure(tenpo: TenpoProcess): Promise<[string, number, number][]> {
  const loaded = async (path: string) => {
    const result = await load({ url: tenpo.url, connections: 8, seconds: 5, requests: [{ path }] });
    if (result.non2xx + result.errors > 0) throw new Error(`${path}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    return result.p99Ms;
  };
  const query = (word: string) => `/api/search?q=${encodeURIComponent(word)}`;
  const searches = await load({
    url: tenpo.url,
    connections: 8,
    seconds: 5,
    requests: WORDS.map((word) => ({ path: query(word) })),
  });
  const suggestions = await load({
    url: tenpo.url,
    connections: 8,
    seconds: 5,
    requests: WORDS.map((word) => ({ path: `/api/search/suggest?q=${encodeURIComponent(word.slice(0, 1))}` })),
  });
  const once = async (path: string, init?: RequestInit) => {
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      const response = await fetch(`${tenpo.url}${path}`, init);
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
      times.push(performance.now() - started);
    }
    return percentile(times, 1);
  };
  const admin = { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` }, body: '{}' };
  return [
    ['/healthz, 8 connections', await loaded('/healthz'), 50],
    ['/api/search, 8 connections', searches.p99Ms, 50],
    ['/api/search/suggest, 8 connections', suggestions.p99Ms, 50],
    ['dashboard figures, slowest of 5', await once('/api/admin-dashboard-stats', admin), 1_000],
    ['GET /api/keyword-logs, slowest of 5', await once('/api/keyword-logs'), 1_000],
  ];
}

function sqliteStore(path: string): Store {
  const db = new DatabaseSync(path);
  db.exec('PRAGMA busy_timeout = 10000');
  return {
    flood: async (now) => {
      const start = now - DAYS * 86_400_000;
      const step = (DAYS * 86_400_000) / ENTRIES;
      db.exec('begin');
      db.exec(`with recursive n(i) as (select 0 union all select i + 1 from n where i + 1 < ${ENTRIES})
        insert into keyword_logs (keyword, timestamp, result_count)
        select case when i % 10 = 0 then ${wordOf('i', 'sqlite')} else 'flood' || (i % 500000) end,
          strftime('%Y-%m-%dT%H:%M:%fZ', (${start} + i * ${step}) / 1000.0, 'unixepoch'),
          case when i % 10 = 0 then 3 else 0 end
        from n`);
      db.exec(aggregates);
      db.exec('commit');
    },
    close: async () => db.close(),
  };
}

async function postgresStore(url: string): Promise<Store> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    flood: async (now) => {
      const start = now - DAYS * 86_400_000;
      const step = (DAYS * 86_400_000) / ENTRIES;
      await client.query('begin');
      await client.query(`insert into keyword_logs (keyword, timestamp, result_count)
        select case when i % 10 = 0 then ${wordOf('i', 'postgres')} else 'flood' || (i % 500000) end,
          to_char(to_timestamp((${start} + i::bigint * ${step}) / 1000.0) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
          case when i % 10 = 0 then 3 else 0 end
        from generate_series(0, ${ENTRIES - 1}) as i`);
      await client.query(aggregates);
      await client.query('commit');
      await client.query('analyze');
    },
    close: () => client.end(),
  };
}

/** One of WORDS by `i`, in SQL. */
function wordOf(i: string, dialect: 'sqlite' | 'postgres'): string {
  const cases = WORDS.map((word, n) => `when ${n} then '${word}'`).join(' ');
  return `(case ${dialect === 'sqlite' ? `(${i} / 10) % ${WORDS.length}` : `((${i} / 10) % ${WORDS.length})::int`} ${cases} end)`;
}

/** The counts the service keeps beside the log, as its writes would have left them (the same SQL on both). */
const aggregates = `
  insert into keyword_log_hours (hour, entries)
    select substr(timestamp, 1, 13), count(*) from keyword_logs group by substr(timestamp, 1, 13);
  insert into keyword_hours (hour, keyword, searches, zero_result_searches)
    select hour, keyword, searches, zero from (
      select substr(timestamp, 1, 13) as hour, keyword, count(*) as searches,
        sum(case when result_count = 0 then 1 else 0 end) as zero,
        row_number() over (partition by substr(timestamp, 1, 13) order by min(timestamp)) as rank
      from keyword_logs group by substr(timestamp, 1, 13), keyword
    ) as counted where rank <= ${KEYWORDS_PER_HOUR};`;
