import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPostgres } from '../test/helpers/postgres.ts';
import { deliveringTo, startCountingReceiver } from './lib/counting-receiver.ts';
import { load, type LoadRequest, type LoadResult } from './lib/load.ts';
import { printTable, verdict } from './lib/report.ts';
import { startTenpo, type TenpoProcess } from './lib/tenpo-process.ts';

// A sold-out rush: 50 connections send 20,000 reservations for one campaign of 500 seats,
// from 2,000 addresses; exactly 500 must be taken, the rest answered 409. Beside it, the same
// 20,000 reservations for a product without a campaign. Rounds alternate between the two (the
// machine is shared), each rush on a new campaign; the medians are compared.

const ROUNDS = 3;
const AMOUNT = 20_000;
const CAPACITY = 500;
const CONNECTIONS = 50;
const PORTS = { sqlite: 18821, postgres: 18822, receiver: 18823 };
const RUSHED = 'kumo-vco-2';
const PLAIN = 'hayate-wavefolder';
const ADMIN = { authorization: 'Bearer bench-admin-token', 'content-type': 'application/json' };

const requestsFor = (productSlug: string): LoadRequest[] =>
  Array.from({ length: 2_000 }, (_, i) => ({
    method: 'POST',
    path: '/api/reservation',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: `先着 太郎 ${i}`, email: `fan${i}@example.com`, productSlug }),
  }));

export async function rush(): Promise<string[]> {
  const receiver = await startCountingReceiver(PORTS.receiver);
  const dir = mkdtempSync(join(tmpdir(), 'tenpo-bench-rush-'));
  const rows: Record<string, string | number>[] = [];
  const verdicts: string[] = [];
  try {
    const sqlite = await startTenpo(tenpoEnv(`sqlite:${join(dir, 'tenpo.db')}`, receiver.url), { port: PORTS.sqlite });
    verdicts.push(...(await measure('SQLite', sqlite, rows)));
    await sqlite.stop();
    const cluster = await startPostgres({ durable: true });
    try {
      const postgres = await startTenpo(tenpoEnv(cluster.url, receiver.url), { port: PORTS.postgres });
      verdicts.push(...(await measure('PostgreSQL', postgres, rows)));
      await postgres.stop();
    } finally {
      cluster.stop();
    }
  } finally {
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  }
  printTable(
    `POST /api/reservation, ${CONNECTIONS} connections, ${AMOUNT.toLocaleString('en')} requests a round, ${ROUNDS} alternating rounds (median round)`,
    rows,
  );
  return verdicts;
}

async function measure(database: string, tenpo: TenpoProcess, rows: Record<string, string | number>[]): Promise<string[]> {
  await load({ url: tenpo.url, requests: requestsFor(PLAIN), amount: 2_000, connections: CONNECTIONS });
  const plain: LoadResult[] = [];
  const rushes: LoadResult[] = [];
  /** Per rush: the campaign's count, its stored reservations, the 200s answered and the requests that got no answer. */
  const taken: { counted: number; stored: number; ok: number; unanswered: number }[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    await admin(tenpo, '/api/admin/preorders/delete', { productSlug: RUSHED }).catch(() => undefined);
    await admin(tenpo, '/api/admin/preorders/upsert', { productSlug: RUSHED, capacity: CAPACITY });
    rushes.push(await load({ url: tenpo.url, requests: requestsFor(RUSHED), amount: AMOUNT, connections: CONNECTIONS }));
    const [campaign] = ((await admin(tenpo, '/api/admin/preorders/list', {})) as { preorders: { id: string; reserved: number }[] })
      .preorders;
    const listed = (
      (await admin(tenpo, '/api/admin-reservations-list', { productSlug: RUSHED })) as { reservations: { preorderId: string | null }[] }
    ).reservations;
    const { ok, errors } = rushes.at(-1)!;
    taken.push({ counted: campaign!.reserved, stored: listed.filter((r) => r.preorderId === campaign!.id).length, ok, unanswered: errors });
    plain.push(await load({ url: tenpo.url, requests: requestsFor(PLAIN), amount: AMOUNT, connections: CONNECTIONS }));
  }
  const rushMedian = median(rushes);
  const plainMedian = median(plain);
  const ratio = rushMedian.requestsPerSecond / plainMedian.requestsPerSecond;
  rows.push(
    row(`${database}: campaign of ${CAPACITY} (sold out)`, rushMedian, rushes.map((r) => r.ok).join(' / ')),
    row(`${database}: product without a campaign`, plainMedian, plain.map((r) => r.ok).join(' / ')),
  );
  return [
    // A request the client gave up on (autocannon's 10 s timeout, on a loaded machine) may still have
    // taken a seat: the store is the proof, and the 200s can never exceed it.
    verdict(
      `${database}: seats taken per rush (counted / stored / answered 200 + unanswered)`,
      taken.every((t) => t.counted === CAPACITY && t.stored === CAPACITY && t.ok <= CAPACITY && t.ok + t.unanswered >= CAPACITY),
      taken.map((t) => `${t.counted} / ${t.stored} / ${t.ok} + ${t.unanswered}`).join(', '),
      `${CAPACITY} / ${CAPACITY} / ≤ ${CAPACITY} each round`,
    ),
    verdict(
      `${database}: campaign path / plain path throughput (medians)`,
      ratio >= 0.7,
      `${ratio.toFixed(2)} (${Math.round(rushMedian.requestsPerSecond)} vs ${Math.round(plainMedian.requestsPerSecond)} req/s; p99 ${rushMedian.p99Ms} vs ${plainMedian.p99Ms} ms)`,
      '≥ 0.70',
    ),
  ];
}

function row(path: string, result: LoadResult, answered: string): Record<string, string | number> {
  return {
    path,
    'req/s': Math.round(result.requestsPerSecond),
    'p50 ms': result.p50Ms,
    'p99 ms': result.p99Ms,
    errors: result.errors,
    '200s per round': answered,
  };
}

/** The round with the median throughput. */
function median(results: LoadResult[]): LoadResult {
  return [...results].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond)[Math.floor(results.length / 2)]!;
}

async function admin(tenpo: TenpoProcess, path: string, body: unknown): Promise<unknown> {
  const response = await fetch(tenpo.url + path, { method: 'POST', headers: ADMIN, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

/** A tenpo for the reservation benches: no rate limit, quiet logs, its messages to the counting receiver. */
export function tenpoEnv(databaseUrl: string, receiverUrl: string): Record<string, string> & { DATABASE_URL: string } {
  return {
    DATABASE_URL: databaseUrl,
    RATE_LIMIT_PER_MINUTE: '0',
    LOG_LEVEL: 'warn',
    ...deliveringTo(receiverUrl, ['reservation']),
  };
}
