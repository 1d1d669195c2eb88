import { z } from 'zod';
import type { Database } from '../db/database.ts';
import { AppError } from '../http/app-error.ts';
import { replyJson } from '../http/reply.ts';
import { defineRoute, type Route } from '../http/route.ts';
import { errorResponses } from '../http/schemas.ts';
import { listFilterBody, listFilterProblem, required, statusChangeFields, statusChangeProblem, statusChangeRefusal } from '../records/admin-fields.ts';
import { isStorable } from '../records/storable-text.ts';
import { codePointLength } from '../text/code-points.ts';
import { changeReservationStatus, eraseReservation } from './admin.ts';
import { activeReservation, ActiveReservationSchema } from './schemas.ts';
import { RESERVATION_STATUSES } from './status.ts';
import { listActiveReservations } from './store.ts';

const TAG = 'Admin: reservations';
const MISSING_ID = 'Missing required fields: id, productSlug';
const NOTES_MESSAGE = 'notes must be a string of at most 2000 characters';
const NOT_FOUND = 'Reservation not found';

export const ListBody = listFilterBody(RESERVATION_STATUSES);

export const StatusBody = z.object({
  ...statusChangeFields(RESERVATION_STATUSES),
  notes: z
    .string({ error: NOTES_MESSAGE })
    .refine((notes) => codePointLength(notes) <= 2000 && isStorable(notes), NOTES_MESSAGE)
    .optional()
    .describe("Replaces the notes when present ('' clears them); absent keeps them"),
});

export const DeleteBody = z.object({ id: required(MISSING_ID), productSlug: required(MISSING_ID) });

export const ListResponse = z.object({ success: z.literal(true), reservations: z.array(ActiveReservationSchema) });
export const StatusResponse = z.object({ success: z.literal(true), reservation: ActiveReservationSchema });
export const DeleteResponse = z.object({ success: z.literal(true), deletedId: z.string() });

export function adminReservationRoutes(database: Database): Route[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/api/admin-reservations-list',
      tag: TAG,
      summary: 'List active reservations, newest first',
      cors: 'any',
      admin: true,
      body: ListBody,
      invalid: listFilterProblem,
      responses: {
        200: { description: 'Active reservations', schema: ListResponse },
        ...errorResponses(400, 401, 413, 500),
      },
      handle: async (c, { body }) => {
        const rows = await listActiveReservations(database.db, { status: body.status || undefined, productSlug: body.productSlug || undefined });
        return replyJson(c, 200, { success: true, reservations: rows.map(activeReservation) });
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/admin-reservations-status',
      tag: TAG,
      summary: 'Change a reservation’s status and notes',
      description: 'Allowed moves: pending→confirmed|cancelled, confirmed→fulfilled|cancelled|pending, fulfilled→confirmed, cancelled→pending, or the same status (a notes-only edit).',
      cors: 'any',
      admin: true,
      body: StatusBody,
      invalid: statusChangeProblem,
      responses: {
        200: { description: 'Updated', schema: StatusResponse },
        ...errorResponses(400, 401, 404, 409, 413, 500),
      },
      handle: async (c, { body }) => {
        const result = await changeReservationStatus(database, body);
        if (result.outcome !== 'updated') throw statusChangeRefusal(result, { notFound: NOT_FOUND, archived: 'Reservation is archived' });
        return replyJson(c, 200, { success: true, reservation: activeReservation(result.reservation) });
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/admin-reservations-delete',
      tag: TAG,
      summary: 'Delete a reservation for good (personal-data erasure)',
      description: 'Removes the reservation, archived or not, and every notification message about it.',
      cors: 'any',
      admin: true,
      body: DeleteBody,
      invalid: MISSING_ID,
      responses: {
        200: { description: 'Deleted', schema: DeleteResponse },
        ...errorResponses(400, 401, 404, 413, 500),
      },
      handle: async (c, { body }) => {
        if (!(await eraseReservation(database, body))) throw new AppError(404, NOT_FOUND);
        return replyJson(c, 200, { success: true, deletedId: body.id });
      },
    }),
  ];
}
