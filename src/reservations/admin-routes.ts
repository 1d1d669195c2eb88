import { z } from 'zod';
import type { Database } from '../db/database.ts';
import { AppError } from '../http/app-error.ts';
import { replyJson } from '../http/reply.ts';
import { defineRoute, INVALID_PARAMETERS, type Route } from '../http/route.ts';
import { errorResponses } from '../http/schemas.ts';
import { detailsFrom } from '../http/validation.ts';
import { isStorable } from '../records/storable-text.ts';
import { changeReservationStatus, eraseReservation } from './admin.ts';
import { activeReservation, ActiveReservationSchema } from './schemas.ts';
import { RESERVATION_STATUSES } from './status.ts';
import { listActiveReservations } from './store.ts';

const TAG = 'Admin: reservations';
const STATUS_MESSAGE = `status must be one of ${RESERVATION_STATUSES.join(', ')}`;
const INVALID_STATUS = 'Invalid status';
const MISSING_FIELDS = 'Missing required fields: id, productSlug, status';
const MISSING_ID = 'Missing required fields: id, productSlug';
const NOTES_MESSAGE = 'notes must be a string of at most 2000 characters';
const NOT_FOUND = 'Reservation not found';

/** A non-empty string that can be looked up (see isStorable); anything else reads as missing. */
const required = (message: string) => z.string({ error: message }).min(1, message).refine(isStorable, message);

export const ListBody = z.object({
  status: z.union([z.enum(RESERVATION_STATUSES), z.literal('')], { error: STATUS_MESSAGE }).optional().describe("One status; '' or absent for all"),
  productSlug: z.string({ error: 'productSlug must be a string' }).refine(isStorable, 'productSlug must not contain NUL').optional(),
});

export const StatusBody = z.object({
  id: required(MISSING_FIELDS),
  productSlug: required(MISSING_FIELDS),
  status: required(MISSING_FIELDS).pipe(z.enum(RESERVATION_STATUSES, { error: STATUS_MESSAGE })),
  notes: z
    .string({ error: NOTES_MESSAGE })
    .refine((notes) => [...notes].length <= 2000 && isStorable(notes), NOTES_MESSAGE)
    .optional()
    .describe("Replaces the notes when present ('' clears them); absent keeps them"),
});

export const DeleteBody = z.object({ id: required(MISSING_ID), productSlug: required(MISSING_ID) });

export const ListResponse = z.object({ success: z.literal(true), reservations: z.array(ActiveReservationSchema) });
export const StatusResponse = z.object({ success: z.literal(true), reservation: ActiveReservationSchema });
export const DeleteResponse = z.object({ success: z.literal(true), deletedId: z.string() });

/**
 * The status update's 400s, most basic first: a required field missing, then a status that is not
 * one, then bad notes.
 */
function statusUpdateProblem(issues: z.core.$ZodIssue[]): AppError {
  const details = detailsFrom(issues);
  const messages = new Set(issues.map((issue) => issue.message));
  if (messages.has(MISSING_FIELDS)) return new AppError(400, MISSING_FIELDS, { details });
  if (messages.has(STATUS_MESSAGE)) return new AppError(400, INVALID_STATUS, { details });
  return new AppError(400, issues[0]?.message ?? INVALID_PARAMETERS, { details });
}

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
      invalid: (issues) =>
        new AppError(400, issues.some((issue) => issue.path[0] === 'status') ? INVALID_STATUS : INVALID_PARAMETERS, { details: detailsFrom(issues) }),
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
      invalid: statusUpdateProblem,
      responses: {
        200: { description: 'Updated', schema: StatusResponse },
        ...errorResponses(400, 401, 404, 409, 413, 500),
      },
      handle: async (c, { body }) => {
        const result = await changeReservationStatus(database, body);
        switch (result.outcome) {
          case 'not-found':
            throw new AppError(404, NOT_FOUND);
          case 'archived':
            throw new AppError(409, 'Reservation is archived');
          case 'invalid-transition':
            throw new AppError(409, `Invalid status transition: ${result.from} -> ${result.to}`);
          case 'updated':
            return replyJson(c, 200, { success: true, reservation: activeReservation(result.reservation) });
        }
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
      invalid: (issues) => new AppError(400, MISSING_ID, { details: detailsFrom(issues) }),
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
