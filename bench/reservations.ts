import { mkdtempSync, rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startPostgres } from '../test/helpers/postgres.ts';
import { startBareReservationServer } from './lib/bare-reservation-server.ts';
import { compareServers } from './lib/compare.ts';
import { startCountingReceiver, type CountingReceiver } from './lib/counting-receiver.ts';
import { load, type LoadRequest } from './lib/load.ts';
import { printTable, verdict } from './lib/report.ts';
import { startTenpo } from './lib/tenpo-process.ts';
import { rush, tenpoEnv } from './preorder-rush.ts';

// POST /api/reservation under 50 connections, with the dispatcher delivering every message to a local
// receiver (email API and chat webhook) while the load runs. On SQLite against a bare node:http +
// node:sqlite server inserting the same row; on PostgreSQL on its own. Afterwards, the stores and the
// receiver are counted: every 2xx answer must be a row, and every row must have produced exactly one
// email and one chat message. Then a preorder campaign's sold-out rush (bench/preorder-rush.ts).

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = 3;
const PORTS = { sqlite: 18811, bare: 18812, postgres: 18813, receiver: 18814, bareNoSync: 18815 };
const PRODUCTS = ['kumo-vco-2', 'hayate-wavefolder', 'tsuki-dual-lfo'];
/** autocannon's default, which load() and compareServers() use. */
const CONNECTIONS = 50;

const REQUESTS: LoadRequest[] = Array.from({ length: 24 }, (_, i) => ({
  method: 'POST',
  path: '/api/reservation',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ name: ` 予約 太郎 ${i} `, email: `Buyer${i}@Example.com`, productSlug: PRODUCTS[i % PRODUCTS.length] }),
}));

export async function run(): Promise<string[]> {
  const receiver = await startCountingReceiver(PORTS.receiver);
  const dir = mkdtempSync(join(tmpdir(), 'tenpo-bench-res-'));
  const verdicts: string[] = [];
  const rows: Record<string, string | number>[] = [];
  try {
    // SQLite, beside the bare server.
    const sqlitePath = join(dir, 'tenpo.db');
    const tenpo = await startTenpo(tenpoEnv(`sqlite:${sqlitePath}`, receiver.url), { port: PORTS.sqlite });
    // The baseline with tenpo's durability (synchronous = FULL), and for the record one without it.
    const bare = await startBareReservationServer(join(dir, 'bare.db'), PORTS.bare, 'FULL');
    const comparison = await compareServers({
      ours: tenpo.url,
      baseline: bare.url,
      requests: REQUESTS,
      rounds: ROUNDS,
      secondsPerRound: SECONDS,
    });
    await bare.stop();
    const bareNoSync = await startBareReservationServer(join(dir, 'bare-nosync.db'), PORTS.bareNoSync, 'NORMAL');
    await load({ url: bareNoSync.url, requests: REQUESTS, seconds: 2 });
    const noSync = await load({ url: bareNoSync.url, requests: REQUESTS, seconds: SECONDS });
    await bareNoSync.stop();
    const drainedIn = await drain(receiver, () => countSqlite(sqlitePath));
    const sqliteCount = countSqlite(sqlitePath);
    await tenpo.stop();
    const sqliteLoss = lossReport(comparison.okResponses.ours, ROUNDS + 1, sqliteCount, receiver);
    rows.push(
      {
        server: 'tenpo (SQLite)',
        'req/s': Math.round(comparison.ours.requestsPerSecond),
        'p50 ms': comparison.ours.p50Ms,
        'p99 ms': comparison.ours.p99Ms,
        errors: comparison.ours.errors + comparison.ours.non2xx,
      },
      {
        server: 'bare node:http + node:sqlite, synchronous=FULL',
        'req/s': Math.round(comparison.baseline.requestsPerSecond),
        'p50 ms': comparison.baseline.p50Ms,
        'p99 ms': comparison.baseline.p99Ms,
        errors: comparison.baseline.errors + comparison.baseline.non2xx,
      },
      {
        server: 'bare, synchronous=NORMAL (no fsync; for the record)',
        'req/s': Math.round(noSync.requestsPerSecond),
        'p50 ms': noSync.p50Ms,
        'p99 ms': noSync.p99Ms,
        errors: noSync.errors + noSync.non2xx,
      },
    );
    console.log(
      `SQLite: ${comparison.okResponses.ours} reservations answered 200; ${sqliteCount.reservations} rows; outbox ${JSON.stringify(sqliteCount.outbox)}; receiver ${receiver.emails.size} emails (${receiver.duplicateEmails} repeated), ${receiver.chats} chat messages; drained ${drainedIn} ms after the load`,
    );
    verdicts.push(
      verdict(
        'reservations/s on SQLite (median round)',
        comparison.ours.requestsPerSecond >= 2000,
        Math.round(comparison.ours.requestsPerSecond).toString(),
        '≥ 2,000',
      ),
      verdict('reservation p99 on SQLite', comparison.ours.p99Ms < 30, `${comparison.ours.p99Ms} ms`, '< 30 ms'),
      verdict(
        'reservation ratio tenpo/bare, both durable (median of rounds)',
        comparison.ratio >= 0.5,
        comparison.ratio.toFixed(2),
        '≥ 0.50',
      ),
      `INFO  reservation ratio tenpo/bare without fsync: ${(comparison.ours.requestsPerSecond / noSync.requestsPerSecond).toFixed(2)} (tenpo always syncs; this bare server does not wait for the disk)`,
      verdict('nothing lost on SQLite', sqliteLoss.ok, sqliteLoss.text, 'equal'),
    );

    // PostgreSQL.
    receiver.reset();
    const cluster = await startPostgres({ durable: true });
    try {
      const tenpoPg = await startTenpo(tenpoEnv(cluster.url, receiver.url), { port: PORTS.postgres });
      const client = new pg.Client({ connectionString: cluster.url });
      await client.connect();
      try {
        const warmUp = await load({ url: tenpoPg.url, requests: REQUESTS, seconds: 2 });
        const measured = await load({ url: tenpoPg.url, requests: REQUESTS, seconds: SECONDS * 2 });
        const countPg = () => countPostgres(client);
        const drainedPgIn = await drain(receiver, countPg);
        const pgCount = await countPg();
        await tenpoPg.stop();
        const pgLoss = lossReport(warmUp.ok + measured.ok, 2, pgCount, receiver);
        rows.push({
          server: 'tenpo (PostgreSQL)',
          'req/s': Math.round(measured.requestsPerSecond),
          'p50 ms': measured.p50Ms,
          'p99 ms': measured.p99Ms,
          errors: measured.errors + measured.non2xx,
        });
        console.log(
          `PostgreSQL: ${warmUp.ok + measured.ok} reservations answered 200; ${pgCount.reservations} rows; outbox ${JSON.stringify(pgCount.outbox)}; receiver ${receiver.emails.size} emails (${receiver.duplicateEmails} repeated), ${receiver.chats} chat messages; drained ${drainedPgIn} ms after the load`,
        );
        verdicts.push(
          verdict(
            'reservations/s on PostgreSQL (informational)',
            true,
            `${Math.round(measured.requestsPerSecond)} (p99 ${measured.p99Ms} ms)`,
            'none set',
          ),
          verdict('nothing lost on PostgreSQL', pgLoss.ok, pgLoss.text, 'equal'),
        );
      } finally {
        await client.end();
      }
    } finally {
      cluster.stop();
    }
  } finally {
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  }
  printTable(
    `POST /api/reservation, 50 connections, dispatcher delivering to a local receiver; SQLite: ${ROUNDS} alternating rounds of ${SECONDS} s vs bare (median round); PostgreSQL: one run of ${SECONDS * 2} s`,
    rows,
  );
  return [...verdicts, ...(await rush())];
}

