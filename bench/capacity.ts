import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { onBothStores } from './lib/both-stores.ts';
import { newDatabase } from './lib/databases.ts';
import { checkouts } from './lib/checkouts.ts';
import { deliveringTo, startCountingReceiver } from './lib/counting-receiver.ts';
import { runMixedLoad } from './lib/mixed-load.ts';
import { cpuMilliseconds, treeCpuMilliseconds } from './lib/process-cpu.ts';
import { printTable, verdict } from './lib/report.ts';
import { seededRandom } from './lib/search-corpus.ts';
import { consoleFirstVisit, shopTraffic } from './lib/shop-traffic.ts';
import { startTenpo } from './lib/tenpo-process.ts';

// How much shop one process serves, the figure a deployment is sized by (docs/performance.md): the
// shop's traffic (bench/lib/shop-traffic.ts) with every message delivered meanwhile, from more and
// more connections for 10 s each until the p99 passes 50 ms; per step req/s, p50/p99 and the
// service's CPU in cores. The capacity is the last step's req/s under 50 ms, also per core. On SQLite
// and PostgreSQL (fsync on; also its cores and commits per request), for this checkout and the one
// TENPO_BENCH_BEFORE names. Ports 18921-18923.

const STEPS = [1, 2, 4, 8, 16, 32, 64];
const SECONDS = Number(process.env.BENCH_CAPACITY_SECONDS ?? 10);
const P99_LIMIT_MS = 50;
const PORTS = { service: 18921, receiver: 18923 };
const TOKEN = 'bench-admin-token';

export async function run(): Promise<string[]> {
  const receiver = await startCountingReceiver(PORTS.receiver);
  const dir = mkdtempSync(join(tmpdir(), 'tenpo-bench-capacity-'));
  const verdicts: string[] = [];
  const summary: Record<string, string | number>[] = [];
  try {
    await onBothStores('capacity', async (store, databaseUrl) => {
      for (const checkout of checkouts()) {
        const url =
          store === 'sqlite' ? `sqlite:${join(dir, `${checkout.label}.db`)}` : await newDatabase(databaseUrl, `capacity_${checkout.label}`);
        const tenpo = await startTenpo(
          { DATABASE_URL: url, RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'warn', ...deliveringTo(receiver.url, ['reservation', 'restock']) },
          { port: PORTS.service, root: checkout.root },
        );
        const random = seededRandom(20260311);
        const endpoints = [...shopTraffic(random, TOKEN), await consoleFirstVisit(tenpo.url, 2)];
        await runMixedLoad({ url: tenpo.url, endpoints, connections: 8, seconds: 5, random }); // warm-up
        const database = store === 'postgres' ? await databaseProbe(url) : undefined;
        const rows = [];
        let capacity: { connections: number; rps: number; cores: number; p99: number; databaseCores?: number } | undefined;
        for (const connections of STEPS) {
          const cpuBefore = cpuMilliseconds(tenpo.child.pid!);
          const databaseBefore = database && { cpu: database.cpu(), commits: await database.commits() };
          const result = await runMixedLoad({ url: tenpo.url, endpoints, connections, seconds: SECONDS, random });
          const cores = (cpuMilliseconds(tenpo.child.pid!) - cpuBefore) / (result.seconds * 1000);
          const databaseCores = databaseBefore && (database.cpu() - databaseBefore.cpu) / (result.seconds * 1000);
          const commits = databaseBefore && ((await database.commits()) - databaseBefore.commits) / result.total;
          const rps = result.total / result.seconds;
          const p99 = result.overall.percentile(99) / 1000;
          rows.push({
            connections,
            'req/s': Math.round(rps),
            'p50 ms': Math.round(result.overall.percentile(50) / 100) / 10,
            'p99 ms': Math.round(p99 * 10) / 10,
            'service cores': cores.toFixed(2),
            'req/s per core': Math.round(rps / cores),
            ...(database && { 'database cores': databaseCores!.toFixed(2), 'commits per request': commits!.toFixed(2) }),
            errors: result.errors,
          });
          if (p99 > P99_LIMIT_MS) break;
          capacity = { connections, rps, cores, p99, databaseCores };
        }
        await tenpo.stop();
        await database?.close();
        printTable(
          `${store}, ${checkout.label}: the shop's traffic from more and more connections, ${SECONDS} s each, until p99 passes ${P99_LIMIT_MS} ms`,
          rows,
        );
        summary.push({
          store,
          checkout: checkout.label,
          connections: capacity?.connections ?? 0,
          'req/s at p99 ≤ 50 ms': Math.round(capacity?.rps ?? 0),
          'p99 ms': capacity ? Math.round(capacity.p99 * 10) / 10 : '',
          'service cores': capacity?.cores.toFixed(2) ?? '',
          'req/s per core': capacity ? Math.round(capacity.rps / capacity.cores) : 0,
          'database cores': capacity?.databaseCores?.toFixed(2) ?? '',
        });
        if (checkout.label === 'now')
          verdicts.push(
            verdict(
              `capacity on ${store} at p99 ≤ ${P99_LIMIT_MS} ms (informational: docs/performance.md)`,
              true,
              capacity ? `${Math.round(capacity.rps)} req/s, ${Math.round(capacity.rps / capacity.cores)} per core of the service` : 'none',
              'none set',
            ),
          );
      }
    });
  } finally {
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  }
  printTable(`Capacity: the last step with p99 ≤ ${P99_LIMIT_MS} ms`, summary);
  return verdicts;
}

/**
 * What the PostgreSQL cluster behind `url` has done so far: its CPU (the postmaster and every
 * process under it, found from the data directory's postmaster.pid) and the commits in this
 * checkout's database.
 */
async function databaseProbe(url: string): Promise<{ cpu(): number; commits(): Promise<number>; close(): Promise<void> }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query<{ setting: string }>(`select setting from pg_settings where name = 'data_directory'`);
  const postmaster = Number(readFileSync(join(rows[0]!.setting, 'postmaster.pid'), 'utf8').split('\n')[0]);
  return {
    cpu: () => treeCpuMilliseconds(postmaster),
    commits: async () =>
      Number(
        (await client.query<{ n: string }>('select xact_commit as n from pg_stat_database where datname = current_database()')).rows[0]!.n,
      ),
    close: () => client.end(),
  };
}
