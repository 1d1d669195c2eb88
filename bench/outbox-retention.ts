import { sql } from 'kysely';
import { parseDatabaseUrl } from '../src/config.ts';
import { openDatabase, type Database } from '../src/db/database.ts';
import { createLogger } from '../src/log.ts';
import { storedMessage } from '../test/helpers/outbox.ts';
import { onBothStores } from './lib/both-stores.ts';
import { percentile, printTable, verdict } from './lib/report.ts';
import { startTenpo } from './lib/tenpo-process.ts';

// The outbox retention purge must not stall requests: 100,000 messages past their retention
// are deleted by the real service, as its own process, while clients take reservations (each one
// writes the outbox too), on SQLite and PostgreSQL. The same store is served twice: once with a
// retention longer than the messages' age (nothing to delete), once with 30 days, whose purge starts
// with the service; each reservation's latency is taken while old messages remain.

const OLD_MESSAGES = Number(process.env.BENCH_OLD_MESSAGES ?? 100_000);
const CLIENTS = 8;
const BASELINE_MS = 8_000;
const WARM_UP = 3;
const PORTS = { sqlite: 18851, postgres: 18852 };

export async function run(): Promise<string[]> {
  const rows: Record<string, string | number>[] = [];
  const verdicts: string[] = [];
  await onBothStores('retention', async (dialect, databaseUrl) => {
    const observer = await openDatabase(parseDatabaseUrl(databaseUrl), createLogger('silent'));
    try {
      await seedOldMessages(observer);
      const serve = async (retentionDays: number, until: (readyAt: number) => Promise<boolean>) => {
        const tenpo = await startTenpo(
          { DATABASE_URL: databaseUrl, RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'warn', OUTBOX_RETENTION_DAYS: String(retentionDays) },
          { port: PORTS[dialect] },
        );
        const readyAt = performance.now();
        try {
          return await reserveUntil(tenpo.url, () => until(readyAt));
        } finally {
          await tenpo.stop();
        }
      };
      const without = await serve(3650, async (readyAt) => performance.now() > readyAt + BASELINE_MS);
      const purgeStarted = performance.now();
      const during = await serve(30, async () => !(await oldMessagesLeft(observer)));
      const purgeMs = performance.now() - purgeStarted;
      for (const [phase, latencies] of [
        ['no purge', without],
        ['during the purge', during],
      ] as const) {
        rows.push({
          store: dialect,
          phase,
          reservations: latencies.length,
          'p50 ms': percentile(latencies, 0.5),
          'p99 ms': percentile(latencies, 0.99),
          'max ms': percentile(latencies, 1),
        });
      }
      rows.push({
        store: dialect,
        phase: `purge: ${OLD_MESSAGES.toLocaleString('en-US')} rows`,
        reservations: '',
        'p50 ms': '',
        'p99 ms': '',
        'max ms': `${(purgeMs / 1000).toFixed(1)} s incl. start`,
      });
      const ratio = percentile(during, 0.99) / percentile(without, 0.99);
      verdicts.push(
        verdict(
          `${dialect}: reservation p99 during the purge of ${OLD_MESSAGES.toLocaleString('en-US')} old messages against without`,
          during.length >= 20 && ratio < 3,
          `×${ratio.toFixed(2)} (${percentile(during, 0.99)} ms against ${percentile(without, 0.99)} ms; ${during.length} reservations during the purge)`,
          '< ×3, over at least 20 reservations',
        ),
      );
    } finally {
      await observer.close();
    }
  });
  printTable(`Reservations from ${CLIENTS} clients at once, with and without the outbox retention purge`, rows);
  return verdicts;
}

/** Sent, skipped and dead messages 40 days old (past the 30-day retention), 1,000 an insert. */
async function seedOldMessages(database: Database): Promise<void> {
  const old = new Date(Date.now() - 40 * 86_400_000).toISOString();
  const statuses = ['sent', 'sent', 'sent', 'skipped', 'dead'];
  for (let start = 0; start < OLD_MESSAGES; start += 1_000) {
    const batch = Array.from({ length: Math.min(1_000, OLD_MESSAGES - start) }, (_, i) => {
      const status = statuses[(start + i) % statuses.length]!;
      return storedMessage(`old-${start + i}`, status, {
        createdAt: old,
        sentAt: status === 'dead' ? undefined : old,
        diedAt: status === 'dead' ? old : undefined,
      });
    });
    await database.db.insertInto('outbox').values(batch).execute();
  }
  if (database.dialect === 'postgres') await sql`vacuum analyze outbox`.execute(database.db);
}

/** Whether any seeded message is still there; dead ones go last, and only the seed has any. */
async function oldMessagesLeft(database: Database): Promise<boolean> {
  const found = await database.db.selectFrom('outbox').select('id').where('status', '=', sql.lit('dead')).limit(1).executeTakeFirst();
  return found !== undefined;
}

/**
 * Reservations from CLIENTS clients, one after another each, until `done` says so (checked every
 * 100 ms); every latency in ms but those of each client's first WARM_UP, which pay for a fresh
 * process's compiling.
 */
async function reserveUntil(url: string, done: () => Promise<boolean>): Promise<number[]> {
  const latencies: number[] = [];
  let stop = false;
  let sequence = 0;
  const client = async () => {
    for (let own = 0; !stop; own++) {
      const n = sequence++;
      const started = performance.now();
      const response = await fetch(`${url}/api/reservation`, {
        method: 'POST',
        body: JSON.stringify({ name: `bench ${n}`, email: `bench-${n}@example.com`, productSlug: 'kumo-vco-2' }),
      });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`reservation answered ${response.status}`);
      if (own >= WARM_UP) latencies.push(performance.now() - started);
    }
  };
  const clients = Array.from({ length: CLIENTS }, client);
  while (!(await done())) await new Promise((resolve) => setTimeout(resolve, 100));
  stop = true;
  await Promise.all(clients);
  return latencies;
}