interface StoreCount {
  reservations: number;
  outbox: Record<string, number>;
}

function countSqlite(path: string): StoreCount {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    const reservations = Number((db.prepare('select count(*) as n from reservations').get() as { n: number }).n);
    const outbox = Object.fromEntries(
      (db.prepare('select status, count(*) as n from outbox group by status').all() as { status: string; n: number }[]).map((r) => [
        r.status,
        Number(r.n),
      ]),
    );
    return { reservations, outbox };
  } finally {
    db.close();
  }
}

async function countPostgres(client: pg.Client): Promise<StoreCount> {
  const reservations = Number((await client.query('select count(*) as n from reservations')).rows[0].n);
  const outbox = Object.fromEntries(
    (await client.query('select status, count(*) as n from outbox group by status')).rows.map((r) => [r.status, Number(r.n)]),
  );
  return { reservations, outbox };
}

/** Waits until the outbox holds nothing pending; returns how long that took. */
async function drain(receiver: CountingReceiver, count: () => StoreCount | Promise<StoreCount>): Promise<number> {
  const started = Date.now();
  for (;;) {
    const { outbox } = await count();
    if (!outbox.pending) return Date.now() - started;
    if (Date.now() - started > 120_000)
      throw new Error(`outbox not drained after 120 s: ${JSON.stringify(outbox)}, receiver has ${receiver.emails.size}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Nothing lost: every 200 is a row, and every row produced exactly one email and one chat message.
 * Rows may exceed the 200s by the requests still in flight when a run stopped (at most one per
 * connection per run): the server stored them, autocannon stopped listening.
 */
function lossReport(answered: number, runs: number, stored: StoreCount, receiver: CountingReceiver): { ok: boolean; text: string } {
  const sent = stored.outbox.sent ?? 0;
  const cutOff = stored.reservations - answered;
  const ok =
    cutOff >= 0 &&
    cutOff <= CONNECTIONS * runs &&
    sent === 2 * stored.reservations &&
    receiver.emails.size === stored.reservations &&
    receiver.duplicateEmails === 0 &&
    receiver.chats === stored.reservations;
  return {
    ok,
    text: `${answered} answered 200 + ${cutOff} cut off by the end of ${runs} runs = ${stored.reservations} rows; ${sent} messages sent; ${receiver.emails.size} distinct emails (+${receiver.duplicateEmails} repeats) and ${receiver.chats} chat messages received`,
  };
}
