import { z } from 'zod';
import { AppError } from '../http/app-error.ts';
import { replyJson } from '../http/reply.ts';
import { defineRoute, type Route } from '../http/route.ts';
import { errorResponses } from '../http/schemas.ts';
import { listFilterBody, listFilterProblem, required, statusChangeFields, statusChangeProblem, statusChangeRefusal } from '../records/admin-fields.ts';
import { changeSubscriptionStatus } from './admin.ts';
import { PENDING_TWIN } from './archive-kind.ts';
import { sendRestockNotices, type RestockSendDeps } from './restock-send.ts';
import { activeSubscription, ActiveSubscriptionSchema } from './schemas.ts';
import { SUBSCRIPTION_STATUSES } from './status.ts';
import { listActiveSubscriptions } from './store.ts';

const TAG = 'Admin: subscriptions';
const MISSING_PRODUCT = 'Missing required fields: productSlug';
const NOT_FOUND = 'Subscription not found';

export const ListBody = listFilterBody(SUBSCRIPTION_STATUSES);

export const StatusBody = z.object(statusChangeFields(SUBSCRIPTION_STATUSES));

export const SendBody = z.object({ productSlug: required(MISSING_PRODUCT).describe('The product that is back in stock') });

export const ListResponse = z.object({ success: z.literal(true), subscriptions: z.array(ActiveSubscriptionSchema) });
export const StatusResponse = z.object({ success: z.literal(true), subscription: ActiveSubscriptionSchema });
export const SendResponse = z.object({
  success: z.literal(true),
  notifiedCount: z.number().int().describe('Subscriptions notified by this request (0 when none waited)'),
});

export function adminSubscriptionRoutes(deps: RestockSendDeps): Route[] {
  const { database } = deps;
  return [
    defineRoute({
      method: 'POST',
      path: '/api/admin-notify-list',
      tag: TAG,
      summary: 'List active restock subscriptions, newest first',
      cors: 'any',
      admin: true,
      body: ListBody,
      invalid: listFilterProblem,
      responses: {
        200: { description: 'Active subscriptions', schema: ListResponse },
        ...errorResponses(400, 401, 413, 500),
      },
      handle: async (c, { body }) => {
        const rows = await listActiveSubscriptions(database.db, { status: body.status || undefined, productSlug: body.productSlug || undefined });
        return replyJson(c, 200, { success: true, subscriptions: rows.map(activeSubscription) });
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/admin-notify-status',
      tag: TAG,
      summary: 'Change a restock subscription’s status',
      description:
        'Allowed moves: pending→notified (sets notifiedAt), pending→unsubscribed, notified→pending and unsubscribed→pending (both clear notifiedAt), or the same status (no change). A move back to pending while another active pending subscription has the same email and product is refused with 409.',
      cors: 'any',
      admin: true,
      body: StatusBody,
      invalid: statusChangeProblem,
      responses: {
        200: { description: 'Updated', schema: StatusResponse },
        ...errorResponses(400, 401, 404, 409, 413, 500),
      },
      handle: async (c, { body }) => {
        const result = await changeSubscriptionStatus(database, body);
        if (result.outcome === 'pending-twin') throw new AppError(409, PENDING_TWIN);
        if (result.outcome !== 'updated') throw statusChangeRefusal(result, { notFound: NOT_FOUND, archived: 'Subscription is archived' });
        return replyJson(c, 200, { success: true, subscription: activeSubscription(result.subscription) });
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/admin/notify/send',
      tag: TAG,
      summary: 'Tell every waiting subscriber that a product is back in stock',
      description:
        'Each active pending subscription of the product gets a restock email (queued) and becomes notified, in batches, each subscription in the same transaction as its email; one public chat message without personal data is queued when anyone was notified. Answers once everything is queued, without waiting for delivery. Sending again notifies nobody twice.',
      cors: 'any',
      admin: true,
      body: SendBody,
      invalid: MISSING_PRODUCT,
      responses: {
        200: { description: 'Queued', schema: SendResponse },
        ...errorResponses(400, 401, 404, 413, 500),
      },
      handle: async (c, { body }) => {
        const result = await sendRestockNotices(deps, body.productSlug);
        if (!result.ok) throw new AppError(404, 'Product not found');
        return replyJson(c, 200, { success: true, notifiedCount: result.notifiedCount });
      },
    }),
  ];
}
