import { sql, type Kysely, type Selectable } from 'kysely';
import { atAddress } from '../db/address.ts';
import type { OutboxRow, Tables } from '../db/schema.ts';
import { loggedMessage, type LoggedMessage } from './logged-message.ts';
import { chunks } from './outbox/store.ts';
import { erasedKey } from './reputation/address-key.ts';
import { deleteEventsOfAddress, rekeySuppression, suppressionsOf } from './reputation/store.ts';
import { suppressionOf } from './reputation/suppression-list.ts';

export { HeldSuppressionSchema } from './reputation/schemas.ts';

// The messages about given records, and the emails to an address: what a customer's personal-data
// export shows of them, and their erasure with the records (they quote names and addresses).

const EMAIL = sql.lit('email');

/**
 * Every message about these records and, given a canonical address, every email to an address of
 * that form (one whose record is gone, or from before messages named their record), newest first.
 * The channel is a literal so the planner can match the partial index `outbox_customer`.
 */
export async function messagesAbout(db: Kysely<Tables>, recordIds: string[], addressKey?: string): Promise<LoggedMessage[]> {
  const found = new Map<string, Selectable<OutboxRow>>();
  const queries = chunks(recordIds).map((ids) => db.selectFrom('outbox').selectAll().where('record_id', 'in', ids));
  if (addressKey !== undefined)
    queries.push(db.selectFrom('outbox').selectAll().where('channel', '=', EMAIL).where(atAddress('destination', addressKey)));
  for (const query of queries) for (const row of await query.execute()) found.set(row.id, row);
  return [...found.values()].sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id)).map(loggedMessage);
}

/**
 * Erases what messagesAbout finds, delivered or not, inside the caller's transaction that erases
 * the records; how many. A message a dispatcher has claimed is not sent once erased (the dispatcher
 * asks where it stands before every attempt: outbox/standing.ts).
 */
export async function eraseMessagesAbout(db: Kysely<Tables>, recordIds: string[], addressKey?: string): Promise<number> {
  const statements = chunks(recordIds).map((ids) => db.deleteFrom('outbox').where('record_id', 'in', ids));
  if (addressKey !== undefined)
    statements.push(db.deleteFrom('outbox').where('channel', '=', EMAIL).where(atAddress('destination', addressKey)));
  let deleted = 0;
  for (const statement of statements) deleted += Number((await statement.executeTakeFirst()).numDeletedRows);
  return deleted;
}

/** The address's suppression, lifted or not, under its canonical address or (erased before) its keyed hash. */
export async function suppressionsAbout(db: Kysely<Tables>, secret: string, addressKey: string) {
  const rows = await suppressionsOf(db, [addressKey, erasedKey(secret, addressKey)]);
  return rows.map((row) => ({ ...suppressionOf(row), liftedAt: row.lifted_at, liftReason: row.lift_reason }));
}

/**
 * Erases what the provider said of the address's emails, and keeps its suppression only as a keyed
 * hash of the address, so the shop still does not mail an erased complainer; how many suppressions
 * were kept so.
 */
export async function eraseReputationOf(db: Kysely<Tables>, secret: string, addressKey: string): Promise<number> {
  await deleteEventsOfAddress(db, addressKey);
  return rekeySuppression(db, addressKey, erasedKey(secret, addressKey));
}
