import { z } from 'zod';
import { staffIdOf } from '../http/admin-auth.ts';
import { AppError } from '../http/app-error.ts';
import { replyJson } from '../http/reply.ts';
import { defineRoute, INVALID_PARAMETERS, type InvalidInput, type Route } from '../http/route.ts';
import { detailsFrom } from '../http/validation.ts';
import { errorResponses } from '../http/schemas.ts';
import { required } from '../records/admin-fields.ts';
import { listActive } from '../records/lists.ts';
import { messagesAbout } from '../messaging/about-records.ts';
import { recordWithHistory } from '../records/record-detail.ts';
import { bulkChangeStatus } from '../records/bulk-status.ts';
import {
  activeListContract,
  bulkStatusAnswer,
  bulkStatusContract,
  describedFurther,
  recordPageContract,
  statusChangeContract,
} from '../records/route-contracts.ts';
import { refusalError, statusChangeError } from '../records/status-checks.ts';
import {
  ANOTHER_PENDING_SUBSCRIPTION,
  changeSubscriptionStatus,
  UNSUBSCRIBED_BY_CUSTOMER,
  unsubscribedByCustomer,
} from './change-status.ts';
import { sendRestockNotices, type RestockSendDeps } from './restock-send.ts';
import {
  activeSubscription,
  BulkStatusBody,
  BulkStatusResponse,
  DetailResponse,
  ListBody,
  ListResponse,
  REFUSALS,
  StatusBody,
  StatusResponse,
  SUBSCRIPTION_LISTS,
  subscriptionDetail,
  WORDS,
} from './schemas.ts';

// Staff's work on restock subscriptions: the active list, a status move, one subscription's page,
// and the restock send. The archive and the CSV export are archive-routes.ts.

const MISSING_PRODUCT = 'Missing required fields: productSlug';

const LIMIT_MESSAGE = 'limit must be an integer from 1 to 100000';

export const SendBody = z.object({
  productSlug: required(MISSING_PRODUCT).describe('The product that is back in stock'),
  limit: z
    .number({ error: LIMIT_MESSAGE })
    .int(LIMIT_MESSAGE)
    .min(1, LIMIT_MESSAGE)
    .max(100_000, LIMIT_MESSAGE)
    .optional()
    .describe('Notify at most this many, oldest first (a wave); absent: everyone waiting'),
});

/** The send's 400: `Missing required fields: productSlug` when the product is missing, else `Invalid parameters` naming the field. */
const sendProblem: InvalidInput = {
  codes: ['missing_required_fields', 'invalid_parameters'],
  error(issues) {
    const details = detailsFrom(issues);
    if (issues.some((issue) => issue.path[0] === 'productSlug'))
      return new AppError('missing_required_fields', MISSING_PRODUCT, { details });
    return new AppError('invalid_parameters', INVALID_PARAMETERS, { details });
  },
};

export const SendResponse = z.object({
  success: z.literal(true),
  notifiedCount: z.number().int().describe('Subscriptions notified by this request (0 when none waited)'),
  remaining: z.number().int().describe("The product's pending subscriptions left after a send with `limit`; 0 without one"),
});

