import type { Kysely } from 'kysely';
import type { Tables } from '../../src/db/schema.ts';

/** How many outbox messages are in each state (absent states count 0). */
export async function outboxStatusCounts(
  db: Kysely<Tables>,
): Promise<{ pending: number; sent: number; skipped: number; dead: number; superseded: number }> {
  const rows = await db
    .selectFrom('outbox')
    .select(['status', (eb) => eb.fn.countAll<number>().as('count')])
    .groupBy('status')
    .execute();
  const counts = { pending: 0, sent: 0, skipped: 0, dead: 0, superseded: 0 };
  for (const row of rows) counts[row.status as keyof typeof counts] = Number(row.count);
  return counts;
}

/** An outbox row as the store holds it, for tests that set a message's times themselves (ISO strings). */
export function storedMessage(
  id: string,
  status: string,
  times: { createdAt: string; sentAt?: string; diedAt?: string },
  channel: 'email' | 'chat' = 'email',
) {
  return {
    id,
    channel,
    destination: channel === 'email' ? `${id}@example.com` : 'reservation',
    payload: channel === 'email' ? '{"template":"reservation-received","facts":{}}' : '{}',
    idempotency_key: id,
    status,
    next_attempt_at: times.createdAt,
    created_at: times.createdAt,
    sent_at: times.sentAt ?? null,
    died_at: times.diedAt ?? null,
  };
}

/** The facts (names, links) of the email queued about record `recordId`; undefined while none is. */
export async function emailFacts(db: Kysely<Tables>, recordId: string): Promise<Record<string, string> | undefined> {
  const row = await db
    .selectFrom('outbox')
    .select('payload')
    .where('record_id', '=', recordId)
    .where('channel', '=', 'email')
    .executeTakeFirst();
  return row && (JSON.parse(row.payload) as { facts: Record<string, string> }).facts;
}
