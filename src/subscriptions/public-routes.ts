import { z } from 'zod';
import type { Catalog } from '../catalog/catalog.ts';
import type { Database } from '../db/database.ts';
import type { Transaction } from '../db/group-commit.ts';
import { AppError } from '../http/app-error.ts';
import { idempotentTransaction } from '../http/idempotency-key.ts';
import type { KeyedAnswers } from '../idempotency/keyed-transaction.ts';
import type { Messaging } from '../messaging/messaging.ts';
import { JA } from '../http/storefront-texts.ts';
import type { RateLimit } from '../http/rate-limit.ts';
import { reply, replyJson } from '../http/reply.ts';
import { requestMethod } from '../http/request.ts';
import { defineRoute, refusedAs, type Route } from '../http/route.ts';
import { errorResponses, ErrorSchema } from '../http/schemas.ts';
import { EmailField, ProductSlugField } from '../records/form-fields.ts';
import { readShop } from '../shop/shop.ts';
import { signUp, type SignupOutcome } from './signup.ts';
import { unsubscribe } from './unsubscribe.ts';
import { invalidLinkPage, UNSUBSCRIBE_PAGE_HEADERS, unsubscribedPage } from './unsubscribe-page.ts';

/** The restock signup: the reservation form's address and product rules and messages. */
export const SignupBody = z.object({ email: EmailField, productSlug: ProductSlugField });

export const SignupResponse = z.object({
  success: z.literal(true),
  subscriptionId: z.string().describe('ntf_<epoch ms>-<10 [a-z0-9]>; the existing one when the address already waits for this product'),
});

/** Anything but one string reads as no token, and gets the invalid-link page like a wrong one. */
export const UnsubscribeQuery = z.object({
  token: z.string().optional().catch(undefined).describe('The token of the link in the restock email'),
});

const PAGE_DOCS = {
  200: { description: 'Unsubscribed (a short Japanese page)', schema: z.string(), contentType: 'text/html; charset=utf-8' },
  400: {
    description: 'The token is missing, altered or unknown (a short Japanese page)',
    schema: z.string(),
    contentType: 'text/html; charset=utf-8',
  },
  500: { description: 'Unexpected failure', schema: ErrorSchema },
};

export interface PublicSubscriptionDeps {
  database: Database;
  catalog: Catalog;
  messaging: Messaging;
  /** The transaction signups are written in: shared by those of a moment (groupCommit, made where the app is assembled). */
  transaction: Transaction;
  rateLimit: RateLimit;
  unsubscribeSecret: string;
  wakeDispatcher: () => void;
  /** Keys the fingerprint an Idempotency-Key keeps of its request. */
  idempotencySecret: string;
  /** Dates Idempotency-Keys. */
  now: () => Date;
}

/** An Idempotency-Key answers with the subscription its signup ended with. */
const ANSWERED_AGAIN: KeyedAnswers<SignupOutcome> = {
  idOf: (outcome) => outcome?.subscriptionId,
  again: async (_trx, id) => ({ subscriptionId: id, created: false }),
};

export function publicSubscriptionRoutes(deps: PublicSubscriptionDeps): Route[] {
  const unsubscribeRoute = (method: 'GET' | 'POST') =>
    defineRoute({
      method,
      path: '/api/notify/unsubscribe',
      tag: 'Subscriptions',
      summary: method === 'GET' ? 'Unsubscribe through the link of a restock email' : 'One-click unsubscribe (RFC 8058)',
      description:
        method === 'GET'
          ? 'Moves the subscription to unsubscribed (from any status) and shows a short page with the shop’s name and contact; repeating it changes nothing. HEAD only checks the token, so link checkers unsubscribe nobody. A wrong, altered or unknown token gets a 400 page. The token is the subscription id and its HMAC: no personal data.'
          : 'What mail clients POST (body `List-Unsubscribe=One-Click`, not read) to the List-Unsubscribe URL; the same effect and pages as GET (200).',
      cors: 'none',
      query: UnsubscribeQuery,
      serverError: JA.serverError,
      responses: PAGE_DOCS,
      handle: async (c, { query }) => {
        const result = await unsubscribe(deps, query.token, { apply: requestMethod(c) !== 'HEAD' });
        const shop = await readShop(deps.database.db);
        if (!result.ok) return reply(c, 400, invalidLinkPage(shop), UNSUBSCRIBE_PAGE_HEADERS);
        const product = result.productSlug === undefined ? undefined : deps.catalog.bySlug.get(result.productSlug);
        return reply(c, 200, unsubscribedPage(product?.name, shop), UNSUBSCRIBE_PAGE_HEADERS);
      },
    });

  return [
    defineRoute({
      method: 'POST',
      path: '/api/notify',
      tag: 'Subscriptions',
      summary: 'Ask to be told by email when a product is back in stock',
      description:
        'Creates a pending subscription and queues the restock chat notice in the same transaction. While the address already has a pending subscription for the product, answers its id and creates nothing (concurrent requests too). Rate-limited per client, sharing the budget of POST /api/reservation. With an Idempotency-Key, the same key and request within 24 hours answers the first id again (nothing written, no chat notice); the key with another request is 422.' +
        " Body `{email, productSlug}` → `{success:true, subscriptionId:'ntf_<ms>-<10 [a-z0-9]>'}`. The same validation and Japanese messages as the reservation form; the email is lowercased.",
      cors: 'allow-list',
      origins: 'shop',
      rateLimit: deps.rateLimit,
      idempotent: true,
      body: SignupBody,
      invalid: refusedAs('invalid_input', JA.invalidInput),
      notAnObject: { code: 'invalid_input', message: JA.invalidInput },
      errors: ['product_not_found'],
      serverError: JA.serverError,
      responses: {
        200: { description: 'Subscribed, or already subscribed', schema: SignupResponse },
        ...errorResponses(400, 413, 429, 500),
      },
      handle: async (c, { body }) => {
        const request = { form: 'notify', fields: [body.email, body.productSlug] };
        const transaction = idempotentTransaction(c, deps, request, ANSWERED_AGAIN, deps.transaction);
        const result = await signUp({ ...deps, transaction }, body, new Date());
        if (!result.ok) throw new AppError('product_not_found', JA.productNotFound);
        return replyJson(c, 200, { success: true, subscriptionId: result.subscriptionId });
      },
    }),
    unsubscribeRoute('GET'),
    unsubscribeRoute('POST'),
  ];
}
