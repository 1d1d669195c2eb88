import { z } from 'zod';
import { BulkStatusItems } from '../records/bulk-status.ts';
import { exportFilterBody, listFilterBody, statusChangeFields, storedStatus } from '../records/admin-fields.ts';
import { archivedSortColumns, sortNames } from '../records/lists.ts';
import type { RecordLists, RecordRefusals } from '../records/record-rows.ts';
import type { KindWords } from '../records/route-contracts.ts';
import {
  bulkStatusResponse,
  activeListResponse,
  archivedListBody,
  recordDetailResponse,
  statusChangeResponse,
} from '../records/schemas.ts';
import { SUBSCRIPTION_STATUSES } from './status.ts';
import type { Subscription } from './store.ts';

// What the subscription admin endpoints take and answer with, as data and as schemas for the API
// reference and the typed client, and the words they use.

export const WORDS: KindWords = { tag: 'Admin: subscriptions', listKey: 'subscriptions', itemKey: 'subscription' };

/** What staff are told when a request about a subscription cannot be done. */
export const REFUSALS: RecordRefusals = {
  notFound: { code: 'subscription_not_found', error: 'Subscription not found' },
  changed: { code: 'changed_by_someone_else', error: 'Subscription was changed by someone else' },
  archived: { code: 'subscription_archived', error: 'Subscription is archived' },
  alreadyArchived: { code: 'already_archived', error: 'Subscription already archived' },
  notArchived: { code: 'not_archived', error: 'Subscription is not archived' },
};

const StoredStatusSchema = storedStatus(SUBSCRIPTION_STATUSES, "A legacy status of the previous system's records");

export const ActiveSubscriptionSchema = z
  .object({
    id: z.string().describe('ntf_<epoch ms>-<10 [a-z0-9]>'),
    email: z.string(),
    productSlug: z.string(),
    status: StoredStatusSchema,
    createdAt: z.string(),
    notifiedAt: z.string().nullable().describe('When the restock email was queued; null if not notified'),
    updatedAt: z.string().describe('The last change (status, archive flag); send it back as expectedUpdatedAt'),
    unsubscribedByCustomer: z
      .boolean()
      .describe(
        'Unsubscribed, and not by staff (the customer’s link or one-click post, or a history that does not say who): staff cannot move it back to pending (409 unsubscribed_by_customer)',
      ),
  })
  .meta({ id: 'Subscription' });

export const ArchivedSubscriptionSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    productSlug: z.string(),
    status: StoredStatusSchema.describe('The status held when archived'),
    createdAt: z.string(),
    notifiedAt: z.string().nullable(),
    isArchived: z.literal(true),
    archivedAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'ArchivedSubscription' });

export const SubscriptionDetailSchema = ActiveSubscriptionSchema.extend({
  archivedAt: z.string().nullable().describe('When it was archived; null while active'),
}).meta({ id: 'SubscriptionDetail' });

/** The columns the lists sort by, by their names in the API (migration 011 indexes them). */
export const SORT_COLUMNS: Readonly<Record<string, string>> = {
  createdAt: 'created_at',
  updatedAt: 'updated_at',
  email: 'email',
  product: 'product_slug',
  status: 'status',
};

/** How the lists find subscriptions: `q` looks in the id and the address. */
export const SUBSCRIPTION_LISTS: RecordLists<'subscriptions'> = {
  table: 'subscriptions',
  searchColumns: ['id', 'email'],
  numbered: false,
  sortColumns: SORT_COLUMNS,
};

export const ListBody = listFilterBody(SUBSCRIPTION_STATUSES, 'email or id', sortNames(SORT_COLUMNS));
export const ArchivedListBody = archivedListBody(SORT_COLUMNS, 'email or id');
export const ExportBody = exportFilterBody(SUBSCRIPTION_STATUSES, 'email or id', sortNames(archivedSortColumns(SORT_COLUMNS)));
export const StatusBody = z.object(statusChangeFields(SUBSCRIPTION_STATUSES));
export const BulkStatusBody = z.object({ items: BulkStatusItems, status: StatusBody.shape.status });

export const ListResponse = activeListResponse('subscriptions', ActiveSubscriptionSchema);
export const StatusResponse = statusChangeResponse('subscription', ActiveSubscriptionSchema);
export const BulkStatusResponse = bulkStatusResponse(ActiveSubscriptionSchema);
export const DetailResponse = recordDetailResponse('subscription', SubscriptionDetailSchema);

/** A subscription's own fields, as the archive and a customer's export list it. */
export function subscriptionFacts(row: Subscription) {
  return {
    id: row.id,
    email: row.email,
    productSlug: row.product_slug,
    status: row.status,
    createdAt: row.created_at,
    notifiedAt: row.notified_at,
    updatedAt: row.updated_at,
  };
}

/** An active subscription; `byCustomer` holds the ids of those the customer unsubscribed (unsubscribedBy). */
export function activeSubscription(row: Subscription, byCustomer: ReadonlySet<string>): z.output<typeof ActiveSubscriptionSchema> {
  return { ...subscriptionFacts(row), unsubscribedByCustomer: byCustomer.has(row.id) };
}

export function subscriptionDetail(row: Subscription, byCustomer: ReadonlySet<string>): z.output<typeof SubscriptionDetailSchema> {
  return { ...activeSubscription(row, byCustomer), archivedAt: row.archived_at };
}

export function archivedSubscription(row: Subscription): z.output<typeof ArchivedSubscriptionSchema> {
  return { ...subscriptionFacts(row), isArchived: true, archivedAt: row.archived_at ?? '' };
}
