import { z } from 'zod';
import { AppError } from '../http/app-error.ts';
import { INVALID_PARAMETERS } from '../http/route.ts';
import { detailsFrom } from '../http/validation.ts';
import type { RecordKind, StatusChangeRefused } from './record-kind.ts';
import { isStorable } from './storable-text.ts';

// The admin fields every record kind (reservations, subscriptions) shares, built from the kind's
// own statuses, and the 400s SPEC §4 gives for them.

export const INVALID_STATUS = 'Invalid status';
export const MISSING_STATUS_FIELDS = 'Missing required fields: id, productSlug, status';

/** A non-empty string that can be looked up (see isStorable); anything else reads as missing. */
export const required = (message: string) => z.string({ error: message }).min(1, message).refine(isStorable, message);

const statusMessage = (statuses: readonly string[]) => `status must be one of ${statuses.join(', ')}`;

/**
 * A record's status as stored and answered: one of the kind's statuses, or a status of the previous
 * system's records, which the store keeps and the API returns as it is (no move leads to one).
 */
export function storedStatus<S extends string>(statuses: readonly [S, ...S[]], legacy: string) {
  return z.union([z.enum(statuses), z.string().describe(legacy)]);
}

/** `{status?, productSlug?}` for an active list: one status ('' or absent for all), one product. */
export function listFilterBody<S extends string>(statuses: readonly [S, ...S[]]) {
  return z.object({
    status: z.union([z.enum(statuses), z.literal('')], { error: statusMessage(statuses) }).optional().describe("One status; '' or absent for all"),
    productSlug: z.string({ error: 'productSlug must be a string' }).refine(isStorable, 'productSlug must not contain NUL').optional(),
  });
}

/** A list filter's 400: `Invalid status` when the status is at fault, else `Invalid parameters`. */
export function listFilterProblem(issues: z.core.$ZodIssue[]): AppError {
  const message = issues.some((issue) => issue.path[0] === 'status') ? INVALID_STATUS : INVALID_PARAMETERS;
  return new AppError(400, message, { details: detailsFrom(issues) });
}

/** The `{id, productSlug, status}` of a status change, each required. */
export function statusChangeFields<S extends string>(statuses: readonly [S, ...S[]]) {
  return {
    id: required(MISSING_STATUS_FIELDS),
    productSlug: required(MISSING_STATUS_FIELDS),
    status: required(MISSING_STATUS_FIELDS).pipe(z.enum(statuses, { error: statusMessage(statuses) })),
  };
}

/**
 * A status change's 400s, most basic first: a required field missing, then a status that is not
 * one, then whatever else the kind's own fields found.
 */
export function statusChangeProblem(issues: z.core.$ZodIssue[]): AppError {
  const details = detailsFrom(issues);
  const messages = issues.map((issue) => issue.message);
  if (messages.includes(MISSING_STATUS_FIELDS)) return new AppError(400, MISSING_STATUS_FIELDS, { details });
  if (messages.some((message) => message.startsWith('status must be one of '))) return new AppError(400, INVALID_STATUS, { details });
  return new AppError(400, messages[0] ?? INVALID_PARAMETERS, { details });
}

/** SPEC §4's answer to a refused status change: 404 for a record not found, 409 otherwise. */
export function statusChangeRefusal(refused: StatusChangeRefused, texts: RecordKind['texts']): AppError {
  switch (refused.outcome) {
    case 'not-found':
      return new AppError(404, texts.notFound);
    case 'archived':
      return new AppError(409, texts.archived);
    case 'invalid-transition':
      return new AppError(409, `Invalid status transition: ${refused.from} -> ${refused.to}`);
    case 'conflict':
      return new AppError(409, refused.error);
  }
}
