import { onBothStores } from './lib/both-stores.ts';
import { load, type LoadRequest, type LoadResult } from './lib/load.ts';
import { cpuMilliseconds } from './lib/process-cpu.ts';
import { printTable, verdict } from './lib/report.ts';
import { startTenpo } from './lib/tenpo-process.ts';

// What an Idempotency-Key costs a reservation: POST /api/reservation under 50
// connections without a key, with a new key each (the key claimed and its answer kept in the
// reservation's transaction) and with those keys again (replays: answered from the key, nothing
// written), in rounds that alternate the order, on the real service as its own process, on SQLite
// and PostgreSQL. The measure is the service's CPU per request (what a shared machine's noise
// moves least); requests per second and latency are printed beside it. Afterwards the store must
// hold exactly one reservation per request without a key and per new key: replays wrote nothing.

const PER_PHASE = Number(process.env.BENCH_REQUESTS ?? 2000);
const ROUNDS = 3;
const PORTS = { sqlite: 18871, postgres: 18872 };
const TOKEN = 'bench-admin-token';
const PRODUCTS = ['kumo-vco-2', 'hayate-wavefolder', 'tsuki-dual-lfo'];

type Phase = 'without a key' | 'with a new key' | 'replayed key';

const body = (i: number) =>
  JSON.stringify({ name: ` 予約 太郎 ${i % 24} `, email: `Buyer${i % 24}@Example.com`, productSlug: PRODUCTS[i % PRODUCTS.length] });
const requestsOf = (key: (i: number) => string | undefined): LoadRequest[] =>
  Array.from({ length: PER_PHASE }, (_, i) => {
    const k = key(i);
    return {
      method: 'POST',
      path: '/api/reservation',
      headers: { 'content-type': 'application/json', ...(k ? { 'idempotency-key': k } : {}) },
      body: body(i),
    };
  });

export async function run(): Promise<string[]> {
  const rows: Record<string, string | number>[] = [];
  const verdicts: string[] = [];
  await onBothStores('idem', async (dialect, databaseUrl) => {
    const tenpo = await startTenpo(
      { DATABASE_URL: databaseUrl, RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'warn', PREORDER_API_TOKEN: TOKEN },
      { port: PORTS[dialect] },
    );
    try {
      const pid = tenpo.child.pid!;
      const measure = async (requests: LoadRequest[]) => {
        const cpuBefore = cpuMilliseconds(pid);
        const result = await load({ url: tenpo.url, requests, amount: PER_PHASE, shared: true });
        return { result, cpuPerRequest: (cpuMilliseconds(pid) - cpuBefore) / result.total };
      };
      await load({ url: tenpo.url, requests: requestsOf(() => undefined), amount: PER_PHASE, shared: true });
      const runs: Record<Phase, { result: LoadResult; cpuPerRequest: number }[]> = {
        'without a key': [],
        'with a new key': [],
        'replayed key': [],
      };
      for (let round = 0; round < ROUNDS; round++) {
        const keyed = requestsOf((i) => `bench-${round}-${i}`);
        // A replay needs its key first, so the order alternates between two that keep it after.
        const phases: [Phase, LoadRequest[]][] = [
          ['with a new key', keyed],
          ['replayed key', keyed],
        ];
        if (round % 2 === 0) phases.unshift(['without a key', requestsOf(() => undefined)]);
        else phases.push(['without a key', requestsOf(() => undefined)]);
        for (const [phase, requests] of phases) runs[phase].push(await measure(requests));
      }
      const stats = await fetch(`${tenpo.url}/api/admin-dashboard-stats`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}` },
        body: '{}',
      });
      const stored = ((await stats.json()) as { reservations: { total: number } }).reservations.total;

      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
      const cpu = (phase: Phase) => median(runs[phase].map((r) => r.cpuPerRequest));
      for (const phase of Object.keys(runs) as Phase[]) {
        const results = runs[phase].map((r) => r.result);
        rows.push({
          store: dialect,
          request: phase,
          requests: results.reduce((n, r) => n + r.total, 0),
          'non-2xx': results.reduce((n, r) => n + r.non2xx + r.errors, 0),
          'req/s': Math.round(median(results.map((r) => r.requestsPerSecond))),
          'p50 ms': median(results.map((r) => r.p50Ms)),
          'p99 ms': median(results.map((r) => r.p99Ms)),
          'CPU ms/request': Number(cpu(phase).toFixed(3)),
        });
      }
      const ratio = cpu('with a new key') / cpu('without a key');
      const replayRatio = cpu('replayed key') / cpu('without a key');
      const expected = PER_PHASE * (1 + 2 * ROUNDS);
      const refused = Object.values(runs)
        .flat()
        .reduce((n, r) => n + r.result.non2xx + r.result.errors, 0);
      verdicts.push(
        verdict(
          `${dialect}: CPU of a reservation with a new Idempotency-Key against one without`,
          ratio < 1.5,
          `×${ratio.toFixed(2)} (${cpu('with a new key').toFixed(3)} ms against ${cpu('without a key').toFixed(3)} ms, median of ${ROUNDS} rounds of ${PER_PHASE})`,
          '< ×1.5',
        ),
        `INFO  ${dialect}: CPU of a replay against a reservation without a key: ×${replayRatio.toFixed(2)} (${cpu('replayed key').toFixed(3)} ms)`,
        verdict(
          `${dialect}: replays wrote nothing`,
          stored === expected && refused === 0,
          `${stored} reservations for ${expected} requests without a key or with a new one, ${PER_PHASE * ROUNDS} replays; ${refused} not 2xx`,
          'equal, 0',
        ),
      );
    } finally {
      await tenpo.stop();
    }
  });
  printTable(
    `POST /api/reservation, 50 connections, ${PER_PHASE} requests a phase, ${ROUNDS} rounds (medians); service CPU from /proc`,
    rows,
  );
  return verdicts;
}
