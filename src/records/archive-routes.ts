import { z } from 'zod';
import type { Database } from '../db/database.ts';
import { AppError } from '../http/app-error.ts';
import { replyJson } from '../http/reply.ts';
import { defineRoute, INVALID_PARAMETERS, type InvalidInput, type Route } from '../http/route.ts';
import { BulkItemErrorSchema, errorResponses } from '../http/schemas.ts';
import { detailsFrom } from '../http/validation.ts';
import { pagingFields, sortField } from './admin-fields.ts';
import { isStorable } from './storable-text.ts';
import type { RecordKind, RecordTable } from './record-kind.ts';
import { archivedSortColumns, DEFAULT_PAGE_SIZE, listArchived, sortNames } from './lists.ts';
import { bulkSetArchived, MAX_BULK_ITEMS, type BulkAction } from './bulk-archive.ts';

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
const BULK_RESPONSES = { archive: ArchiveResponse, unarchive: UnarchiveResponse };

/** A filter value: any string PostgreSQL can hold (see isStorable); empty means no filter. */
const filterString = (field: string) =>
  z
    .string({ error: `${field} must be a string` })
    .refine(isStorable, `${field} must not contain NUL`)
    .optional();

/** `{page?, pageSize?, productSlug?, status?, sort?}` of a kind's archived list, sorted by its `sortColumns` or archivedAt. */
export function archivedListBody(sortColumns: Readonly<Record<string, string>>) {
  return z.object({
    ...pagingFields,
    productSlug: filterString('productSlug'),
    status: filterString('status').describe('The status held when archived; any value, including legacy ones'),
    sort: sortField(sortNames(archivedSortColumns(sortColumns)), 'archivedAt desc (SPEC §4)'),
  });
}

/**
 * One page of archived records, under the kind's own key (`reservations`, `subscriptions`). Typed
 * with that key so the typed client can name it: TypeScript widens a computed key to `string`.
 */
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

/** Bulk archive, bulk unarchive and the archived list of one record kind: SPEC §4. */
export function archiveRoutes<T extends RecordTable>(kind: RecordKind<T>, database: Database): Route[] {
  const bulkRoute = (action: BulkAction) => {
    const counted = action === 'archive' ? 'archived' : 'unarchived';
    return defineRoute({
      method: 'POST',
      path: `${kind.paths.archive}/${action}`,
      tag: kind.tag,
      summary: `${action === 'archive' ? 'Archive' : 'Unarchive'} ${kind.listKey} in bulk`,
      description: `Each item is handled on its own: failures are listed in errors and the others succeed (200). The batch is one transaction. At most ${MAX_BULK_ITEMS} items.`,
      cors: 'any',
      admin: true,
      body: BulkBody,
      invalid: firstProblem,
      responses: {
        200: {
          description: 'Every item handled',
          schema: BULK_RESPONSES[action],
        },
        ...errorResponses(400, 401, 413, 500),
      },
      handle: async (c, { body }) => {
        const outcome = await bulkSetArchived(database, kind, action, body.ids, new Date().toISOString());
        return replyJson(c, 200, {
          success: true,
          [`${counted}Count`]: outcome.doneIds.length,
          [`${counted}Ids`]: outcome.doneIds,
          ...(outcome.errors.length > 0 ? { errors: outcome.errors } : {}),
        });
      },
    });
  };

  return [
    bulkRoute('archive'),
    bulkRoute('unarchive'),
    defineRoute({
      method: 'POST',
      path: `${kind.paths.archive}/archives/list`,
      tag: kind.tag,
      summary: `List archived ${kind.listKey}, most recently archived first`,
      description: `Filtered by \`productSlug\` and \`status\`; 20 a page by default (\`pageSize\` 1–100). \`sort\` (an extension) orders by ${sortNames(archivedSortColumns(kind.sortColumns)).join(', ')}, ties by id.`,
      cors: 'any',
      admin: true,
      body: kind.schemas.archivedListBody,
      invalid: firstProblem,
      responses: {
        200: {
          description: 'One page of archived records',
          schema: archivedListResponse(kind.listKey, kind.schemas.archivedItem),
        },
        ...errorResponses(400, 401, 413, 500),
      },
      handle: async (c, { body }) => {
        const page = await listArchived(database, kind, {
          page: body.page ?? 1,
          pageSize: body.pageSize ?? DEFAULT_PAGE_SIZE,
          productSlug: body.productSlug || undefined,
          status: body.status || undefined,
          sort: body.sort,
        });
        const { items, ...paging } = page;
        return replyJson(c, 200, { success: true, [kind.listKey]: items, ...paging });
      },
    }),
  ];
}
