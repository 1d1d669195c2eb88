import type { Database } from '../db/database.ts';
import { isUniqueViolation } from '../db/unique-violation.ts';
import { byStaff, recordStatusChange } from '../records/history.ts';
import { changeTime, NOT_FOUND, refusedStatusChange, type StatusChangeResult, type StatusRequest } from '../records/status-checks.ts';
import { lastMoveToBy } from '../records/history-store.ts';
import { findRecordForUpdate } from '../records/store.ts';
import { SUBSCRIPTION_STATUS_TABLE, type SubscriptionStatus } from './status.ts';
import { hasPendingTwin, updateSubscription, type Subscription } from './store.ts';

/** The 409 of a move back to pending, and the item error of an unarchive, that would make a second active pending subscription. */
export const ANOTHER_PENDING_SUBSCRIPTION = {
  code: 'another_pending_subscription',
  error: 'Another pending subscription exists for this email and product',
} as const;

/**
 * The 409 of a move back to pending of a subscription the customer unsubscribed (their link or the
 * one-click post): an opt-out is the customer's to reverse, by signing up again, never the shop's.
 */
export const UNSUBSCRIBED_BY_CUSTOMER = {
  code: 'unsubscribed_by_customer',
  error: 'The customer unsubscribed; only their own new signup subscribes the address again',
} as const;

export interface SubscriptionStatusChange extends StatusRequest {
  status: SubscriptionStatus;
  /** The staff account making it (its history names it); null or absent for the bearer token. */
  staffId?: string | null;
}

/**
 * Staff move a subscription to another status, in one transaction, the subscription locked
 * throughout so two changes cannot both pass a check the other invalidates:
 * 1. the checks every record's move passes (it exists with that product, has not changed since
 *    `expectedUpdatedAt`, is active, and the status table allows the move);
 * 2. staying on the same status changes nothing (`updatedAt` stays);
 * 3. a move back to `pending` is refused when the subscription is unsubscribed and its history
 *    does not show staff made that move (the customer did, or no one knows who), and while another
 *    active pending subscription has the same address and product (the unique index allows one);
 * 4. the move is written: to `notified` with when, back to `pending` clearing that time, since a
 *    pending subscription is one the next send will notify;
 * 5. the record's history gets the move, and who made it.
 * A signup that takes the address and product between the check and the write makes the store
 * refuse the write: that is the same refusal.
 */
export async function changeSubscriptionStatus(
  database: Database,
  change: SubscriptionStatusChange,
  now: Date = new Date(),
): Promise<StatusChangeResult<Subscription>> {
  try {
    return await database.db.transaction().execute(async (trx): Promise<StatusChangeResult<Subscription>> => {
      const subscription = await findRecordForUpdate(trx, database.dialect, 'subscriptions', change.id);
      if (!subscription) return NOT_FOUND;
      const refused = refusedStatusChange(subscription, change, SUBSCRIPTION_STATUS_TABLE);
      if (refused) return refused;
      if (subscription.status === change.status) return { outcome: 'updated', record: subscription };
      if (
        change.status === 'pending' &&
        subscription.status === 'unsubscribed' &&
        (await lastMoveToBy(trx, subscription.id, 'unsubscribed')) !== 'staff'
      )
        return { outcome: 'conflict', ...UNSUBSCRIBED_BY_CUSTOMER };
      if (change.status === 'pending' && (await hasPendingTwin(trx, subscription)))
        return { outcome: 'conflict', ...ANOTHER_PENDING_SUBSCRIPTION };

      const at = changeTime(subscription.updated_at, now).toISOString();
      const record = await updateSubscription(trx, subscription.id, {
        status: change.status,
        updated_at: at,
        ...(change.status === 'notified' ? { notified_at: at } : {}),
        ...(change.status === 'pending' ? { notified_at: null } : {}),
      });
      await recordStatusChange(trx, subscription, record, { by: byStaff(change.staffId ?? null) });
      return { outcome: 'updated', record };
    });
  } catch (error) {
    if (isUniqueViolation(error)) return { outcome: 'conflict', ...ANOTHER_PENDING_SUBSCRIPTION };
    throw error;
  }
}
