import { z } from 'zod';
import { staffIdOf } from '../http/admin-auth.ts';
import type { Database } from '../db/database.ts';
import { replyJson } from '../http/reply.ts';
import { defineRoute, refusedAs, type Route } from '../http/route.ts';
import { errorResponses } from '../http/schemas.ts';
import { required } from '../records/admin-fields.ts';
import { listActive } from '../records/lists.ts';
import { recordWithHistory } from '../records/record-detail.ts';
import { bulkChangeStatus } from '../records/bulk-status.ts';
import {
  activeListContract,
  bulkStatusAnswer,
  bulkStatusContract,
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
            '`q` (at most 200 characters) finds a case-insensitive substring of the name, email or id (`%` and `_` match themselves; on SQLite case folds for ASCII only); a number (`1001`, `#1001`, full width too) also finds the reservation of that number, listed first whatever the sort, the other matches after it. With `page` or `pageSize` one page and `total, page, pageSize, totalPages` (as the archive list); without them every match. `sort: {by, order?}` orders by another column (an extension), ties by id in the same direction. An unknown status is `400 Invalid status`.',
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
            'Allowed moves: pending→confirmed|cancelled, confirmed→fulfilled|cancelled|pending, fulfilled→confirmed, cancelled→pending, or the same status (a notes-only edit).',
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
      ...bulkStatusContract(WORDS, { body: BulkStatusBody, response: BulkStatusResponse }),
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
      ...recordPageContract(WORDS, REFUSALS.notFound, DetailResponse),
      handle: async (c, { body }) => {
        const found = await recordWithHistory(database, 'reservations', body.id);
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
        'Removes the reservation, archived or not, and every notification message about it. Owners only, as every erasure of personal data: a `staff` account gets `403 Forbidden`.',
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
