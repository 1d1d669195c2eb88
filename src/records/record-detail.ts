import type { Database } from '../db/database.ts';
import { historyEntries, type HistoryEntry } from './history.ts';
import { historyOf } from './history-store.ts';
import type { RecordKind, RecordTable } from './record-kind.ts';
import { findRecord } from './store.ts';

/**
 * One record of a kind, archived or not, with its history oldest first (the console's page of a
 * record); undefined when there is none. The record is read first: a change committed in between
 * can only add a last entry the record does not show yet, never leave one out.
 */
export async function recordWithHistory<T extends RecordTable>(
  database: Database,
  kind: RecordKind<T>,
  id: string,
): Promise<{ item: Record<string, unknown>; history: HistoryEntry[] } | undefined> {
  const row = await findRecord(database.db, kind.table, id);
  if (!row) return undefined;
  return { item: kind.detailItem(row), history: historyEntries(await historyOf(database.db, id)) };
}
