import { z } from 'zod';
import { staffIdOf } from '../http/admin-auth.ts';
import type { Database } from '../db/database.ts';
import { replyJson } from '../http/reply.ts';
import { defineRoute, refusedAs, type Route } from '../http/route.ts';
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
import { changeReservationStatus, PREORDER_FULL } from './change-status.ts';
import { eraseReservation } from './erase.ts';
import {
  activeReservation,
  BulkStatusBody,
  BulkStatusResponse,
  DetailResponse,
  ListBody,
  ListResponse,
  REFUSALS,
  RESERVATION_LISTS,
  reservationDetail,
  StatusBody,
  StatusResponse,
  WORDS,
} from './schemas.ts';
import type { Messaging } from '../messaging/messaging.ts';

// Staff's work on reservations: the active list, a status move or notes edit, one reservation's
// page, and erasure. The archive and the CSV export are archive-routes.ts.

const MISSING_ID = 'Missing required fields: id, productSlug';

export const DeleteBody = z.object({ id: required(MISSING_ID), productSlug: required(MISSING_ID) });
export const DeleteResponse = z.object({ success: z.literal(true), deletedId: z.string() });

export interface ReservationAdminDeps {
  database: Database;
  /** Told of each status move, in its transaction, to queue its messages. */
  messaging: Messaging;
  /** Called once a status change has committed, for the messages it queued. */
  wakeDispatcher: () => void;
}

export function reservationAdminRoutes(deps: ReservationAdminDeps): Route[] {
  const { database } = deps;
  return [
    defineRoute({
      path: '/api/admin-reservations-list',
      ...activeListContract(
        WORDS,
        {
          summary: 'List active reservations, newest first',
          description:
            '`q` (at most 200 characters) finds a case-insensitive substring of the name, email or id (`%` and `_` match themselves; on SQLite case folds for ASCII only); a number (`1001`, `#1001`, full width too) also finds the reservation of that number, listed first whatever the sort, the other matches after it. With `page` or `pageSize` one page and `total, page, pageSize, totalPages` (as the archive list); without them every match. `sort: {by, order?}` orders by another column (an extension), ties by id in the same direction. An unknown status is `400 Invalid status`.' +
            ' Body `{status?, productSlug?, q?, page?, pageSize?, sort?}`. `q` folds both sides: NFKC (full and half width alike), case, Latin accents (`Müller` ≡ `muller`), hiragana ≡ katakana, whitespace ignored (`鈴木　一郎` ≡ `鈴木一郎`). ' +
            "The number's reservation is listed first in the archive too; the other matches are an id or address holding the digits. Each reservation is answered with its `number`. " +
            "`sort.by` is one of `createdAt`, `updatedAt`, `name`, `product` (the slug), `status`; `order` `asc` (default) or `desc`; ties by id, so pages never overlap; text sorts by the database's collation (code points on SQLite and on a PostgreSQL made with `C`, as the tests' is). Anything else `400 sort must be {by: …, order?: asc|desc}`. " +
            'Every sort has its index, for the active and the archived rows (50,000 rows: `npm run bench admin-console`).',
        },
        { body: ListBody, response: ListResponse },
      ),
      handle: async (c, { body }) => {
        const { rows, paging } = await listActive(database, RESERVATION_LISTS, body);
        return replyJson(c, 200, { success: true, reservations: rows.map(activeReservation), ...paging });
      },
    }),
    defineRoute({
      path: '/api/admin-reservations-status',
      ...statusChangeContract(
        WORDS,
        {
          summary: 'Change a reservation’s status and notes',
          description:
            'Allowed moves: pending→confirmed|cancelled, confirmed→fulfilled|cancelled|pending, fulfilled→confirmed, cancelled→pending, or the same status (a notes-only edit).' +
            " Body `{id, productSlug, status, notes?, notifyCustomer?, expectedUpdatedAt?}`. A move to confirmed, fulfilled or cancelled (from another status) queues the customer's `reservation-confirmed` / `-fulfilled` / `-cancelled` email in the same transaction, when that template is enabled; `notifyCustomer: false` sends nothing for this move (not a boolean → `400 notifyCustomer must be a boolean`). " +
            'A notes-only edit, a move to pending or a repeated request sends nothing; a move back and forth is two moves and two emails. ' +
            'With `expectedUpdatedAt` (an ISO 8601 time, else `400`), a record changed since → `409 Reservation was changed by someone else` and nothing written, checked under the row lock (no lost updates). ' +
            "A campaign's reservation gives its seat back when cancelled and takes one again when moved back to pending: `409 Preorder is full` when none is left. " +
            'Any other move `409 Invalid status transition: a -> b`; archived `409 Reservation is archived`; absent `404 Reservation not found`. ' +
            "`notes` replaces when given (`''` clears), kept when omitted; the first move away from pending sets `respondedAt` for good.",
        },
        { body: StatusBody, response: StatusResponse },
        { of: REFUSALS, conflicts: [PREORDER_FULL.code] },
      ),
      handle: async (c, { body }) => {
        const result = await changeReservationStatus(deps, { ...body, staffId: staffIdOf(c) });
        if (result.outcome !== 'updated') throw statusChangeError(result, REFUSALS);
        deps.wakeDispatcher();
        return replyJson(c, 200, { success: true, reservation: activeReservation(result.record) });
      },
    }),
    defineRoute({
      path: '/api/admin/reservations/bulk-status',
      ...describedFurther(
        bulkStatusContract(WORDS, { body: BulkStatusBody, response: BulkStatusResponse }),
        'Its codes include `changed_by_someone_else`, `invalid_status_transition`, `reservation_archived` and `preorder_full`.',
      ),
      handle: async (c, { body }) => {
        const { items, ...move } = body;
        const staffId = staffIdOf(c);
        const outcome = await bulkChangeStatus(items, REFUSALS, (item) => changeReservationStatus(deps, { ...item, ...move, staffId }));
        if (outcome.updated.length > 0) deps.wakeDispatcher();
        return replyJson(c, 200, bulkStatusAnswer(outcome.updated.map(activeReservation), outcome.errors));
      },
    }),
    defineRoute({
      path: '/api/admin/reservations/get',
      ...describedFurther(
        recordPageContract(WORDS, REFUSALS.notFound, DetailResponse),
        'The reservation also has `respondedAt`, set by its first move away from pending.',
      ),
      handle: async (c, { body }) => {
        const found = await recordWithHistory(database, 'reservations', body.id, messagesAbout);
        if (!found) throw refusalError(REFUSALS.notFound);
        return replyJson(c, 200, { success: true, reservation: reservationDetail(found.row), history: found.history });
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/admin-reservations-delete',
      tag: WORDS.tag,
      summary: 'Delete a reservation for good (personal-data erasure)',
      description:
        'Removes the reservation, archived or not, and every notification message about it. Owners only, as every erasure of personal data: a `staff` account gets `403 Forbidden`.' +
        " Body `{id, productSlug}`. A campaign's reservation gives its seat back.",
      cors: 'any',
      admin: true,
      ownerOnly: true,
      body: DeleteBody,
      invalid: refusedAs('missing_required_fields', MISSING_ID),
      errors: [REFUSALS.notFound.code],
      responses: {
        200: { description: 'Deleted', schema: DeleteResponse },
        ...errorResponses(400, 401, 403, 404, 413, 500),
      },
      handle: async (c, { body }) => {
        if (!(await eraseReservation(database, body))) throw refusalError(REFUSALS.notFound);
        return replyJson(c, 200, { success: true, deletedId: body.id });
      },
    }),
  ];
}
