import { onBothStores } from './lib/both-stores.ts';
import { deliveringTo, startCountingReceiver } from './lib/counting-receiver.ts';
import { printTable, verdict } from './lib/report.ts';
import { startTenpo } from './lib/tenpo-process.ts';

// What a status move's customer email costs: the same reservations moved pending → confirmed with
// `notifyCustomer: true` (the template read and the email queued in the move's transaction; then
// delivered in the background, rendered with the shop's details and checked against the reservation
// right before it goes) and with `notifyCustomer: false`, interleaved round by round so both see
// the same machine, on the real service as its own process, on SQLite and PostgreSQL. Each move back
// to pending sends nothing in both and is not timed.

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);
const PORTS = { sqlite: 18841, postgres: 18842, receiver: 18843 };
const TOKEN = 'bench-admin-token';

export async function run(): Promise<string[]> {
  const receiver = await startCountingReceiver(PORTS.receiver);
  const rows: Record<string, string | number>[] = [];
  const verdicts: string[] = [];
  try {
    await onBothStores('status', async (dialect, databaseUrl) => {
      const tenpo = await startTenpo(
        {
          DATABASE_URL: databaseUrl,
          RATE_LIMIT_PER_MINUTE: '0',
          LOG_LEVEL: 'warn',
          PREORDER_API_TOKEN: TOKEN,
          ...deliveringTo(receiver.url),
        },
        { port: PORTS[dialect] },
      );
      try {
        const post = async (path: string, body: unknown) => {
          const response = await fetch(tenpo.url + path, {
            method: 'POST',
            headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
            body: JSON.stringify(body),
          });
          if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
          return (await response.json()) as { reservationId?: string };
        };
        const ids = [];
        for (let i = 0; i < 2; i++)
          ids.push(
            (await post('/api/reservation', { name: `bench ${i}`, email: `b${i}@example.com`, productSlug: 'kumo-vco-2' })).reservationId!,
          );
        const timed = { true: [] as number[], false: [] as number[] };
        for (let round = 0; round < ROUNDS; round++) {
          for (const notify of round % 2 ? [true, false] : [false, true]) {
            const id = ids[notify ? 0 : 1]!;
            const start = performance.now();
            await post('/api/admin-reservations-status', { id, productSlug: 'kumo-vco-2', status: 'confirmed', notifyCustomer: notify });
            timed[`${notify}`].push(performance.now() - start);
            await post('/api/admin-reservations-status', { id, productSlug: 'kumo-vco-2', status: 'pending' });
          }
        }
        const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
        const p90 = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length * 0.9)]!;
        const withEmail = median(timed.true);
        const without = median(timed.false);
        rows.push(
          {
            store: dialect,
            move: 'with its email',
            moves: ROUNDS,
            'median ms': Number(withEmail.toFixed(2)),
            'p90 ms': Number(p90(timed.true).toFixed(2)),
          },
          {
            store: dialect,
            move: 'notifyCustomer: false',
            moves: ROUNDS,
            'median ms': Number(without.toFixed(2)),
            'p90 ms': Number(p90(timed.false).toFixed(2)),
          },
        );
        const ratio = withEmail / without;
        verdicts.push(
          verdict(
            `${dialect}: a status move with its email against one without`,
            ratio < 1.3,
            `×${ratio.toFixed(2)} (${withEmail.toFixed(2)} ms against ${without.toFixed(2)} ms, median of ${ROUNDS})`,
            '< ×1.3',
          ),
        );
      } finally {
        await tenpo.stop();
      }
    });
  } finally {
    await receiver.close();
  }
  printTable('Status moves (each over HTTP, one at a time)', rows);
  return verdicts;
}
