import { sql, type Kysely } from 'kysely';
import type { EmailEventRow, EmailSuppressionRow, Tables } from '../../db/schema.ts';

// The SQL of the two tables reputation owns: the events said of sent emails, and the suppressed
// addresses. A suppression stays once lifted (with who, when and why), and a new bounce puts it back.

export type EmailEventKind = 'delivered' | 'delayed' | 'soft_bounce' | 'hard_bounce' | 'complaint';
export type SuppressionReason = 'hard_bounce' | 'complaint' | 'soft_bounces';

const COMPLAINT = sql.lit('complaint');

/**
 * Records an event; for a signed one already recorded (its `webhook_id`), records nothing and
 * returns the timestamp it was first recorded with.
 */
export async function insertEvent(
  db: Kysely<Tables>,
  event: EmailEventRow,
): Promise<{ recorded: true } | { recorded: false; firstTimestamp: string | null }> {
  const inserted = await db
    .insertInto('email_events')
    .values(event)
    .onConflict((conflict) => conflict.column('webhook_id').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (inserted) return { recorded: true };
  const first = await db
    .selectFrom('email_events')
    .select('webhook_timestamp')
    .where('webhook_id', '=', event.webhook_id)
    .executeTakeFirstOrThrow();
  return { recorded: false, firstTimestamp: first.webhook_timestamp };
}

/** Events of this kind for the address at or after `since`. */
export async function countEventsSince(db: Kysely<Tables>, address: string, kind: EmailEventKind, since: string): Promise<number> {
  const row = await db
    .selectFrom('email_events')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('address', '=', address)
    .where('kind', '=', kind)
    .where('occurred_at', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Suppresses the address (again, if it was lifted), unless it already is for a complaint, which nothing replaces. */
export async function suppress(db: Kysely<Tables>, address: string, reason: SuppressionReason, at: string): Promise<void> {
  const fresh = { reason, since: at, retried_at: null, lifted_at: null, lifted_by: null, lift_reason: null };
  await db
    .insertInto('email_suppressions')
    .values({ address, ...fresh })
    .onConflict((conflict) => conflict.column('address').doUpdateSet(fresh).where('email_suppressions.reason', '<>', COMPLAINT))
    .execute();
}

/** The suppressions among these keys, lifted or not. */
export async function suppressionsOf(db: Kysely<Tables>, keys: string[]): Promise<EmailSuppressionRow[]> {
  if (keys.length === 0) return [];
  return db.selectFrom('email_suppressions').selectAll().where('address', 'in', keys).execute();
}

/** Marks the once-after-30-days exception as used for these suppressions. */
export async function markRetried(db: Kysely<Tables>, keys: string[], at: string): Promise<void> {
  if (keys.length === 0) return;
  await db.updateTable('email_suppressions').set({ retried_at: at }).where('address', 'in', keys).execute();
}

/** Lifts a suppression in force; false when there is none under the key. */
export async function liftSuppression(
  db: Kysely<Tables>,
  address: string,
  lift: { at: string; by: string | null; reason: string },
): Promise<boolean> {
  const result = await db
    .updateTable('email_suppressions')
    .set({ lifted_at: lift.at, lifted_by: lift.by, lift_reason: lift.reason })
    .where('address', '=', address)
    .where('lifted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** A page of the suppressions in force, newest first, and how many there are. */
export async function listSuppressions(
  db: Kysely<Tables>,
  reason: SuppressionReason | undefined,
  window: { offset: number; limit: number } | undefined,
): Promise<{ rows: EmailSuppressionRow[]; total: number }> {
  let query = db.selectFrom('email_suppressions').where('lifted_at', 'is', null);
  if (reason) query = query.where('reason', '=', reason);
  const [rows, count] = await Promise.all([
    window ? query.selectAll().orderBy('since', 'desc').orderBy('address').offset(window.offset).limit(window.limit).execute() : [],
    query.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** Moves suppressions from one key to another (a customer's address to its erased key); how many moved. */
export async function rekeySuppression(db: Kysely<Tables>, from: string, to: string): Promise<number> {
  const existing = await db.selectFrom('email_suppressions').select('address').where('address', '=', to).executeTakeFirst();
  // Already kept under the erased key (an address erased twice): the one under the address goes.
  if (existing) return Number((await db.deleteFrom('email_suppressions').where('address', '=', from).executeTakeFirst()).numDeletedRows);
  const result = await db.updateTable('email_suppressions').set({ address: to }).where('address', '=', from).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Deletes up to `limit` events that happened before `before` (kept as long as the emails they are about); how many. */
export async function deleteExpiredEvents(db: Kysely<Tables>, before: string, limit: number): Promise<number> {
  const result = await db
    .deleteFrom('email_events')
    .where('id', 'in', (eb) => eb.selectFrom('email_events').select('id').where('occurred_at', '<', before).limit(limit))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Deletes the events of an address (a customer erased); how many. */
export async function deleteEventsOfAddress(db: Kysely<Tables>, address: string): Promise<number> {
  return Number((await db.deleteFrom('email_events').where('address', '=', address).executeTakeFirst()).numDeletedRows);
}

/** Events of each kind since `since`. */
export async function eventCountsSince(db: Kysely<Tables>, since: string): Promise<Map<EmailEventKind, number>> {
  const rows = await db
    .selectFrom('email_events')
    .select(['kind', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('occurred_at', '>=', since)
    .groupBy('kind')
    .execute();
  return new Map(rows.map((row) => [row.kind as EmailEventKind, Number(row.n)]));
}

/** Complaints since `since` about emails of this template kind (matched through the outbox's payload). */
export async function countComplaintsAbout(db: Kysely<Tables>, since: string, template: string): Promise<number> {
  const row = await db
    .selectFrom('email_events as e')
    .innerJoin('outbox as o', 'o.id', 'e.outbox_id')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('e.kind', '=', COMPLAINT)
    .where('e.occurred_at', '>=', since)
    .where('o.payload', 'like', `%"template":"${template}"%`)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
