import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CompiledQuery, sql, type Kysely } from 'kysely';
import { openDatabase, type Database } from '../src/db/database.ts';
import type { Tables } from '../src/db/schema.ts';
import { createLogger } from '../src/log.ts';
import { listActive, listArchived } from '../src/records/lists.ts';
import { RESERVATION_LISTS, SORT_COLUMNS } from '../src/reservations/schemas.ts';
import { insertReservations } from '../src/reservations/store.ts';
import { startPostgres } from '../test/helpers/postgres.ts';
import { cpuMilliseconds } from './lib/process-cpu.ts';
import { printTable, verdict } from './lib/report.ts';

// The console's reservation lists at 3,000 and 50,000 reservations, on SQLite and
// PostgreSQL: the first page, the last page, a search, and the first and last page of every sort,
// as the list route runs them (count + page, src/records/lists.ts), in this process: the CPU each
// takes (this process and the database server's) and the median wall time. And each sort's page
// query plan: read in the order of an index, not sorted from every row.

const SIZES = [3_000, 50_000];
const PAGE_SIZE = 50;
const RUNS = Number(process.env.BENCH_ROUNDS ?? 15);
/** Every tenth reservation archived, as a shop that archives now and then. */
const ARCHIVED_EVERY = 10;
const PRODUCTS = ['kumo-vco-2', 'tsuki-dual-lfo', 'hayate-wavefolder', 'larkspur-multimode-filter'];
const STATUSES = ['pending', 'confirmed', 'fulfilled', 'cancelled'];
/** CPU for a page of any order or filter at 50,000 reservations: well inside what staff notice. */
const PAGE_TARGET_MS = 25;
/** CPU for a search, a substring scan no index serves (the lists' `q`), at 50,000 reservations. */
const SEARCH_TARGET_MS = 100;

type Measured = { wall: number; cpu: number };

export async function runLists(): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tenpo-bench-lists-'));
  const cluster = await startPostgres();
  const log = createLogger('warn');
  const kind = RESERVATION_LISTS;
  const rows: Record<string, string | number>[] = [];
  const plans: Record<string, string | number>[] = [];
  const verdicts: string[] = [];
  try {
    for (const dialect of ['sqlite', 'postgres'] as const) {
      for (const size of SIZES) {
        const database = await openDatabase(
          dialect === 'sqlite'
            ? { dialect, path: join(dir, `lists-${size}.db`) }
            : { dialect, url: await freshPostgresDatabase(cluster.url, size) },
          log,
        );
        try {
          await seed(database, size);
          const active = size - Math.floor(size / ARCHIVED_EVERY);
          const lastPage = Math.ceil(active / PAGE_SIZE);
          const cases: [string, () => Promise<unknown>][] = [
            ['first page (newest first)', () => listActive(database, kind, { page: 1, pageSize: PAGE_SIZE })],
            [`last page (${lastPage})`, () => listActive(database, kind, { page: lastPage, pageSize: PAGE_SIZE })],
            [
              'search "customer123" (name, email, id)',
              () => listActive(database, kind, { q: 'customer123', page: 1, pageSize: PAGE_SIZE }),
            ],
            [
              'search "こきゃく　000123" (folded: kana, full-width space)',
              () => listActive(database, kind, { q: 'こきゃく　000123', page: 1, pageSize: PAGE_SIZE }),
            ],
            [
              'status pending, product filter',
              () => listActive(database, kind, { status: 'pending', productSlug: 'kumo-vco-2', page: 1, pageSize: PAGE_SIZE }),
            ],
          ];
          for (const by of Object.keys(SORT_COLUMNS)) {
            for (const order of ['asc', 'desc'] as const) {
              cases.push([
                `sort ${by} ${order}, first page`,
                () => listActive(database, kind, { sort: { by, order }, page: 1, pageSize: PAGE_SIZE }),
              ]);
            }
            cases.push([
              `sort ${by} asc, last page`,
              () => listActive(database, kind, { sort: { by, order: 'asc' }, page: lastPage, pageSize: PAGE_SIZE }),
            ]);
          }
          const archivedPages = Math.ceil((size - active) / PAGE_SIZE);
          cases.push(
            ['archived: first page', () => listArchived(database, kind, { page: 1, pageSize: PAGE_SIZE })],
            [`archived: last page (${archivedPages})`, () => listArchived(database, kind, { page: archivedPages, pageSize: PAGE_SIZE })],
            [
              'archived: sort name asc, last page',
              () => listArchived(database, kind, { sort: { by: 'name', order: 'asc' }, page: archivedPages, pageSize: PAGE_SIZE }),
            ],
          );
          let costliest = { label: '', cpu: 0 };
          let search = 0;
          for (const [label, call] of cases) {
            const measured = await measure(database, call);
            rows.push({
              store: dialect,
              reservations: size.toLocaleString('en'),
              list: label,
              'CPU ms': measured.cpu.toFixed(2),
              'median wall ms': measured.wall.toFixed(2),
            });
            if (label.startsWith('search')) search = Math.max(search, measured.cpu);
            else if (measured.cpu > costliest.cpu) costliest = { label, cpu: measured.cpu };
          }
          if (size === SIZES.at(-1)) {
            const at = `${dialect}, ${size.toLocaleString('en')} reservations`;
            verdicts.push(
              verdict(
                `${at}: every page, filter and sort (CPU)`,
                costliest.cpu < PAGE_TARGET_MS,
                `costliest ${costliest.cpu.toFixed(1)} ms (${costliest.label})`,
                `< ${PAGE_TARGET_MS} ms`,
              ),
            );
            verdicts.push(
              verdict(`${at}: the costlier search (CPU)`, search < SEARCH_TARGET_MS, `${search.toFixed(1)} ms`, `< ${SEARCH_TARGET_MS} ms`),
            );
            const sorted = await sortPlans(database, Math.floor(active / 2));
            for (const plan of sorted)
              plans.push({
                store: dialect,
                order: plan.order,
                'reads in index order': plan.indexed ? 'yes' : 'NO',
                plan: plan.text.slice(0, 150),
              });
            const unindexed = sorted.filter((plan) => !plan.indexed).map((plan) => plan.order);
            verdicts.push(
              verdict(
                `${dialect}: every sort's page read in index order (mid-list page of ${size.toLocaleString('en')})`,
                unindexed.length === 0,
                unindexed.length === 0 ? 'all' : `sorted: ${unindexed.join(', ')}`,
                'no sort step',
              ),
            );
          }
        } finally {
          await database.close();
        }
      }
    }
  } finally {
    await cluster.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  printTable(
    `reservation lists, ${PAGE_SIZE} a page, ${RUNS} runs each (count + page, as the list route); CPU per list: this process + the database server`,
    rows,
  );
  printTable('page query plans, active list, every sort', plans);
  return verdicts;
}

