import { z } from 'zod';
import { requestHeader } from '../http/request.ts';
import { JA } from '../http/storefront-texts.ts';
import { reply, replyJson } from '../http/reply.ts';
import { defineRoute, type Route } from '../http/route.ts';
import { ErrorSchema } from '../http/schemas.ts';
import { HTML_PAGE_HEADERS } from '../text/html-page.ts';
import {
  cancelByCustomer,
  customerReservation,
  pageContext,
  shopContact,
  type CustomerPageDeps,
  type PageRefusal,
} from './customer-page.ts';
import {
  ASK_CANCEL,
  cancellable,
  cancelQuestionPage,
  invalidManageLinkPage,
  managePageUrl,
  reservationGonePage,
  reservationPage,
} from './manage-page.ts';

/** Anything but one string reads as no token, and gets the invalid-link page like a wrong one. */
const Token = z.object({ token: z.string().optional().catch(undefined).describe('The token of the link in a reservation email') });

/** The page's address: the token, and `ask=cancel` for the question whether to cancel. */
const PageQuery = Token.extend({
  ask: z
    .string()
    .optional()
    .catch(undefined)
    .describe('`cancel`: the page asking whether to cancel (while the reservation is pending; otherwise the page itself)'),
});

/** The form's post: the token, and `confirm=yes` from the page that asked first. */
const CancelBody = Token.extend({
  confirm: z
    .string()
    .optional()
    .catch(undefined)
    .describe('`yes` (a form): cancel now; absent: the page asks first and changes nothing. A JSON request cancels without it'),
});

export const CancelResponse = z.object({
  success: z.boolean().describe('true: cancelled now; false: nothing changed (see status)'),
  status: z.string().describe('The reservation’s status after the request'),
  error: z.string().optional().describe('Why nothing changed'),
  code: z.literal('reservation_not_pending').optional().describe('Why nothing changed, for a program: the error code'),
});

const HTML = 'text/html; charset=utf-8';

// `same-origin`, not `no-referrer`: under `no-referrer` a browser posts the page's form with
// `Origin: null`, which the cross-site check (a form posted from another site) must refuse. The page links nowhere else, so
// its URL (with the token) still never leaves the service.
const PAGE_HEADERS = { ...HTML_PAGE_HEADERS, 'Referrer-Policy': 'same-origin' };
const PAGE = (description: string) => ({ description, schema: z.string(), contentType: HTML });

const isJson = (c: Parameters<Route['handle']>[0]) => /^\s*application\/json\s*(;|$)/i.test(requestHeader(c, 'content-type') ?? '');

