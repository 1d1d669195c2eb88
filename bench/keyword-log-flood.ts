import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FLOOD_WORDS, floodableStore } from '../test/helpers/keyword-flood.ts';
import { startPostgres } from '../test/helpers/postgres.ts';
import { load } from './lib/load.ts';
import { percentile, printTable, verdict } from './lib/report.ts';
import { startTenpo, type TenpoProcess } from './lib/tenpo-process.ts';

// A keyword log flooded with 2,000,000 searches in the last 30 days (test/helpers/keyword-flood.ts),
// then the service is started as its own process and asked, on SQLite and on PostgreSQL: /healthz,
// /api/search and /api/search/suggest from 8 connections for 5 s each (p99 < 50 ms each: no request
// waits on work that grows with the log), and the dashboard's figures and the public log, one at a
// time (< 1 s); then 16 connections reading the public log, 5,000 entries a time each up to a
// different time, while one connection each asks /healthz (p99 < 50 ms), the dashboard's figures
// and suggestions (p99 < 100 ms): the reads take turns a batch at a time (src/db/batch-turns.ts).

const ENTRIES = 2_000_000;
const PORTS = { sqlite: 18891, postgres: 18892 };
const TOKEN = 'bench-admin-token';
const DAYS = 30;
const WORDS = FLOOD_WORDS;

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
      const store = await floodableStore(databaseUrl);
      const seeding = performance.now();
      try {
        await store.flood(ENTRIES, DAYS, Date.now());
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
  const readers = await beside16Readers(tenpo, admin);
  return [
    ...readers,
    ['/healthz, 8 connections', await loaded('/healthz'), 50],
    ['/api/search, 8 connections', searches.p99Ms, 50],
    ['/api/search/suggest, 8 connections', suggestions.p99Ms, 50],
    ['dashboard figures, slowest of 5', await once('/api/admin-dashboard-stats', admin), 1_000],
    ['GET /api/keyword-logs, slowest of 5', await once('/api/keyword-logs'), 1_000],
  ];
}

/**
 * 16 connections reading the public log, limit=5000 up to a different time each (the probe's
 * reads), for 10 s, and beside them one connection each asking /healthz, the dashboard's figures
 * and suggestions: their p99s.
 */
async function beside16Readers(tenpo: TenpoProcess, admin: RequestInit): Promise<[string, number, number][]> {
  const now = Date.now();
  const reads = Array.from({ length: 2_000 }, (_, i) => ({
    path: `/api/keyword-logs?limit=5000&to=${new Date(now - i * 61_000).toISOString()}`,
  }));
  const beside = (requests: Parameters<typeof load>[0]['requests']) => load({ url: tenpo.url, connections: 1, seconds: 10, requests });
  const [readers, health, dashboard, suggest] = await Promise.all([
    load({ url: tenpo.url, connections: 16, seconds: 10, requests: reads, shared: true }),
    beside([{ path: '/healthz' }]),
    beside([{ method: 'POST', path: '/api/admin-dashboard-stats', headers: admin.headers as Record<string, string>, body: '{}' }]),
    beside(WORDS.map((word) => ({ path: `/api/search/suggest?q=${encodeURIComponent(word.slice(0, 1))}` }))),
  ]);
  console.log(`  16 log readers: ${readers.ok} reads of 5,000 entries in 10 s, p50 ${readers.p50Ms} ms, p99 ${readers.p99Ms} ms`);
  return [
    ['/healthz beside 16 log readers', health.p99Ms, 50],
    ['dashboard figures beside 16 log readers', dashboard.p99Ms, 100],
    ['suggestions beside 16 log readers', suggest.p99Ms, 100],
  ];
}
