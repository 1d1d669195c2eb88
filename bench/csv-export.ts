import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { startPostgres } from '../test/helpers/postgres.ts';
import { cpuMilliseconds } from './lib/process-cpu.ts';
import { percentile, printTable, verdict } from './lib/report.ts';
import { startTenpo, type TenpoProcess } from './lib/tenpo-process.ts';

// CSV export of reservations (POST /api/admin/reservations/export) on SQLite and on
// PostgreSQL, the service started as its own process. The table holds 10,000 and then 100,000
// reservations (names, addresses and memos of a realistic length, some needing quotes); each size
// is exported whole by a fresh process, which is read to the end and counted, and the process's
// peak resident memory (VmHWM) before and after says how much the export grew it. Bounded memory
// means the growth for 100,000 rows is about that for 10,000, not ten times it. Time and the
// service's CPU per 1,000 rows are printed too (the CPU is steadier than the time on a shared machine).
// Then eight clients export the 100,000 rows at once while another asks /healthz one request after
// another: the exports take turns with other requests between their batches, so its p99 stays short.

const PORTS = { sqlite: 18881, postgres: 18882 };
/**
 * The service's heap held tight, as a container's limit would: left alone, V8 grows its young
 * generation to 3 × 16 MB and lets old garbage pile up, so an export's RSS grew by tens of MB at any
 * size (+13–19 MB at 10,000 rows, +45–66 MB at 100,000, the heap after a collection within 2 MB of
 * idle). With 4 MB semi-spaces and the old generation capped at 96 MB (idle about 35), the growth
 * shows what the export keeps: one that held its rows would run out of heap at 100,000.
 */
const NODE_OPTIONS = '--max-semi-space-size=4 --max-old-space-size=96';
const TOKEN = 'bench-admin-token';
const SIZES = [10_000, 100_000];

interface Store {
  /** Adds reservations numbered from..to-1. */
  seed(from: number, to: number): Promise<void>;
  close(): Promise<void>;
}

