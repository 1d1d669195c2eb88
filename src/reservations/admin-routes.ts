import { z } from 'zod';
import type { Database } from '../db/database.ts';
import { AppError } from '../http/app-error.ts';
import { replyJson } from '../http/reply.ts';
import { defineRoute, refusedAs, type Route } from '../http/route.ts';
import { errorResponses } from '../http/schemas.ts';
import { required } from '../records/admin-fields.ts';
import { eraseReservation } from './admin.ts';
import type { RecordKind } from '../records/record-kind.ts';

// The admin route only reservations have; their list, status and archive routes are src/records'.

const MISSING_ID = 'Missing required fields: id, productSlug';

export const DeleteBody = z.object({ id: required(MISSING_ID), productSlug: required(MISSING_ID) });
export const DeleteResponse = z.object({ success: z.literal(true), deletedId: z.string() });

export function reservationEraseRoutes(database: Database, reservationKind: Pick<RecordKind, 'tag' | 'texts' | 'codes'>): Route[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/api/admin-reservations-delete',
      tag: reservationKind.tag,
      summary: 'Delete a reservation for good (personal-data erasure)',
      description: 'Removes the reservation, archived or not, and every notification message about it.',
      cors: 'any',
      admin: true,
      body: DeleteBody,
      invalid: refusedAs('missing_required_fields', MISSING_ID),
      errors: [reservationKind.codes.notFound],
      responses: {
        200: { description: 'Deleted', schema: DeleteResponse },
        ...errorResponses(400, 401, 404, 413, 500),
      },
      handle: async (c, { body }) => {
        if (!(await eraseReservation(database, body))) throw new AppError(reservationKind.codes.notFound, reservationKind.texts.notFound);
        return replyJson(c, 200, { success: true, deletedId: body.id });
      },
    }),
  ];
}
