import type { Database } from '../db/database.ts';
import { historyEntries, type HistoryEntry, type RecordMessage } from './history.ts';
import { historyOf, staffIdsOf } from './history-store.ts';
import { staffNames } from '../staff/store.ts';
import type { RecordRow, RecordTable } from './record-rows.ts';
import { findRecord } from './store.ts';

/**
 * One record of a kind, archived or not, with its history oldest first (the console's page of a
 * record): its changes and staff's retries of its messages, each with the name of the account that
 * made it, and its messages as they stand now (`messagesAbout`, messaging's, which the kind's route
 * passes: records sit below messaging); undefined when there is none. The record is read first: a
 * change committed in between can only add a last entry the record does not show yet.
 */
export async function recordWithHistory<T extends RecordTable>(
  database: Database,
  table: T,
  id: string,
  messagesAbout: (db: Database['db'], recordIds: string[]) => Promise<RecordMessage[]>,
): Promise<{ row: RecordRow<T>; history: HistoryEntry[] } | undefined> {
  const row = await findRecord(database.db, table, id);
  if (!row) return undefined;
  const rows = await historyOf(database.db, [id]);
  const names = await staffNames(database.db, staffIdsOf(rows));
  return { row, history: historyEntries(rows, await messagesAbout(database.db, [id]), names) };
}