export async function run(): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tenpo-bench-csv-'));
  const cluster = await startPostgres({ durable: true });
  const rows: Record<string, string | number>[] = [];
  const parallel: Record<string, string | number>[] = [];
  const verdicts: string[] = [];
  try {
    for (const dialect of ['sqlite', 'postgres'] as const) {
      const databaseUrl = dialect === 'sqlite' ? `sqlite:${join(dir, 'tenpo.db')}` : cluster.url;
      // A first start creates the schema; the store is filled behind the service's back.
      await (await startTenpo({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' }, { port: PORTS[dialect] })).stop();
      const store = dialect === 'sqlite' ? sqliteStore(join(dir, 'tenpo.db')) : await postgresStore(cluster.url);
      const growth: number[] = [];
      try {
        let seeded = 0;
        for (const size of SIZES) {
          await store.seed(seeded, size);
          seeded = size;
          const tenpo = await startTenpo({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', NODE_OPTIONS }, { port: PORTS[dialect] });
          try {
            // Warm up the route and its code once, on a filter that matches nothing.
            await exportCsv(tenpo, { q: 'no such customer' });
            const before = peakRss(tenpo);
            const cpuBefore = cpuMilliseconds(tenpo.child.pid!);
            const started = performance.now();
            const { lines, bytes } = await exportCsv(tenpo, {});
            const ms = performance.now() - started;
            const cpu = cpuMilliseconds(tenpo.child.pid!) - cpuBefore;
            const after = peakRss(tenpo);
            if (lines !== size + 1) throw new Error(`${dialect}: ${size} reservations exported as ${lines} lines`);
            // The same export again: what memory the first kept would show as more growth here.
            await exportCsv(tenpo, {});
            const again = peakRss(tenpo);
            if (size === SIZES.at(-1)) {
              const beside = await healthBeside(tenpo, () => Promise.all(Array.from({ length: PARALLEL }, () => exportCsv(tenpo, {}))));
              parallel.push({
                store: dialect,
                exports: `${PARALLEL} × ${size.toLocaleString('en-US')} rows`,
                'exports took, ms': beside.ms,
                '/healthz answers': beside.latencies.length,
                'p50 ms': percentile(beside.latencies, 0.5),
                'p99 ms': percentile(beside.latencies, 0.99),
                'max ms': percentile(beside.latencies, 1),
              });
              const p99 = percentile(beside.latencies, 0.99);
              verdicts.push(
                verdict(
                  `/healthz p99 during ${PARALLEL} parallel exports of ${size.toLocaleString('en-US')} rows on ${dialect}`,
                  p99 < 50,
                  `${p99} ms over ${beside.latencies.length} answers`,
                  '< 50 ms',
                ),
              );
            }
            growth.push(after - before);
            rows.push({
              [dialect]: `${size.toLocaleString('en-US')} rows`,
              'MB of CSV': Math.round(bytes / 1e5) / 10,
              ms: Math.round(ms),
              'rows/s': Math.round((size / ms) * 1000),
              'CPU ms per 1,000 rows': Math.round((cpu / size) * 1000 * 10) / 10,
              'peak RSS before, MB': before,
              'after, MB': after,
              'growth, MB': after - before,
              'after a second export, MB': again,
            });
          } finally {
            await tenpo.stop();
          }
        }
      } finally {
        await store.close();
      }
      const [small, large] = growth as [number, number];
      // Growth within a few MB of the small export's (RSS moves in allocator-sized steps), never ten times it.
      const bounded = large <= Math.max(1.5 * small, small + 16);
      verdicts.push(
        verdict(
          `peak RSS growth exporting 100,000 rows vs 10,000 on ${dialect}`,
          bounded,
          `+${large} MB vs +${small} MB (ratio ${small > 0 ? (large / small).toFixed(2) : 'n/a'})`,
          '≤ max(1.5 × the 10,000-row growth, that + 16 MB); rows held at once would make it ~10×',
        ),
      );
    }
  } finally {
    cluster.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  for (const dialect of ['sqlite', 'postgres'])
    printTable(
      `CSV export of reservations on ${dialect} (a fresh process per size, node ${NODE_OPTIONS})`,
      rows.filter((r) => dialect in r),
    );
  printTable(`/healthz, one request at a time, while ${PARALLEL} clients export at once (the same processes)`, parallel);
  return verdicts;
}

/** Exports downloaded at once while /healthz is asked, one request after another, by another client. */
const PARALLEL = 8;

/** Runs `work` while asking /healthz one request at a time; each answer's time in ms, and the work's. */
async function healthBeside(tenpo: TenpoProcess, work: () => Promise<unknown>): Promise<{ latencies: number[]; ms: number }> {
  const latencies: number[] = [];
  let done = false;
  const started = performance.now();
  const running = work().finally(() => (done = true));
  while (!done) {
    const sent = performance.now();
    const response = await fetch(`${tenpo.url}/healthz`);
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`/healthz answered ${response.status}`);
    latencies.push(performance.now() - sent);
  }
  await running;
  return { latencies, ms: Math.round(performance.now() - started) };
}

/** Downloads the export and counts its lines (CRLF) and bytes, keeping none of it. */
async function exportCsv(tenpo: TenpoProcess, body: object): Promise<{ lines: number; bytes: number }> {
  const response = await fetch(`${tenpo.url}/api/admin/reservations/export`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}` },
    body: JSON.stringify(body),
  });
  if (response.status !== 200 || !response.body) throw new Error(`export answered ${response.status}`);
  let lines = 0;
  let bytes = 0;
  // Records end with CR LF, which may fall on either side of a chunk's end.
  let previous = 0;
  for await (const chunk of response.body) {
    bytes += chunk.length;
    for (const byte of chunk) {
      if (byte === 0x0a && previous === 0x0d) lines += 1;
      previous = byte;
    }
  }
  return { lines, bytes };
}

/** The process's peak resident set so far (Linux VmHWM), in MB. */
function peakRss(tenpo: TenpoProcess): number {
  const status = readFileSync(`/proc/${tenpo.child.pid}/status`, 'utf8');
  return Math.round(Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024);
}

// One statement per dialect fills the range: names, addresses and a memo (with a comma and quotes
// every seventh row) of the length staff write, over two products and every status.
const COLUMNS = 'id, name, email, product_slug, status, notes, created_at, updated_at';

function sqliteStore(path: string): Store {
  const db = new DatabaseSync(path);
  db.exec('PRAGMA busy_timeout = 10000');
  return {
    seed: async (from, to) => {
      db.exec(`with recursive n(i) as (select ${from} union all select i + 1 from n where i + 1 < ${to})
        insert into reservations (${COLUMNS})
        select printf('res_bench_%08d', i), '山田 太郎 ' || i, 'customer' || i || '@example.com',
          case i % 2 when 0 then 'kumo-vco-2' else 'tsuki-dual-lfo' end,
          case i % 4 when 0 then 'pending' when 1 then 'confirmed' when 2 then 'fulfilled' else 'cancelled' end,
          case when i % 7 = 0 then '電話で確認済み, "至急" の連絡あり' else '店頭で受け取り予定。入荷したら連絡をお願いします。' end,
          strftime('%Y-%m-%dT%H:%M:%fZ', 1767225600 + i, 'unixepoch'), strftime('%Y-%m-%dT%H:%M:%fZ', 1767225600 + i, 'unixepoch')
        from n`);
    },
    close: async () => db.close(),
  };
}

async function postgresStore(url: string): Promise<Store> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    seed: async (from, to) => {
      await client.query(`insert into reservations (${COLUMNS})
        select 'res_bench_' || lpad(i::text, 8, '0'), '山田 太郎 ' || i, 'customer' || i || '@example.com',
          case i % 2 when 0 then 'kumo-vco-2' else 'tsuki-dual-lfo' end,
          case i % 4 when 0 then 'pending' when 1 then 'confirmed' when 2 then 'fulfilled' else 'cancelled' end,
          case when i % 7 = 0 then '電話で確認済み, "至急" の連絡あり' else '店頭で受け取り予定。入荷したら連絡をお願いします。' end,
          to_char(to_timestamp(1767225600 + i) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), to_char(to_timestamp(1767225600 + i) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
        from generate_series(${from}, ${to - 1}) as i`);
      await client.query('analyze reservations');
    },
    close: () => client.end(),
  };
}
