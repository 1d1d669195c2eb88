import { z } from 'zod';
import { listFilterBody, statusChangeFields, storedStatus } from '../records/admin-fields.ts';
import { activeListResponse, statusChangeResponse } from '../records/admin-routes.ts';
import { SUBSCRIPTION_STATUSES } from './status.ts';
import type { Subscription } from './store.ts';

// What the subscription admin endpoints take and answer with, as data and as schemas for the API
// reference and the typed client.

const StoredStatusSchema = storedStatus(SUBSCRIPTION_STATUSES, "A legacy status of the previous system's records");

export const ActiveSubscriptionSchema = z.object({
  id: z.string().describe('ntf_<epoch ms>-<10 [a-z0-9]>'),
  email: z.string(),
  productSlug: z.string(),
  status: StoredStatusSchema,
  createdAt: z.string(),
  notifiedAt: z.string().nullable().describe('When the restock email was queued; null if not notified'),
  updatedAt: z.string().describe('The last change (status, archive flag); send it back as expectedUpdatedAt'),
}).meta({ id: 'Subscription' });

export const ArchivedSubscriptionSchema = z.object({
  id: z.string(),
  email: z.string(),
  productSlug: z.string(),
  status: StoredStatusSchema.describe('The status held when archived'),
  createdAt: z.string(),
  notifiedAt: z.string().nullable(),
  isArchived: z.literal(true),
  archivedAt: z.string(),
  updatedAt: z.string(),
}).meta({ id: 'ArchivedSubscription' });

export const ListBody = listFilterBody(SUBSCRIPTION_STATUSES, 'email or id');
export const StatusBody = z.object(statusChangeFields(SUBSCRIPTION_STATUSES));

export const ListResponse = activeListResponse('subscriptions', ActiveSubscriptionSchema);
export const StatusResponse = statusChangeResponse('subscription', ActiveSubscriptionSchema);

export function activeSubscription(row: Subscription): z.output<typeof ActiveSubscriptionSchema> {
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

export function archivedSubscription(row: Subscription): z.output<typeof ArchivedSubscriptionSchema> {
  return { ...activeSubscription(row), isArchived: true, archivedAt: row.archived_at ?? '' };
}
