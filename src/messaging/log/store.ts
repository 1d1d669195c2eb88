import { sql, type Kysely } from 'kysely';
import type { Tables } from '../../db/schema.ts';
import type { LoggedRow, MessageChannel, MessageStatus } from '../logged-message.ts';

// The message log's SQL: the outbox as staff read it, and dead messages put back in the queue or settled as superseded.

export interface MessageFilter {
  recordId?: string;
  status?: MessageStatus;
  channel?: MessageChannel;
}

function matching(db: Kysely<Tables>, filter: MessageFilter) {
  let query = db.selectFrom('outbox');
  if (filter.recordId) query = query.where('record_id', '=', filter.recordId);
  // A literal, not bound, so the planner can choose the status's partial index (migrations 008, 014); it is one of five known words.
  if (filter.status) query = query.where('status', '=', sql.lit(filter.status));
  if (filter.channel) query = query.where('channel', '=', filter.channel);
  return query;
}

/** The count of a filter's messages and one page of them newest first (ties: id descending); built apart so tests can read their plans. */
export function messageLogQueries(db: Kysely<Tables>, filter: MessageFilter, page: { limit: number; offset: number }) {
  return {
    count: matching(db, filter).select((eb) => eb.fn.countAll<number>().as('total')),
    page: matching(db, filter)
      .select(['id', 'record_id', 'channel', 'destination', 'payload', 'status', 'attempts', 'last_error', 'created_at', 'sent_at'])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.limit)
      .offset(page.offset),
  };
}

/** How many messages match, and one page of them newest first; no page for a page past any the store can hold. */
export async function listMessageRows(
  db: Kysely<Tables>,
  filter: MessageFilter,
  page: { limit: number; offset: number } | undefined,
): Promise<{ rows: LoggedRow[]; total: number }> {
  const queries = messageLogQueries(db, filter, page ?? { limit: 0, offset: 0 });
  const total = Number((await queries.count.executeTakeFirstOrThrow()).total);
  if (!page || total === 0) return { rows: [], total };
  return { rows: await queries.page.execute(), total };
}

/**
 * Puts the dead messages among `ids` back in the queue, due at `now`, with their attempts reset and
 * the last failure forgotten. One statement: a message another request retried meanwhile is no
 * longer dead and is not returned. Returns those requeued, with the record each is about.
 */
export async function requeueDead(db: Kysely<Tables>, ids: string[], now: string): Promise<{ id: string; recordId: string | null }[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .updateTable('outbox')
    .set({ status: 'pending', attempts: 0, next_attempt_at: now, locked_until: null, last_error: null, died_at: null })
    .where('id', 'in', ids)
    .where('status', '=', sql.lit('dead'))
    .returning(['id', 'record_id'])
    .execute();
  return rows.map((row) => ({ id: row.id, recordId: row.record_id }));
}

/**
 * Settles the dead messages among `ids` as superseded at `now` (no longer true: outbox/standing.ts),
 * so they are not retried. One statement; a message another request retried meanwhile is pending
 * and left to the dispatcher, which asks the same question before it sends.
 */
export async function markDeadSuperseded(db: Kysely<Tables>, ids: string[], now: string): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('outbox')
    .set({ status: 'superseded', died_at: now })
    .where('id', 'in', ids)
    .where('status', '=', sql.lit('dead'))
    .execute();
}
