import type { Database } from '../db/database.ts';
import { replyJson } from '../http/reply.ts';
import { BULK_PERSONAL_DATA } from '../records/route-contracts.ts';
import { defineRoute, type Route } from '../http/route.ts';
import { errorResponses } from '../http/schemas.ts';
import { erasePersonalData, exportPersonalData } from './personal-data.ts';
import { AddressBody, EraseResponse, ExportResponse } from './schemas.ts';

const TAG = 'Admin: personal data';

/** A customer's data, found by address, shown whole or erased; owners only (a `staff` account gets 403). */
export function personalDataRoutes(database: Database, addressKeySecret: string): Route[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/api/admin/personal-data/export',
      tag: TAG,
      summary: 'Everything held about an address',
      description: `${BULK_PERSONAL_DATA} Every reservation and restock subscription at the address (active and archived), each one’s history (status moves, memo edits, archiving, with who made them), every message about them or emailed to it, and its suppression (a bounce, a complaint), to answer a customer’s request to see their data. The address matches in its canonical form (case, a +tag, and gmail’s dots and second domain do not matter); a chat message names its webhook, never the URL.`,
      cors: 'any',
      admin: true,
      ownerOnly: true,
      body: AddressBody,
      responses: {
        200: { description: 'The data', schema: ExportResponse },
        ...errorResponses(400, 401, 403, 413, 500),
      },
      handle: async (c, { body }) =>
        replyJson(
          c,
          200,
          { success: true, ...(await exportPersonalData(database, addressKeySecret, body.email)) },
          { 'Cache-Control': 'no-store' },
        ),
    }),
    defineRoute({
      method: 'POST',
      path: '/api/admin/personal-data/erase',
      tag: TAG,
      summary: 'Erase everything held about an address',
      description:
        'Deletes, in one transaction, what the export lists: the reservations (their preorder seats are given back), the subscriptions and the messages, delivered or waiting (a waiting one is never sent), and what the email provider said of them; a suppression of the address is kept as a keyed hash only, so the shop still does not mail it. Erasing an address that holds nothing answers zeros.',
      cors: 'any',
      admin: true,
      ownerOnly: true,
      body: AddressBody,
      responses: {
        200: { description: 'Erased', schema: EraseResponse },
        ...errorResponses(400, 401, 403, 413, 500),
      },
      handle: async (c, { body }) =>
        replyJson(c, 200, { success: true, erased: await erasePersonalData(database, addressKeySecret, body.email) }),
    }),
  ];
}
