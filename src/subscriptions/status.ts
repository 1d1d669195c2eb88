import type { StatusTable } from '../records/status-transitions.ts';

export const SUBSCRIPTION_STATUSES = ['pending', 'notified', 'unsubscribed'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/**
 * The moves an administrator may make. The restock send (pending → notified) and the customer's
 * own unsubscribe (pending or notified → unsubscribed) are not limited by this table.
 */
export const SUBSCRIPTION_STATUS_TABLE: StatusTable<SubscriptionStatus> = {
  statuses: SUBSCRIPTION_STATUSES,
  moves: [
    ['pending', 'notified'],
    ['pending', 'unsubscribed'],
    ['notified', 'pending'],
    ['unsubscribed', 'pending'],
  ],
};
