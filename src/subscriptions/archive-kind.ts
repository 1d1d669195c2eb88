import type { ArchivableKind } from '../records/record-kind.ts';
import { archivedSubscription, ArchivedSubscriptionSchema } from './schemas.ts';
import { findPendingPairs } from './store.ts';

/** The 409 of a move back to pending, and the item error of an unarchive, that would make a second active pending subscription. */
export const PENDING_TWIN = 'Another pending subscription exists for this email and product';

/** How subscriptions are archived and listed when archived (src/archive does the work). */
export const subscriptionArchive: ArchivableKind<'subscriptions'> = {
  table: 'subscriptions',
  pathPrefix: '/api/admin/notify',
  tag: 'Admin: subscriptions',
  listKey: 'subscriptions',
  texts: {
    notFound: 'Subscription not found',
    alreadyArchived: 'Subscription already archived',
    notArchived: 'Subscription is not archived',
  },
  archivedItem: archivedSubscription,
  archivedItemSchema: ArchivedSubscriptionSchema,
  uniqueWhileActive: { find: findPendingPairs, conflict: PENDING_TWIN },
};
