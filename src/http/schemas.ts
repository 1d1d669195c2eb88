import { z } from 'zod';
import { ALL_ERROR_CODES, type AnswerCode } from './error-codes.ts';

/** What a route documents it answers with one status. */
export interface ResponseDoc {
  description: string;
  schema?: z.ZodType;
  /** The error codes an envelope with this status can carry on this route (filled in by defineRoute). */
  codes?: readonly AnswerCode[];
  /** The media type of the body; absent means `application/json`. */
  contentType?: string;
  headers?: Record<string, string>;
}

const ErrorCodeSchema = z.enum(ALL_ERROR_CODES).describe('What went wrong, for a program to act on (stable; the text may be reworded)');

export const ErrorSchema = z
  .object({
    success: z.literal(false),
    error: z.string(),
    code: ErrorCodeSchema,
    details: z.array(z.object({ field: z.string(), message: z.string() }).meta({ id: 'ErrorDetail' })).optional(),
  })
  .meta({ id: 'ErrorBody' });

const EXPECTED_MESSAGE = 'expectedUpdatedAt must be an ISO 8601 timestamp or null';

/** A settings form's `expectedUpdatedAt`: the `updatedAt` its change was made from (null: none yet), so a colleague's save in between is a 409, never overwritten. */
export const expectedUpdatedAt = (described: string) =>
  z
    .string({ error: EXPECTED_MESSAGE })
    .pipe(z.iso.datetime({ offset: true, error: EXPECTED_MESSAGE }))
    .nullable()
    .optional()
    .describe(described);

/** An item of a bulk request left as it was, and why. */
export const BulkItemErrorSchema = z.object({ id: z.string(), error: z.string(), code: ErrorCodeSchema }).meta({ id: 'BulkItemError' });

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid input',
  401: 'Not signed in: no admin token and no live session, or a refused sign-in',
  403: 'Origin not allowed (a post from another site), or Forbidden (an owner-only route asked by a staff account)',
  404: 'Not found',
  405: 'Method not allowed',
  409: 'Conflicts with the current state',
  413: 'Body larger than 64 KiB',
  422: 'Idempotency-Key reused with a different request',
  429: 'Too many requests (see Retry-After)',
  502: 'A provider the service depends on refused or did not answer',
  500: 'Unexpected failure',
  503: 'Unavailable',
};

/** The documented error responses of a route, all in the envelope shape. */
export function errorResponses(...statuses: number[]): Record<number, ResponseDoc> {
  return Object.fromEntries(
    statuses.map((status) => [status, { description: ERROR_DESCRIPTIONS[status] ?? 'Error', schema: ErrorSchema }]),
  );
}
