import type { Database } from '../db/database.ts';
import { isUniqueViolation } from '../db/unique-violation.ts';
import { byStaff, recordStatusChange } from '../records/history.ts';
import { changeTime, NOT_FOUND, refusedStatusChange, type StatusChangeResult, type StatusRequest } from '../records/status-checks.ts';
import { lastMovesToBy } from '../records/history-store.ts';
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

/**
 * The ids among these subscriptions that are unsubscribed and not by staff: the customer's link or
 * one-click post, or a history that does not say who (an opt-out is assumed the customer's). Staff
 * cannot move these back to pending, and the console does not offer it.
 */
export async function unsubscribedByCustomer(db: Database['db'], subscriptions: Subscription[]): Promise<Set<string>> {
  const unsubscribed = subscriptions.filter((s) => s.status === 'unsubscribed').map((s) => s.id);
  const actors = await lastMovesToBy(db, unsubscribed, 'unsubscribed');
  return new Set(unsubscribed.filter((id) => actors.get(id) !== 'staff'));
}

export interface SubscriptionStatusChange extends StatusRequest {
  status: SubscriptionStatus;
  /** The staff account making it (its history names it); null or absent for the bearer token. */
  staffId?: string | null;
}

/**
 * Staff move a subscription to another status, in one transaction with the row locked: 1. the checks
 * every record's move passes; 2. the same status changes nothing; 3. back to `pending` is refused for
 * a customer's unsubscribe (the history does not show staff made it) and while another active pending
 * signup has the address and product (a signup in between makes the unique index refuse the write:
 * the same refusal); 4. the move is written (`notified` with its time; `pending` clears it, as the
 * next send notifies pending ones); 5. the history gets the move and who made it.
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
      if (change.status === 'pending' && (await unsubscribedByCustomer(trx, [subscription])).size > 0)
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
