import { z } from 'zod';
import { AppError } from '../http/app-error.ts';
import { INVALID_PARAMETERS, type InvalidInput } from '../http/route.ts';
import { BulkItemErrorSchema } from '../http/schemas.ts';
import { detailsFrom } from '../http/validation.ts';
import { pagingFields, required, searchField, sortField } from './admin-fields.ts';
import { MAX_BULK_ITEMS } from './bulk-archive.ts';
import { HistoryEntrySchema } from './history.ts';
import { archivedSortColumns, sortNames } from './lists.ts';
import { isStorable } from '../text/storable-text.ts';

// What the two kinds' admin routes take and answer with alike, built from each kind's own item
// schemas. A list or item sits under the kind's own key (`reservations`, `reservation`), typed with
// that key so the typed client can name it: TypeScript widens a computed key to `string`.

/** A kind's active records, with the paging figures when a page was asked for. */
export function activeListResponse<K extends string, I extends z.ZodType>(listKey: K, item: I) {
  const figure = (description: string) => z.number().int().optional().describe(`${description}; only when page or pageSize was given`);
  return z.object({
    success: z.literal(true),
    ...({ [listKey]: z.array(item) } as Record<K, z.ZodArray<I>>),
    total: figure('Records matching the filters'),
    page: figure('This page, 1-based'),
    pageSize: figure('Records per page'),
    totalPages: figure('Pages in all'),
  });
}

/** A record after its status change. */
export function statusChangeResponse<K extends string, I extends z.ZodType>(itemKey: K, item: I) {
  return z.object({ success: z.literal(true), ...({ [itemKey]: item } as Record<K, I>) });
}

export const MISSING_ID = 'Missing required field: id';

export const RecordGetBody = z.object({ id: required(MISSING_ID).describe('The record’s id (ご予約番号 for a reservation)') });

/** One record, archived or not, and its history oldest first. */
export function recordDetailResponse<K extends string, I extends z.ZodType>(itemKey: K, item: I) {
  return z.object({
    success: z.literal(true),
    ...({ [itemKey]: item } as Record<K, I>),
    history: z
      .array(HistoryEntrySchema)
      .describe(
        'Its status moves, memo edits, archiving and restoring, staff’s retries of its messages, and its messages as they stand, oldest first',
      ),
  });
}

const IDS_REQUIRED = 'ids array is required';

export const BulkBody = z.object({
  ids: z
    .array(z.unknown(), { error: IDS_REQUIRED })
    .min(1, 'ids array cannot be empty')
    .max(MAX_BULK_ITEMS, `ids array cannot exceed ${MAX_BULK_ITEMS} items`)
    .describe('The records, as {id, productSlug}; each is handled on its own'),
});

const BulkErrors = z.array(BulkItemErrorSchema).optional().describe('Items left unchanged, and why; absent when none');

export const ArchiveResponse = z.object({
  success: z.literal(true),
  archivedCount: z.number().int(),
  archivedIds: z.array(z.string()),
  errors: BulkErrors,
});
export const UnarchiveResponse = z.object({
  success: z.literal(true),
  unarchivedCount: z.number().int(),
  unarchivedIds: z.array(z.string()),
  errors: BulkErrors,
});

/** A filter value: any string PostgreSQL can hold (see isStorable); empty means no filter. */
const filterString = (field: string) =>
  z
    .string({ error: `${field} must be a string` })
    .refine(isStorable, `${field} must not contain NUL`)
    .optional();

/** `{page?, pageSize?, productSlug?, status?, sort?}` of a kind's archived list, sorted by its `sortColumns` or archivedAt. */
export function archivedListBody(sortColumns: Readonly<Record<string, string>>, searched: string) {
  return z.object({
    ...pagingFields,
    q: searchField(searched),
    productSlug: filterString('productSlug'),
    status: filterString('status').describe('The status held when archived; any value, including legacy ones'),
    sort: sortField(sortNames(archivedSortColumns(sortColumns)), 'archivedAt desc'),
  });
}

/** One page of archived records. */
export function archivedListResponse<K extends string, I extends z.ZodType>(listKey: K, item: I) {
  return z.object({
    success: z.literal(true),
    ...({ [listKey]: z.array(item) } as Record<K, z.ZodArray<I>>),
    total: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
    totalPages: z.number().int(),
  });
}

/** The first problem is the error; every field at fault is in the details. */
export const firstProblem: InvalidInput = {
  codes: ['invalid_parameters'],
  error: (issues) => new AppError('invalid_parameters', issues[0]?.message ?? INVALID_PARAMETERS, { details: detailsFrom(issues) }),
};

/** A bulk status move's answer: the records moved, as `item` describes one, and the items left as they were. */
export function bulkStatusResponse<T extends z.ZodType>(item: T) {
  return z.object({
    success: z.literal(true),
    updatedCount: z.number().int(),
    updated: z.array(item).describe('The records moved (or already on the status), as they now are'),
    errors: z.array(BulkItemErrorSchema).optional().describe('Items left as they were, and why; absent when none'),
  });
}
