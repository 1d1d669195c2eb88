import type { Catalog } from '../catalog/catalog.ts';
import type { Database } from '../db/database.ts';
import { AppError } from '../http/app-error.ts';
import { replyJson } from '../http/reply.ts';
import { defineRoute, INVALID_PARAMETERS, type Route } from '../http/route.ts';
import { errorResponses } from '../http/schemas.ts';
import { upsertPreorder } from './admin.ts';
import { preorderView } from './campaign.ts';
import {
  AdminListResponse,
  DeleteResponse,
  EmptyBody,
  DeleteBody,
  PublicListResponse,
  PublicQuery,
  UpsertBody,
  UpsertResponse,
} from './schemas.ts';
import { deletePreorder, listPreorders } from './store.ts';

const TAG = 'Admin: preorders';

export interface PreorderRouteDeps {
  database: Database;
  catalog: Catalog;
  /** The time states are computed at (tests set it). */
  now: () => Date;
}

/** The admin routes of preorder campaigns, and the storefront's view of them. */
export function preorderRoutes(deps: PreorderRouteDeps): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/preorders',
      tag: 'Preorders',
      summary: 'Preorder campaigns, for the storefront',
      description:
        'The campaigns of the given products (or all), with their state and seats left, without personal data. Show 「残りN台」 from `remaining` while `state` is open, 「受付終了」 when it is closed or soldOut, and the opening time (opensAt, UTC: convert to Japan time) while upcoming. A product without a campaign is not listed and takes reservations as usual. Not cached (Cache-Control: no-cache): seats change with every reservation.' +
        ' `productSlug` is repeatable (absent for all). Answers `{success:true, preorders:[{productSlug, state, opensAt, closesAt, capacity, remaining, shipsIn, note}]}`, by productSlug; `state` is `upcoming`, `open`, `closed` or `soldOut`. How a storefront shows 「残りN台」 and 「受付終了」: [preorders.md](preorders.md).',
      cors: 'allow-list',
      query: PublicQuery,
      responses: {
        200: { description: 'The campaigns, by productSlug', schema: PublicListResponse },
        ...errorResponses(400, 405, 500),
      },
      handle: async (c, { query }) => {
        const now = deps.now().toISOString();
        const rows = await listPreorders(deps.database.db, query.productSlug);
        const preorders = rows.map((row) => {
          const view = preorderView(row, now);
          return {
            productSlug: view.productSlug,
            state: view.state,
            opensAt: view.opensAt,
            closesAt: view.closesAt,
            capacity: view.capacity,
            remaining: view.remaining,
            shipsIn: view.shipsIn,
            note: view.note,
          };
        });
        return replyJson(c, 200, { success: true, preorders }, { 'Cache-Control': 'no-cache' });
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/admin/preorders/list',
      tag: TAG,
      summary: 'List preorder campaigns with their seats and state',
      description:
        '`{}` → every campaign, by productSlug: `{id, productSlug, opensAt, closesAt, capacity, perCustomerLimit, shipsIn, note, createdAt, updatedAt, reserved, remaining, state}` (`id`, which reservations name as `preorderId`, is an extension).',
      cors: 'any',
      admin: true,
      body: EmptyBody,
      responses: {
        200: { description: 'Every campaign, by productSlug', schema: AdminListResponse },
        ...errorResponses(400, 401, 413, 500),
      },
      handle: async (c) => {
        const now = deps.now().toISOString();
        const rows = await listPreorders(deps.database.db);
        return replyJson(c, 200, { success: true, preorders: rows.map((row) => preorderView(row, now)) });
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/admin/preorders/upsert',
      errors: ['unknown_product', 'changed_by_someone_else'],
      tag: TAG,
      summary: 'Create or change a product’s preorder campaign',
      description:
        'Creates the campaign (fields left out are null) or changes it (fields left out keep their value; createdAt stays). closesAt must be after opensAt, as they will be stored. Lowering capacity below reserved refuses new reservations (soldOut) and cancels none. With `expectedUpdatedAt` (the campaign’s `updatedAt` last read, null for none), a campaign saved, deleted or created since → 409 `changed_by_someone_else` and nothing written.' +
        ' Body `{productSlug, opensAt?, closesAt?, capacity?, perCustomerLimit?, shipsIn?, note?, expectedUpdatedAt?}`; `null` clears a field. Answers `{success, preorder}`. Dates are ISO 8601, an offset kept as the same instant (`2026-12-01T10:00+09:00`), answered in UTC; `capacity` 1–100,000, `perCustomerLimit` 1–100 (reservations one customer may hold, counted by canonical address as the personal-data export matches it: `taro+a@gmail.com` and `t.a.r.o@googlemail.com` are one), `shipsIn` ≤ 100 characters, `note` ≤ 500, each or `null`. ' +
        'Unknown product `404 Product not found`; bad values, or a `closesAt` not after the `opensAt` it will have, `400 Invalid parameters` with details.',
      cors: 'any',
      admin: true,
      body: UpsertBody,
      responses: {
        200: { description: 'Saved', schema: UpsertResponse },
        ...errorResponses(400, 401, 404, 409, 413, 500),
      },
      handle: async (c, { body }) => {
        const { productSlug, opensAt, closesAt, capacity, perCustomerLimit, shipsIn, note, expectedUpdatedAt } = body;
        const given = { opens_at: opensAt, closes_at: closesAt, capacity, per_customer_limit: perCustomerLimit, ships_in: shipsIn, note };
        const settings = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined));
        const now = deps.now();
        const result = await upsertPreorder(deps, { productSlug, settings, expectedUpdatedAt }, now);
        if (result.outcome === 'unknownProduct') throw new AppError('unknown_product', 'Product not found');
        if (result.outcome === 'changed') throw new AppError('changed_by_someone_else', 'Preorder was changed by someone else');
        if (result.outcome === 'closesBeforeOpens') {
          throw new AppError('invalid_parameters', INVALID_PARAMETERS, {
            details: [{ field: 'closesAt', message: 'closesAt must be after opensAt' }],
          });
        }
        return replyJson(c, 200, { success: true, preorder: preorderView(result.preorder, now.toISOString()) });
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/admin/preorders/delete',
      errors: ['preorder_not_found', 'preorder_has_reservations'],
      tag: TAG,
      summary: 'Delete a product’s preorder campaign',
      description:
        'Its reservations stay, and the product takes reservations without limits again: so while reservations that are not cancelled hold seats of it, the answer is 409 Preorder has reservations and nothing is deleted, unless `force` is true (to stop taking reservations, set closesAt to now instead).' +
        " Body `{productSlug, force?}`; `force` not a boolean → `400`; to stop taking reservations the console's 受付を終了 sets `closesAt`. Answers `{success}`; no campaign → `404 Preorder not found`.",
      cors: 'any',
      admin: true,
      body: DeleteBody,
      responses: {
        200: { description: 'Deleted', schema: DeleteResponse },
        ...errorResponses(400, 401, 404, 409, 413, 500),
      },
      handle: async (c, { body }) => {
        const outcome = await deletePreorder(deps.database.db, body.productSlug, body.force === true);
        if (outcome === 'none') throw new AppError('preorder_not_found', 'Preorder not found');
        if (outcome === 'held') throw new AppError('preorder_has_reservations', 'Preorder has reservations');
        return replyJson(c, 200, { success: true });
      },
    }),
  ];
}
