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
import { replyJson } from '../http/reply.ts';
import { defineRoute, refusedAs, type Route } from '../http/route.ts';
import type { AnswerCode } from '../http/error-codes.ts';
import { errorResponses } from '../http/schemas.ts';
import { EmailField, ProductSlugField } from '../records/form-fields.ts';
import { codePointLength } from '../text/code-points.ts';
import { readsAsLink } from '../text/reads-as-link.ts';
import { reserve, type ReserveResult } from './reserve.ts';
import { numbersOf } from './store.ts';

/**
 * What a name never holds, since the confirmation email quotes it to whatever address was typed, from
 * the shop's own sender, and the shop's chat notice shows it: anything that reads as a link (a host,
 * a path, a scheme or markup: reads-as-link.ts), an address (`@`), or a control, format or bidi
 * character (Unicode Cc and Cf: line breaks, U+202E that turns text around, zero-width ones; and the
 * line and paragraph separators U+2028, U+2029, which break a line as well). So a stranger cannot
 * make the shop send a message of theirs ("pay at evil.example") to somebody else.
 */
const NOT_A_NAME = /@|[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
const isName = (name: string) => !NOT_A_NAME.test(name.normalize('NFKC')) && !readsAsLink(name);

/** The public reservation form. The name is trimmed; the address is trimmed and lowercased. */
export const ReservationBody = z.object({
  name: z
    .string({ error: JA.nameRequired })
    .refine(isName, JA.nameRequired)
    .transform((name) => name.trim())
    .refine((name) => codePointLength(name) >= 1 && codePointLength(name) <= 100, JA.nameRequired)
    .describe(
      '1-100 characters after trimming; nothing that reads as a link (a host such as `evil.example` or `1.2.3.4`, a path, a scheme such as `https:`, markup such as `<a` or `[…](…)`, judged after NFKC with `。` read as `.`), no `@`, control, format or bidi character',
    ),
  email: EmailField,
  productSlug: ProductSlugField,
});

export const ReservationResponse = z.object({
  success: z.literal(true),
  reservationId: z.string().describe('res_<uuid v7>'),
  reservationNumber: z
    .number()
    .int()
    .nullable()
    .describe('The number the customer quotes (1001, 1002, …); the same on a replay, null only when that reservation was erased since'),
});

export interface PublicReservationDeps {
  database: Database;
  catalog: Catalog;
  messaging: Messaging;
  /** The transaction reservations are written in: shared by those of a moment (groupCommit, made where the app is assembled). */
  transaction: Transaction;
  rateLimit: RateLimit;
  wakeDispatcher: () => void;
  /** Keys the fingerprint an Idempotency-Key keeps of its request. */
  idempotencySecret: string;
  /** The time a reservation is taken at, which decides its campaign's state (tests set it). */
  now: () => Date;
}

export function publicReservationRoutes(deps: PublicReservationDeps): Route[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/api/reservation',
      tag: 'Reservations',
      summary: 'Reserve a product',
      description:
        'Stores the reservation and queues the confirmation email and the shop chat notice in the same transaction; they are delivered after the response. Rate-limited per client (shared with POST /api/notify). A product with a preorder campaign (GET /api/preorders) takes a seat of it or answers 409: 予約受付開始前です (before opensAt), 予約受付は終了しました (after closesAt), 予約数が上限に達しました (no seat left), お一人様あたりの予約数の上限に達しています (the address holds perCustomerLimit reservations of the campaign). With an Idempotency-Key, the same key and request within 24 hours answers the first reservation again (nothing written, no seat taken, no email); the key with another request is 422. Only a reservation taken is remembered: a refused request retried is tried again.' +
        " Body `{name, email, productSlug}` → `{success:true, reservationId:'res_<uuid v7>', reservationNumber:1001}`. " +
        "The number is what the customer quotes: unique, from 1001, given by the database as the reservation is written (so higher for one taken later; two written at the same moment on different connections or instances may take theirs in either order; gaps allowed; never given twice, an erased reservation's included); a replay of an Idempotency-Key answers the same number (`null` only if that reservation was erased since). " +
        'Name 1–100 characters, trimmed, kept on one line; email at most 254 characters, stored lowercased; the product must be in the catalog. ' +
        '`400 入力内容に誤りがあります` with per-field details, or `400 指定された商品が見つかりません`; `422 Idempotency-Key reused with a different request`; `429` over the rate limit; `500 サーバーエラーが発生しました。しばらくしてから再度お試しください`.',
      cors: 'allow-list',
      origins: 'shop',
      rateLimit: deps.rateLimit,
      idempotent: true,
      body: ReservationBody,
      invalid: refusedAs('invalid_input', JA.invalidInput),
      notAnObject: { code: 'invalid_input', message: JA.invalidInput },
      errors: ['product_not_found', 'preorder_upcoming', 'preorder_closed', 'preorder_sold_out', 'customer_limit_reached'],
      serverError: JA.serverError,
      responses: {
        200: { description: 'Reserved', schema: ReservationResponse },
        ...errorResponses(400, 409, 413, 429, 500),
      },
      handle: async (c, { body }) => {
        const request = { form: 'reservation', fields: [body.name, body.email, body.productSlug] };
        const transaction = idempotentTransaction(c, deps, request, ANSWERED_AGAIN, deps.transaction);
        const result = await reserve({ ...deps, dialect: deps.database.dialect, transaction }, body, deps.now());
        if (!result.ok) throw refusal(result.reason);
        return replyJson(c, 200, { success: true, reservationId: result.reservationId, reservationNumber: result.reservationNumber });
      },
    }),
  ];
}

/** An Idempotency-Key answers with its reservation (once a seat was taken), and its number as it is now. */
const ANSWERED_AGAIN: KeyedAnswers<ReserveResult> = {
  idOf: (result) => (result.ok ? result.reservationId : undefined),
  again: async (trx, id) => ({ ok: true, reservationId: id, reservationNumber: (await numbersOf(trx, [id])).get(id) ?? null }),
};

function refusal(reason: Extract<ReserveResult, { ok: false }>['reason']): AppError {
  if (reason === 'unknownProduct') return new AppError('product_not_found', JA.productNotFound);
  return new AppError(PREORDER_REFUSALS[reason], JA.preorder[reason]);
}

const PREORDER_REFUSALS = {
  upcoming: 'preorder_upcoming',
  closed: 'preorder_closed',
  soldOut: 'preorder_sold_out',
  customerLimit: 'customer_limit_reached',
} as const satisfies Record<keyof typeof JA.preorder, AnswerCode>;
