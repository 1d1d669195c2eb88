import type { Database } from '../db/database.ts';
import { isUniqueViolation } from '../db/unique-violation.ts';
import type { RecordKind, RecordTable, StatusChangeRequest, StatusChangeResult } from './record-kind.ts';
import { allowsMove } from './status-transitions.ts';
import { findRecordForUpdate } from './store.ts';

/**
 * An administrator's status change of a record of any kind (SPEC §4): the record must exist with
 * that product and be active, and the move must be in the kind's table (or stay on the same
 * status); the kind then writes the move its own way. The row is locked while it is checked, so
 * two concurrent changes cannot both pass a check the other invalidates.
 */
export async function changeStatus<T extends RecordTable, C extends StatusChangeRequest>(
  database: Database,
  kind: RecordKind<T, C>,
  change: C,
  now: Date = new Date(),
): Promise<StatusChangeResult<T>> {
  try {
    return await database.db.transaction().execute(async (trx): Promise<StatusChangeResult<T>> => {
      const current = await findRecordForUpdate(trx, database.dialect, kind.table, change.id);
      if (!current || current.product_slug !== change.productSlug) return { outcome: 'not-found' };
      if (current.archived_at !== null) return { outcome: 'archived' };
      if (!allowsMove(kind.statusTable, current.status, change.status)) return { outcome: 'invalid-transition', from: current.status, to: change.status };
      return kind.applyStatusChange(trx, current, change, now);
    });
  } catch (error) {
    // Another request took the record's unique key between the kind's check and its write (a signup).
    if (kind.uniqueWhileActive && isUniqueViolation(error)) return { outcome: 'conflict', error: kind.uniqueWhileActive.conflict };
    throw error;
  }
}
