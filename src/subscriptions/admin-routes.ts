import { z } from 'zod';
import { AppError } from '../http/app-error.ts';
import { replyJson } from '../http/reply.ts';
import { defineRoute, refusedAs, type Route } from '../http/route.ts';
import { errorResponses } from '../http/schemas.ts';
import { required } from '../records/admin-fields.ts';
import { subscriptionKind } from './record-kind.ts';
import { sendRestockNotices, type RestockSendDeps } from './restock-send.ts';

// The admin route only subscriptions have; their list, status and archive routes are src/records'.

const MISSING_PRODUCT = 'Missing required fields: productSlug';

export const SendBody = z.object({ productSlug: required(MISSING_PRODUCT).describe('The product that is back in stock') });

export const SendResponse = z.object({
  success: z.literal(true),
  notifiedCount: z.number().int().describe('Subscriptions notified by this request (0 when none waited)'),
});

export function restockSendRoutes(deps: RestockSendDeps): Route[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/api/admin/notify/send',
      tag: subscriptionKind.tag,
      summary: 'Tell every waiting subscriber that a product is back in stock',
      description:
        'Each active pending subscription of the product gets a restock email (queued) and becomes notified, in batches, each subscription in the same transaction as its email; one public chat message without personal data is queued when anyone was notified. Answers once everything is queued, without waiting for delivery. Sending again notifies nobody twice.',
      cors: 'any',
      admin: true,
      body: SendBody,
      invalid: refusedAs('missing_required_fields', MISSING_PRODUCT),
      errors: ['unknown_product'],
      responses: {
        200: { description: 'Queued', schema: SendResponse },
        ...errorResponses(400, 401, 404, 413, 500),
      },
      handle: async (c, { body }) => {
        const result = await sendRestockNotices(deps, body.productSlug);
        if (!result.ok) throw new AppError('unknown_product', 'Product not found');
        return replyJson(c, 200, { success: true, notifiedCount: result.notifiedCount });
      },
    }),
  ];
}
