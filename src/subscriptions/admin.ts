import type { Kysely } from 'kysely';
import type { Tables } from '../db/schema.ts';
import type { StatusChangeResult } from '../records/record-kind.ts';
import type { SubscriptionStatus } from './status.ts';
import { hasPendingTwin, updateSubscription, type Subscription } from './store.ts';

/** The 409 of a move back to pending, and the item error of an unarchive, that would make a second active pending subscription. */
export const ANOTHER_PENDING_SUBSCRIPTION = {
  code: 'another_pending_subscription',
  error: 'Another pending subscription exists for this email and product',
} as const;

export interface SubscriptionStatusChange {
  id: string;
  productSlug: string;
  status: SubscriptionStatus;
}

/**
 * A subscription's part of an allowed status move (src/records/status-change.ts checked it, SPEC
 * §4). Moving to `notified` records when; moving back to `pending` clears that time, since a
 * pending subscription is one the next send will notify. A move back to `pending` is refused while
 * another active pending subscription has the same address and product (the unique index allows one).
 */
export async function applySubscriptionStatus(
  trx: Kysely<Tables>,
  current: Subscription,
  change: SubscriptionStatusChange,
  now: Date,
): Promise<StatusChangeResult<'subscriptions'>> {
  if (current.status === change.status) return { outcome: 'updated', record: current };
  if (change.status === 'pending' && (await hasPendingTwin(trx, current))) return { outcome: 'conflict', ...ANOTHER_PENDING_SUBSCRIPTION };
  const record = await updateSubscription(trx, current.id, {
    status: change.status,
    updated_at: now.toISOString(),
    ...(change.status === 'notified' ? { notified_at: now.toISOString() } : {}),
    ...(change.status === 'pending' ? { notified_at: null } : {}),
  });
  return { outcome: 'updated', record };
}
