import { z } from 'zod';
import { AppError } from '../http/app-error.ts';
import { INVALID_PARAMETERS, type InvalidInput } from '../http/route.ts';
import { detailsFrom } from '../http/validation.ts';
import { codePointLength } from '../text/code-points.ts';
import { isStorable } from '../text/storable-text.ts';

// The admin fields every record kind (reservations, subscriptions) shares, built from the kind's
// own statuses, and the 400s they answer.

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

const PAGE_MESSAGE = 'page must be a positive integer';
const PAGE_SIZE_MESSAGE = 'pageSize must be between 1 and 100';
const QUERY_MESSAGE = 'q must be a string of at most 200 characters';

/** An integer given as a number or as a string of digits. */
const integerLike = (message: string) =>
  z.union([z.number(), z.string()], { error: message }).transform((value, ctx) => {
    const n = typeof value === 'number' ? value : /^\s*[+-]?\d+\s*$/.test(value) ? Number(value) : NaN;
    if (Number.isSafeInteger(n)) return n;
    ctx.addIssue({ code: 'custom', message });
    return z.NEVER;
  });

/** `{page?, pageSize?}` of a paged list (the archived lists, and the active ones when paged). */
export const pagingFields = {
  page: integerLike(PAGE_MESSAGE)
    .transform((page) => Math.max(1, page))
    .optional()
    .describe('1-based; values below 1 read as 1; default 1'),
  pageSize: integerLike(PAGE_SIZE_MESSAGE)
    .refine((size) => size >= 1 && size <= 100, PAGE_SIZE_MESSAGE)
    .optional()
    .describe('1-100, default 20'),
};

/** A list's order: a column by its name in the API, ascending or descending; ties by id in the same direction. */
export interface SortRequest {
  by: string;
  order?: 'asc' | 'desc';
}

/**
 * `sort: {by, order?}` of a list (an extension of the lists): one of `fields`, `order` ascending unless
 * `desc`. Absent: the list's own order (`defaultOrder`).
 */
export function sortField(fields: readonly [string, ...string[]], defaultOrder: string) {
  const message = `sort must be {by: ${fields.join('|')}, order?: asc|desc}`;
  return z
    .object(
      {
        by: z.enum(fields, { error: message }),
        order: z.enum(['asc', 'desc'], { error: message }).optional().describe('Default asc'),
      },
      { error: message },
    )
    .optional()
    .describe(`The order, ties broken by id in the same direction; absent: ${defaultOrder}`);
}

/**
 * `{status?, productSlug?, q?, page?, pageSize?, sort?}` for an active list: one status ('' or absent
 * for all), one product, a search, a page when either paging field is given, and an order.
 */
export function listFilterBody<S extends string>(statuses: readonly [S, ...S[]], searched: string, sorts: readonly [string, ...string[]]) {
  return z.object({
    status: z
      .union([z.enum(statuses), z.literal('')], { error: statusMessage(statuses) })
      .optional()
      .describe("One status; '' or absent for all"),
    productSlug: z.string({ error: 'productSlug must be a string' }).refine(isStorable, 'productSlug must not contain NUL').optional(),
    q: searchField(searched),
    ...pagingFields,
    sort: sortField(sorts, 'createdAt desc'),
  });
}

/**
 * A list's `q`: a substring of the `searched` fields, both sides folded (NFKC, case, Latin accents,
 * hiragana ≡ katakana, whitespace ignored); `%` and `_` match themselves.
 */
export function searchField(searched: string) {
  return z
    .string({ error: QUERY_MESSAGE })
    .refine((q) => codePointLength(q) <= 200 && isStorable(q), QUERY_MESSAGE)
    .optional()
    .describe(
      `A substring of the ${searched}, both folded: full and half width, case, Latin accents (Müller ≡ muller) and hiragana ≡ katakana alike, whitespace ignored (鈴木　一郎 ≡ 鈴木一郎); % and _ match themselves; '' or absent for all`,
    );
}

/**
 * `{status?, productSlug?, q?, sort?, archived?}` for a CSV export: the active list's
 * filters and search, with `archived: true` for the archived records instead, in either list's order.
 */
export function exportFilterBody<S extends string>(
  statuses: readonly [S, ...S[]],
  searched: string,
  sorts: readonly [string, ...string[]],
) {
  return listFilterBody(statuses, searched, sorts)
    .omit({ page: true, pageSize: true })
    .extend({
      // Any stored status for the archive (legacy ones such as `reserved`, as its list takes), one
      // of the kind's own for the active records (checked below, as the active list does).
      status: z
        .string({ error: statusMessage(statuses) })
        .refine(isStorable, statusMessage(statuses))
        .optional()
        .describe("One status ('' or absent for all): one of the kind's for the active records, any stored one for the archive"),
      sort: sortField(
        sorts,
        'the list’s own: createdAt desc, or archivedAt desc for the archived records (archivedAt sorts the archived ones only)',
      ),
      archived: z
        .boolean({ error: 'archived must be a boolean' })
        .optional()
        .describe('true: the archived records instead of the active ones'),
    })
    .superRefine((body, context) => {
      const known: readonly string[] = statuses;
      if (!body.archived && body.status && !known.includes(body.status))
        context.addIssue({ code: 'custom', path: ['status'], message: statusMessage(statuses) });
    });
}

/** A list filter's 400: `Invalid status` when the status is at fault, the field's own message for the search, paging, sort and archive flag, else `Invalid parameters`. */
export const listFilterProblem: InvalidInput = {
  codes: ['invalid_status', 'invalid_parameters'],
  error(issues) {
    const details = detailsFrom(issues);
    if (issues.some((issue) => issue.path[0] === 'status')) return new AppError('invalid_status', INVALID_STATUS, { details });
    const own = issues.find((issue) => ['q', 'page', 'pageSize', 'sort', 'archived'].includes(String(issue.path[0])));
    return new AppError('invalid_parameters', own?.message ?? INVALID_PARAMETERS, { details });
  },
};

const EXPECTED_UPDATED_AT_MESSAGE = 'expectedUpdatedAt must be an ISO 8601 timestamp';

/** The `{id, productSlug, status}` of a status change, each required, and the optional `expectedUpdatedAt` (no lost updates). */
export function statusChangeFields<S extends string>(statuses: readonly [S, ...S[]]) {
  return {
    id: required(MISSING_STATUS_FIELDS),
    productSlug: required(MISSING_STATUS_FIELDS),
    status: required(MISSING_STATUS_FIELDS).pipe(z.enum(statuses, { error: statusMessage(statuses) })),
    expectedUpdatedAt: z
      .string({ error: EXPECTED_UPDATED_AT_MESSAGE })
      .pipe(z.iso.datetime({ offset: true, error: EXPECTED_UPDATED_AT_MESSAGE }))
      .optional()
      .describe("The record's updatedAt as last seen; when it has changed since, 409 and nothing is written"),
  };
}

/**
 * A status change's 400s, most basic first: a required field missing, then a status that is not
 * one, then whatever else the kind's own fields found.
 */
export const statusChangeProblem: InvalidInput = {
  codes: ['missing_required_fields', 'invalid_status', 'invalid_parameters'],
  error(issues) {
    const details = detailsFrom(issues);
    const messages = issues.map((issue) => issue.message);
    if (messages.includes(MISSING_STATUS_FIELDS)) return new AppError('missing_required_fields', MISSING_STATUS_FIELDS, { details });
    if (messages.some((message) => message.startsWith('status must be one of ')))
      return new AppError('invalid_status', INVALID_STATUS, { details });
    return new AppError('invalid_parameters', messages[0] ?? INVALID_PARAMETERS, { details });
  },
};
