import { z } from 'zod';
import type { Catalog } from '../catalog/catalog.ts';
import { requestHeader } from '../http/request.ts';
import { JA } from '../http/storefront-texts.ts';
import { reply, replyJson } from '../http/reply.ts';
import { defineRoute, type Route } from '../http/route.ts';
import { ErrorSchema } from '../http/schemas.ts';
import { HTML_PAGE_HEADERS } from '../text/html-page.ts';
import { cancelByCustomer, customerReservation, type CustomerPageDeps, type PageRefusal } from './customer-page.ts';
import { invalidManageLinkPage, reservationGonePage, reservationPage, type PageNotice } from './manage-page.ts';
import type { Reservation } from './store.ts';

/** Anything but one string reads as no token, and gets the invalid-link page like a wrong one. */
const Token = z.object({ token: z.string().optional().catch(undefined).describe('The token of the link in a reservation email') });

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
export function manageRoutes(deps: CustomerPageDeps & { catalog: Catalog }): Route[] {
  const productName = (r: Reservation) => deps.catalog.bySlug.get(r.product_slug)?.name ?? r.product_slug;
  const page = (r: Reservation, token: string, notice?: PageNotice) => reservationPage(r, productName(r), token, notice);
  const refusedPage = (refused: PageRefusal) =>
    refused.reason === 'bad-token'
      ? { status: 400 as const, html: invalidManageLinkPage() }
      : { status: 404 as const, html: reservationGonePage() };

  return [
    defineRoute({
      method: 'GET',
      path: '/reservations/manage',
      tag: 'Reservations',
      summary: 'The customer’s reservation page (the link in every reservation email)',
      description:
        'A Japanese page with the reservation (number, product, status, reserved at) and, while it is pending, a form to cancel it.',
      cors: 'none',
      query: Token,
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
          const refused = refusedPage(found);
          return reply(c, refused.status, refused.html, PAGE_HEADERS);
        }
        return reply(c, 200, page(found.reservation, query.token!), PAGE_HEADERS);
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/reservations/manage',
      tag: 'Reservations',
      summary: 'The customer cancels a pending reservation',
      description:
        'Takes `token` as a form field or in a JSON body. A pending reservation becomes cancelled, and the cancellation email and a chat notice to the shop are queued with it; anything else changes nothing and says why. A form gets the page (200); a request with `Content-Type: application/json` gets `{success, status}` (200 cancelled now, 409 nothing changed). A bad token gets the 400 page either way.',
      cors: 'none',
      acceptsForm: true,
      origins: 'shop-or-service',
      body: Token,
      serverError: JA.serverError,
      responses: {
        200: PAGE('The page, saying what happened (a JSON request: `{success: true, status}`)'),
        400: PAGE('The token is missing or altered'),
        404: PAGE('The reservation was erased'),
        409: { description: 'A JSON request: not pending, nothing changed', schema: CancelResponse },
        413: { description: 'Body too large', schema: ErrorSchema },
        500: { description: 'Unexpected failure', schema: ErrorSchema },
      },
      handle: async (c, { body }) => {
        const result = await cancelByCustomer(deps, body.token);
        if (!result.ok) {
          const refused = refusedPage(result);
          return reply(c, refused.status, refused.html, PAGE_HEADERS);
        }
        if (isJson(c)) {
          const { status } = result.reservation;
          if (result.outcome === 'cancelled') return replyJson(c, 200, { success: true, status });
          return replyJson(c, 409, { success: false, status, error: 'Reservation is not pending', code: 'reservation_not_pending' });
        }
        return reply(c, 200, page(result.reservation, body.token!, result.outcome), PAGE_HEADERS);
      },
    }),
  ];
}