/** A new database in the cluster for one size, so each starts empty. */
async function freshPostgresDatabase(url: string, size: number): Promise<string> {
  const pg = await import('pg');
  const client = new pg.default.Client({ connectionString: url });
  await client.connect();
  const name = `bench_lists_${size}_${process.pid}`;
  await client.query(`drop database if exists ${name}`);
  await client.query(`create database ${name}`);
  await client.end();
  const target = new URL(url);
  target.pathname = `/${name}`;
  return target.toString();
}

/** `size` reservations over four products and statuses, names out of creation order, one in ten archived. */
async function seed(database: Database, size: number): Promise<void> {
  const start = Date.parse('2025-01-01T00:00:00.000Z');
  for (let from = 0; from < size; from += 1_000) {
    const batch = Array.from({ length: Math.min(1_000, size - from) }, (_, k) => {
      const i = from + k;
      return {
        id: `res_${String(i).padStart(8, '0')}`,
        name: `${i % 2 ? '顧客' : 'コキャク'} ${String((i * 7919) % size).padStart(6, '0')}`,
        email: `customer${i}@example.jp`,
        product_slug: PRODUCTS[i % PRODUCTS.length]!,
        status: STATUSES[(i * 13) % STATUSES.length]!,
        created_at: new Date(start + i * 60_000).toISOString(),
      };
    });
    await insertReservations(database.db, batch);
  }
  const archivedAt = new Date(start + size * 60_000).toISOString();
  await sql`update reservations set archived_at = ${archivedAt}, updated_at = ${archivedAt} where cast(substr(id, 5) as integer) % ${ARCHIVED_EVERY} = 0`.execute(
    database.db,
  );
  // As autovacuum leaves a table that has settled: statistics, and the visibility map PostgreSQL's index-only scans read.
  await sql.raw(database.dialect === 'postgres' ? 'vacuum analyze' : 'analyze').execute(database.db);
}

/**
 * A case's median wall time, and its CPU per call: this process's (all of SQLite's work), plus on
 * PostgreSQL the server processes' serving this database, read from /proc in clock ticks (10 ms), so
 * summed over every run and divided. On a machine shared with other work the wall time moves with
 * the neighbours; the CPU much less, and the verdicts read it.
 */
async function measure(database: Database, call: () => Promise<unknown>): Promise<Measured> {
  await call();
  const backends = database.dialect === 'postgres' ? await backendPids(database) : [];
  const serverCpu = () => backends.reduce((sum, pid) => sum + cpuMilliseconds(pid), 0);
  const walls: number[] = [];
  const ownCpu = process.cpuUsage();
  const serverBefore = serverCpu();
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    await call();
    walls.push(performance.now() - started);
  }
  const own = process.cpuUsage(ownCpu);
  const cpu = ((own.user + own.system) / 1000 + (serverCpu() - serverBefore)) / RUNS;
  return { wall: [...walls].sort((a, b) => a - b)[Math.floor(RUNS / 2)]!, cpu };
}

/** The server processes of the pool's connections to this database (opened by the first call). */
async function backendPids(database: Database): Promise<number[]> {
  const result = await sql<{ pid: number }>`select pid from pg_stat_activity where datname = current_database()`.execute(database.db);
  return result.rows.map((row) => row.pid);
}

/** The plan of each sort's page query (its ids, src/records/store.ts), a page in the middle of the active list: whether it reads an index in order instead of sorting. */
async function sortPlans(database: Database, offset: number): Promise<{ order: string; indexed: boolean; text: string }[]> {
  const db: Kysely<Tables> = database.db;
  const plans = [];
  for (const [by, column] of Object.entries(SORT_COLUMNS)) {
    for (const order of ['asc', 'desc'] as const) {
      const query = db
        .selectFrom('reservations')
        .select('id')
        .where('archived_at', 'is', null)
        .orderBy(sql.ref(column), order)
        .orderBy('id', order)
        .limit(PAGE_SIZE)
        .offset(offset)
        .compile();
      const explain = database.dialect === 'sqlite' ? 'explain query plan ' : 'explain ';
      const result = await db.executeQuery<Record<string, unknown>>(CompiledQuery.raw(explain + query.sql, [...query.parameters]));
      const text = result.rows.map((row) => String(row.detail ?? row['QUERY PLAN'] ?? JSON.stringify(row))).join(' | ');
      const indexed = database.dialect === 'sqlite' ? !/TEMP B-TREE/.test(text) : !/\bSort\b/.test(text);
      plans.push({ order: `${by} ${order}`, indexed, text });
    }
  }
  return plans;
}