export function subscriptionAdminRoutes(deps: RestockSendDeps): Route[] {
  const { database } = deps;
  return [
    defineRoute({
      path: '/api/admin-notify-list',
      ...activeListContract(
        WORDS,
        {
          summary: 'List active restock subscriptions, newest first',
          description:
            '`q` (at most 200 characters) finds a case-insensitive substring of the email or id (`%` and `_` match themselves; on SQLite case folds for ASCII only). With `page` or `pageSize` one page and `total, page, pageSize, totalPages` (as the archive list); without them every match. `sort: {by, order?}` orders by another column (an extension), ties by id in the same direction. An unknown status is `400 Invalid status`.' +
            " Body `{status?, productSlug?, q?, page?, pageSize?, sort?}`; `q` folds as the reservations' list does. Each subscription has `unsubscribedByCustomer` (unsubscribed, and not by staff: it cannot be moved back to pending, so the console does not offer it; also in a status change's answer and in POST /api/admin/notify/get). `sort.by` is one of `createdAt`, `updatedAt`, `email`, `product`, `status`.",
        },
        { body: ListBody, response: ListResponse },
      ),
      handle: async (c, { body }) => {
        const { rows, paging } = await listActive(database, SUBSCRIPTION_LISTS, body);
        const byCustomer = await unsubscribedByCustomer(database.db, rows);
        return replyJson(c, 200, { success: true, subscriptions: rows.map((row) => activeSubscription(row, byCustomer)), ...paging });
      },
    }),
    defineRoute({
      path: '/api/admin-notify-status',
      ...statusChangeContract(
        WORDS,
        {
          summary: 'Change a restock subscription’s status',
          description:
            'Allowed moves: pending→notified (sets notifiedAt), pending→unsubscribed, notified→pending and unsubscribed→pending (both clear notifiedAt), or the same status (no change). unsubscribed→pending only for a subscription staff unsubscribed: one the customer unsubscribed (the email’s link or the one-click post), or whose history does not say who did, is refused with 409 `unsubscribed_by_customer`; only the customer’s own new signup subscribes the address again. A move back to pending while another active pending subscription has the same email and product is refused with 409 `another_pending_subscription`.' +
            ' Body `{id, productSlug, status, expectedUpdatedAt?}`; with `expectedUpdatedAt`, a record changed since → `409 Subscription was changed by someone else`, as for reservations. Other moves `409 Invalid status transition: a -> b`; absent `404 Subscription not found`; archived `409 Subscription is archived`.',
        },
        { body: StatusBody, response: StatusResponse },
        { of: REFUSALS, conflicts: [ANOTHER_PENDING_SUBSCRIPTION.code, UNSUBSCRIBED_BY_CUSTOMER.code] },
      ),
      handle: async (c, { body }) => {
        const result = await changeSubscriptionStatus(database, { ...body, staffId: staffIdOf(c) });
        if (result.outcome !== 'updated') throw statusChangeError(result, REFUSALS);
        const byCustomer = await unsubscribedByCustomer(database.db, [result.record]);
        return replyJson(c, 200, { success: true, subscription: activeSubscription(result.record, byCustomer) });
      },
    }),
    defineRoute({
      path: '/api/admin/notify/bulk-status',
      ...describedFurther(
        bulkStatusContract(WORDS, { body: BulkStatusBody, response: BulkStatusResponse }),
        'Its codes include `unsubscribed_by_customer` and `another_pending_subscription`.',
      ),
      handle: async (c, { body }) => {
        const staffId = staffIdOf(c);
        const outcome = await bulkChangeStatus(body.items, REFUSALS, (item) =>
          changeSubscriptionStatus(database, { ...item, status: body.status, staffId }),
        );
        const byCustomer = await unsubscribedByCustomer(database.db, outcome.updated);
        return replyJson(
          c,
          200,
          bulkStatusAnswer(
            outcome.updated.map((row) => activeSubscription(row, byCustomer)),
            outcome.errors,
          ),
        );
      },
    }),
    defineRoute({
      path: '/api/admin/notify/get',
      ...describedFurther(
        recordPageContract(WORDS, REFUSALS.notFound, DetailResponse),
        "Its moves include the restock send's (`customerEmailed: true`) and the customer's unsubscribe (`actor: 'customer'`).",
      ),
      handle: async (c, { body }) => {
        const found = await recordWithHistory(database, 'subscriptions', body.id, messagesAbout);
        if (!found) throw refusalError(REFUSALS.notFound);
        const byCustomer = await unsubscribedByCustomer(database.db, [found.row]);
        return replyJson(c, 200, { success: true, subscription: subscriptionDetail(found.row, byCustomer), history: found.history });
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/admin/notify/send',
      tag: WORDS.tag,
      summary: 'Tell the waiting subscribers, all or the oldest `limit` of them, that a product is back in stock',
      description:
        'Each active pending subscription of the product (with `limit`, at most that many, oldest first by createdAt then id) gets a restock email (queued) and becomes notified, in batches, each subscription in the same transaction as its email. One public chat message without personal data is queued when anyone was notified, by a send without `limit`, or with one that leaves nobody waiting. Answers once everything is queued, without waiting for delivery, with `remaining`: those still waiting after a send with `limit` (0 without). Sending again notifies nobody twice.' +
        " Body `{productSlug, limit?}`: `limit` an integer 1–100,000 (a wave, 5 units for 300 waiting). The Japanese restock email names the product, links its page, has a visible unsubscribe link and the shop's signature, with `List-Unsubscribe` and `List-Unsubscribe-Post: List-Unsubscribe=One-Click`. " +
        'Batches of 500, so 10,000 subscribers take bounded memory; the public announcement comes last so the public does not hear before the subscribers. Answers `{success:true, notifiedCount, remaining}`. ' +
        'Missing `productSlug` `400 Missing required fields: productSlug`; a bad `limit` `400 Invalid parameters` naming it; unknown product `404 Product not found`.',
      cors: 'any',
      admin: true,
      body: SendBody,
      invalid: sendProblem,
      errors: ['unknown_product'],
      responses: {
        200: { description: 'Queued', schema: SendResponse },
        ...errorResponses(400, 401, 404, 413, 500),
      },
      handle: async (c, { body }) => {
        const result = await sendRestockNotices(deps, body, { staffId: staffIdOf(c) });
        if (!result.ok) throw new AppError('unknown_product', 'Product not found');
        return replyJson(c, 200, { success: true, notifiedCount: result.notifiedCount, remaining: result.remaining });
      },
    }),
  ];
}
