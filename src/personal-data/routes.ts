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
      description: `${BULK_PERSONAL_DATA} Every reservation and restock subscription at the address (active and archived), each one’s history (status moves, memo edits, archiving, with who made them), every message about them or emailed to it, and its suppression (a bounce, a complaint), to answer a customer’s request to see their data. The address matches in its canonical form (case, a +tag, and gmail’s dots and second domain do not matter); a chat message names its webhook, never the URL. Body \`{email}\` → \`{success, email, reservations, subscriptions, messages, history}\`. Reservations (with \`number\`, \`respondedAt\`, \`archivedAt\`) and subscriptions (with \`archivedAt\`) newest first; messages in any state as \`{id, recordId, channel, kind, to, status, attempts, lastError, createdAt, sentAt}\` (\`to\` is the address of an email and the webhook's name for chat). \`history\` has one \`{recordId, entries}\` per record, the reservations then the subscriptions in the order above: its changes oldest first as a record's page answers them (POST /api/admin/reservations/get's \`history\`: status moves, memo edits with both texts, archiving and restoring, staff's resends, each with \`actor\`, \`staffId\` and \`staffName\`), without its messages, which are in \`messages\`. The canonical form: trimmed, its domain in ASCII (\`例え.jp\` finds \`xn--r8jz45g.jp\`), lowercased, the \`+tag\` of the local part removed, and for \`gmail.com\`/\`googlemail.com\` the local part's dots removed and the domain \`gmail.com\` (\`email\` answers that form; each record keeps its address as typed). Anything not shaped \`local@domain\` of at most 254 characters → \`400 Invalid parameters\` naming \`email\`. See [operations.md](operations.md#personal-data-requests).`,
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
        'Deletes, in one transaction, what the export lists: the reservations (their preorder seats are given back), the subscriptions and the messages, delivered or waiting (a waiting one is never sent), and what the email provider said of them; a suppression of the address is kept as a keyed hash only, so the shop still does not mail it. Erasing an address that holds nothing answers zeros.' +
        " Owners only. Body `{email}` → `{success, erased:{reservations, subscriptions, messages}}`; the records' history and the address's preorder seat counts go too. A message waiting to be sent, even one a dispatcher has claimed and is preparing or one just retried, is never sent afterwards (only one already handed to the provider cannot be called back).",
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