/** The customer's own reservation page and its cancel. */
export function manageRoutes(deps: CustomerPageDeps): Route[] {
  const refusedPage = async (refused: PageRefusal) => {
    const shop = await shopContact(deps);
    return refused.reason === 'badToken'
      ? { status: 400 as const, html: invalidManageLinkPage(shop) }
      : { status: 404 as const, html: reservationGonePage(shop) };
  };

  return [
    defineRoute({
      method: 'GET',
      path: '/reservations/manage',
      tag: 'Reservations',
      summary: 'The customer’s reservation page (the link in every reservation email)',
      description:
        'A Japanese page with the reservation (number, product, status in the customer’s words, reserved at; for a preorder, when it ships and the campaign’s note), the shop’s name and contact, and while it is pending a form to cancel it, which asks first: the same page with `ask=cancel`, by GET, so the browser’s Back after the cancel reads a page again instead of resubmitting a form; otherwise why it cannot be cancelled here and how to reach the shop.' +
        ' Linked (`manageUrl`) from every reservation email; the token is `<reservation id>.<HMAC>` as unsubscribe links. No JavaScript, readable on a phone. ' +
        "The statuses read 受付中, 確定, お渡し済み, キャンセル済み; a preorder's shipping time is 発送予定 (`shipsIn`); never the email address. " +
        "The shop's contact ends the page (店舗情報: address, phone and contact address as links a phone opens, hours). The cancel form shows only while pending and not archived. " +
        "A missing or altered token → `400` page; an erased reservation → `404` page (both with the shop's contact).",
      cors: 'none',
      query: PageQuery,
      serverError: JA.serverError,
      responses: {
        200: PAGE('The page'),
        400: PAGE('The token is missing or altered'),
        404: PAGE('The reservation was erased'),
        500: { description: 'Unexpected failure', schema: ErrorSchema },
      },
      handle: async (c, { query }) => {
        const found = await customerReservation(deps, query.token);
        if (!found.ok) {
          const refused = await refusedPage(found);
          return reply(c, refused.status, refused.html, PAGE_HEADERS);
        }
        const context = await pageContext(deps, found.reservation);
        const page =
          query.ask === ASK_CANCEL && cancellable(found.reservation)
            ? cancelQuestionPage(found.reservation, query.token!, context)
            : reservationPage(found.reservation, query.token!, context);
        return reply(c, 200, page, PAGE_HEADERS);
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/reservations/manage',
      tag: 'Reservations',
      summary: 'The customer cancels a pending reservation',
      description:
        'Takes `token` as a form field or in a JSON body. A form takes two steps, with or without JavaScript: without `confirm` the answer is a page asking 「このご予約をキャンセルしますか？」 (200; nothing changes), whose form posts again with `confirm=yes`, which cancels and answers `303 See Other` to the page’s own GET URL (the same token), so a reload shows the reservation as it now stands. A pending reservation becomes cancelled, and the cancellation email and a chat notice to the shop are queued with it; anything else changes nothing and the page says why. A request with `Content-Type: application/json` cancels at once (the storefront asks first) and gets `{success, status}` (200 cancelled now, 409 nothing changed). A bad token gets the 400 page either way.' +
        ' The asking page has a second form (`confirm=yes`) and a link back. The cancel queues the `reservation-cancelled` email (when enabled) and the chat notice to the reservation webhook in the same transaction; after the `303` the page shows キャンセル済み, so a reload reads the page again and a bookmark keeps working. ' +
        'Cancelling again, or a reservation that is not pending, is still `303`, and the page says why. ' +
        "The JSON answers are `{success:true, status:'cancelled'}`, or `409 {success:false, status, error:'Reservation is not pending', code}`. " +
        "The customer's own cancel does not set `respondedAt` (it is not the shop's response).",
      cors: 'none',
      acceptsForm: true,
      origins: 'shop-or-service',
      body: CancelBody,
      serverError: JA.serverError,
      responses: {
        200: PAGE(
          'The question (a form without confirm), or the page saying why it cannot be cancelled (a JSON request: `{success: true, status}`)',
        ),
        303: { description: 'Cancelled (or nothing to cancel): to the page’s own GET URL', schema: z.string(), contentType: HTML },
        400: PAGE('The token is missing or altered'),
        404: PAGE('The reservation was erased'),
        409: { description: 'A JSON request: not pending, nothing changed', schema: CancelResponse },
        413: { description: 'Body too large', schema: ErrorSchema },
        500: { description: 'Unexpected failure', schema: ErrorSchema },
      },
      handle: async (c, { body }) => {
        const json = isJson(c);
        if (!json && body.confirm !== 'yes') {
          // The first step: ask, and change nothing.
          const found = await customerReservation(deps, body.token);
          if (!found.ok) {
            const refused = await refusedPage(found);
            return reply(c, refused.status, refused.html, PAGE_HEADERS);
          }
          const context = await pageContext(deps, found.reservation);
          const page = cancellable(found.reservation)
            ? cancelQuestionPage(found.reservation, body.token!, context)
            : reservationPage(found.reservation, body.token!, context);
          return reply(c, 200, page, PAGE_HEADERS);
        }
        const result = await cancelByCustomer(deps, body.token);
        if (!result.ok) {
          const refused = await refusedPage(result);
          return reply(c, refused.status, refused.html, PAGE_HEADERS);
        }
        if (json) {
          const { status } = result.reservation;
          if (result.outcome === 'cancelled') return replyJson(c, 200, { success: true, status });
          return replyJson(c, 409, { success: false, status, error: 'Reservation is not pending', code: 'reservation_not_pending' });
        }
        // Cancelled, or already not pending: either way the page as it stands now, by GET, so a reload repeats nothing.
        return reply(c, 303, '', { ...PAGE_HEADERS, Location: managePageUrl(body.token!) });
      },
    }),
  ];
}
