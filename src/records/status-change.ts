import type { Database } from '../db/database.ts';
import { isUniqueViolation } from '../db/unique-violation.ts';
import { recordStatusChange } from './history.ts';
import type { RecordKind, RecordTable, StatusChangeRequest, StatusChangeResult } from './record-kind.ts';
import { allowsMove } from './status-transitions.ts';
import { findRecordForUpdate } from './store.ts';

/**
 * An administrator's status change of a record of any kind (SPEC §4): the record must exist with
 * that product and be active, and the move must be in the kind's table (or stay on the same
 * status); the kind then writes the move its own way. With `expectedUpdatedAt` the record must
 * not have changed since (SPEC §11). What changed is written to the record's history in the same
 * transaction (history.ts). The row is locked while it is checked, so two concurrent
 * changes cannot both pass a check the other invalidates, two requests naming the same
 * `expectedUpdatedAt` included.
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
      if (change.expectedUpdatedAt !== undefined && Date.parse(change.expectedUpdatedAt) !== Date.parse(current.updated_at))
        return { outcome: 'changed' };
      if (current.archived_at !== null) return { outcome: 'archived' };
      if (!allowsMove(kind.statusTable, current.status, change.status))
        return { outcome: 'invalid-transition', from: current.status, to: change.status };
      const result = await kind.applyStatusChange(trx, current, change, changeTime(current.updated_at, now));
      if (result.outcome === 'updated') {
        await recordStatusChange(trx, current, result.record, {
          actor: change.byCustomer ? 'customer' : 'staff',
          customerEmailed: result.customerEmailed,
        });
      }
      return result;
    });
  } catch (error) {
    // Another request took the record's unique key between the kind's check and its write (a signup).
    if (kind.uniqueWhileActive && isUniqueViolation(error)) return { outcome: 'conflict', ...kind.uniqueWhileActive.conflict };
    throw error;
  }
}

/**
 * The time a change is recorded at: now, or a millisecond after the record's last change when the
 * clock has not moved past it (two changes in one millisecond, a clock stepped back), so that every
 * change gives the record a new `updatedAt` and a screen that saw the old one is always stale.
 */
export function changeTime(lastChange: string, now: Date): Date {
  const last = Date.parse(lastChange);
  return now.getTime() > last ? now : new Date(last + 1);
}
