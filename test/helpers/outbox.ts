import type { Kysely } from 'kysely';
import type { Tables } from '../../src/db/schema.ts';

/** How many outbox messages are in each state (absent states count 0). */
export async function outboxStatusCounts(db: Kysely<Tables>): Promise<{ pending: number; sent: number; skipped: number; dead: number }> {
  const rows = await db.selectFrom('outbox').select(['status', (eb) => eb.fn.countAll<number>().as('count')]).groupBy('status').execute();
  const counts = { pending: 0, sent: 0, skipped: 0, dead: 0 };
  for (const row of rows) counts[row.status as keyof typeof counts] = Number(row.count);
  return counts;
}
