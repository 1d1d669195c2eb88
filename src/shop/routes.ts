import type { Database } from '../db/database.ts';
import { AppError } from '../http/app-error.ts';
import { replyJson } from '../http/reply.ts';
import { defineRoute, type Route } from '../http/route.ts';
import { errorResponses } from '../http/schemas.ts';
import { GetBody, ShopResponse, UpdateBody } from './schemas.ts';
import { readShop, updateShop } from './shop.ts';

const TAG = 'Admin: shop settings';

/** The shop's own name and contact: read by anyone signed in (the console warns everyone while it is unset), saved by owners only (a `staff` account gets 403 Forbidden). */
export function shopRoutes(database: Database): Route[] {
  const common = { method: 'POST', tag: TAG, cors: 'any', admin: true } as const;
  return [
    defineRoute({
      ...common,
      path: '/api/admin/shop/get',
      summary: 'The shop’s name and contact, as every email and the customer’s pages show them',
      description:
        "`{}` → `{success, shop:{name, contactEmail, phone, address, hours, updatedAt}}`: the shop's own name and contact, which end every customer email (`{{shopSignature}}`) and the customer's pages; each `''` while unset, `updatedAt` null until the first save (table `shop_settings`, one row, shared by every instance). A `staff` account may read it.",
      body: GetBody,
      responses: { 200: { description: 'The settings', schema: ShopResponse }, ...errorResponses(400, 401, 413, 500) },
      handle: async (c) => replyJson(c, 200, { success: true, shop: await readShop(database.db) }),
    }),
    defineRoute({
      ...common,
      path: '/api/admin/shop/update',
      ownerOnly: true,
      summary: 'Save the shop’s name and contact (owners only)',
      description:
        "Fields left out keep their value; `''` clears one. Limits: `name` ≤ 100, `contactEmail` a valid address or `''`, `phone` ≤ 30 of digits, spaces and `+-()`, `address` ≤ 300 (line breaks allowed), `hours` ≤ 200; each trimmed, all but `address` one line. With `expectedUpdatedAt` (the `updatedAt` last read, null for never saved), settings saved since → 409 and nothing written." +
        ' Body `{name?, contactEmail?, phone?, address?, hours?, expectedUpdatedAt?}` → `{success, shop}`. In `address` each line is trimmed and blank lines dropped. A field at fault is `400 Invalid parameters` with a detail for every one, nothing written. ' +
        "`expectedUpdatedAt` is an ISO 8601 time, its `null` an extension; the 409 is `Shop settings were changed by someone else` (`changed_by_someone_else`), checked under the row's lock, so of ten saves made at once from the same reading one is written. Every save gives a later `updatedAt`. A `staff` account gets `403 Forbidden`.",
      body: UpdateBody,
      errors: ['changed_by_someone_else'],
      responses: { 200: { description: 'The settings as saved', schema: ShopResponse }, ...errorResponses(400, 401, 403, 409, 413, 500) },
      handle: async (c, { body }) => {
        const result = await updateShop(database, body);
        if (!result.ok) throw new AppError('changed_by_someone_else', 'Shop settings were changed by someone else');
        return replyJson(c, 200, { success: true, shop: result.shop });
      },
    }),
  ];
}
