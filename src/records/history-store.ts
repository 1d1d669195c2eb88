import type { Kysely, Selectable } from 'kysely';
import type { RecordHistoryRow, Tables } from '../db/schema.ts';
import { uuidV7 } from '../db/time-ordered-id.ts';

// The record_history table's SQL (migrations 010, 015, 020): rows are added in the transaction of the change
// they describe, read per record, and deleted with the record when its personal data is erased.

export type HistoryRow = Selectable<RecordHistoryRow>;

/** A row to add; its id is made here, and only a retry names a message. */
export type NewHistoryRow = Omit<HistoryRow, 'id' | 'message_id'> & { message_id?: string };

export async function insertHistory(db: Kysely<Tables>, rows: NewHistoryRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('record_history')
    // Time-ordered ids: each insert lands at the end of the index (see uuidV7).
    .values(rows.map((row) => ({ id: uuidV7(Date.parse(row.at)), message_id: null, ...row })))
    .execute();
}

/** The staff accounts a record's history names. */
export function staffIdsOf(rows: HistoryRow[]): string[] {
  return [...new Set(rows.flatMap((row) => (row.staff_id === null ? [] : [row.staff_id])))];
}

/** The history of these records (one record's, or a customer's), oldest first. */
export async function historyOf(db: Kysely<Tables>, recordIds: string[]): Promise<HistoryRow[]> {
  if (recordIds.length === 0) return [];
  return db.selectFrom('record_history').selectAll().where('record_id', 'in', recordIds).orderBy('at').orderBy('id').execute();
}

/** Who made each record's latest move to `status`, by record id; a record whose history holds none is absent. */
export async function lastMovesToBy(db: Kysely<Tables>, recordIds: string[], status: string): Promise<Map<string, string>> {
  if (recordIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('record_history')
    .select(['record_id', 'actor'])
    .where('record_id', 'in', recordIds)
    .where('to_status', '=', status)
    .orderBy('at')
    .orderBy('id')
    .execute();
  // Oldest first: each record's last row is the one the map keeps.
  return new Map(rows.map((row) => [row.record_id, row.actor]));
}

/** Deletes the history of these records (their personal data is being erased: memos quote customers). */
export async function deleteHistoryOf(db: Kysely<Tables>, recordIds: string[]): Promise<void> {
  if (recordIds.length === 0) return;
  await db.deleteFrom('record_history').where('record_id', 'in', recordIds).execute();
}
