import type { Database } from '../db/database.ts';
import { isUniqueViolation } from '../db/unique-violation.ts';
import { allowsMove, type StatusChangeRefused } from '../records/status-transitions.ts';
import { SUBSCRIPTION_STATUS_TABLE, type SubscriptionStatus } from './status.ts';
import { findSubscriptionForUpdate, hasPendingTwin, updateSubscription, type Subscription } from './store.ts';

export interface StatusChange {
  id: string;
  productSlug: string;
  status: SubscriptionStatus;
}

export type StatusChangeResult =
  | { outcome: 'updated'; subscription: Subscription }
  | StatusChangeRefused
  | { outcome: 'pending-twin' };

/**
 * An administrator's status update (SPEC §4). Moving to `notified` records when; moving back to
 * `pending` clears that time, since a pending subscription is one the next send will notify. A move
 * back to `pending` is refused while another active pending subscription has the same address and
 * product (the unique index allows one). The row is locked while it is checked.
 */
export async function changeSubscriptionStatus(database: Database, change: StatusChange, now: Date = new Date()): Promise<StatusChangeResult> {
  try {
    return await database.db.transaction().execute(async (trx): Promise<StatusChangeResult> => {
      const current = await findSubscriptionForUpdate(trx, database.dialect, change.id);
      if (!current || current.product_slug !== change.productSlug) return { outcome: 'not-found' };
      if (current.archived_at !== null) return { outcome: 'archived' };
      if (!allowsMove(SUBSCRIPTION_STATUS_TABLE, current.status, change.status)) {
        return { outcome: 'invalid-transition', from: current.status, to: change.status };
      }
      if (current.status === change.status) return { outcome: 'updated', subscription: current };
      if (change.status === 'pending' && (await hasPendingTwin(trx, current))) return { outcome: 'pending-twin' };
      const subscription = await updateSubscription(trx, current.id, {
        status: change.status,
        ...(change.status === 'notified' ? { notified_at: now.toISOString() } : {}),
        ...(change.status === 'pending' ? { notified_at: null } : {}),
      });
      return { outcome: 'updated', subscription };
    });
  } catch (error) {
    // A signup for the same address and product committed between our check and our write.
    if (isUniqueViolation(error)) return { outcome: 'pending-twin' };
    throw error;
  }
}
