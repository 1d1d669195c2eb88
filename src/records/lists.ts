import type { Database } from '../db/database.ts';
import type { SortRequest } from './admin-fields.ts';
import type { RecordLists, RecordRow, RecordTable } from './record-rows.ts';
import { countActiveRows, listActiveRows, listArchivedRows, type ActiveFilter, type RowOrder } from './store.ts';
import { foldForMatching } from '../text/normalize.ts';

// A kind's two lists: its active records (all of them, or a page at a time), and its archived ones
// a page at a time. They answer rows; the kind's route shows them its own way.

export interface Paging {
  total: number;
  page: number;
  pageSize: number;
  totalPages: number;
}

/** An active list's request: filters, a search, a page when either paging field is given, an order. */
export interface ActiveListRequest {
  status?: string;
  productSlug?: string;
  q?: string;
  page?: number;
  pageSize?: number;
  sort?: SortRequest;
}

/** An archived list's request: filters, a page and an order. */
export interface ArchivedListRequest {
  status?: string;
  productSlug?: string;
  q?: string;
  page?: number;
  pageSize?: number;
  sort?: SortRequest;
}

/** A list's default page size. */
export const DEFAULT_PAGE_SIZE = 20;

/** Pages further than this are empty however many records there are; not asked of the store (its OFFSET is 64-bit). */
const MAX_OFFSET = 2 ** 31;

/** The rows of a page, or undefined for a page past any the store can hold. Every paged list's (records, messages). */
export function pageWindow(page: number, pageSize: number): { limit: number; offset: number } | undefined {
  const offset = (page - 1) * pageSize;
  return offset < MAX_OFFSET ? { limit: pageSize, offset } : undefined;
}

export const paging = (total: number, page: number, pageSize: number): Paging => ({
  total,
  page,
  pageSize,
  totalPages: Math.ceil(total / pageSize),
});

/** The names of these sort columns, as the schemas list them. */
export const sortNames = (columns: Readonly<Record<string, string>>) => Object.keys(columns) as [string, ...string[]];

/** A kind's sort columns in its archived list: its own, and when each was archived. */
export const archivedSortColumns = (columns: Readonly<Record<string, string>>): Readonly<Record<string, string>> => ({
  ...columns,
  archivedAt: 'archived_at',
});

/** The order asked for, as a column of `columns` (the schema admitted only their names), or the list's own. */
export function orderOf(sort: SortRequest | undefined, columns: Readonly<Record<string, string>>, fallback: RowOrder): RowOrder {
  if (!sort || !Object.hasOwn(columns, sort.by)) return fallback;
  return { column: columns[sort.by]!, direction: sort.order ?? 'asc' };
}

/** The lists' own orders. */
export const NEWEST_FIRST: RowOrder = { column: 'created_at', direction: 'desc' };
export const LATEST_ARCHIVED_FIRST: RowOrder = { column: 'archived_at', direction: 'desc' };

/** A list's filter (active or archived), its search in the kind's own columns. */
export function activeFilter(lists: RecordLists, request: Pick<ActiveListRequest, 'status' | 'productSlug' | 'q'>): ActiveFilter {
  return {
    status: request.status || undefined,
    productSlug: request.productSlug || undefined,
    search: request.q
      ? { text: foldForMatching(request.q), columns: lists.searchColumns, number: lists.numbered ? recordNumberIn(request.q) : undefined }
      : undefined,
  };
}

/** `1001` or `#1001` (full width too, spaces around): the number a customer quotes; undefined for anything else. */
export function recordNumberIn(q: string): number | undefined {
  const match = /^#?(\d{1,9})$/.exec(q.normalize('NFKC').trim());
  return match ? Number(match[1]) : undefined;
}

/**
 * A kind's active records, newest first or in the order asked for: every match, or with `page` or
 * `pageSize` one page and the paging figures.
 */
export async function listActive<T extends RecordTable>(
  database: Database,
  lists: RecordLists<T>,
  request: ActiveListRequest,
): Promise<{ rows: RecordRow<T>[]; paging?: Paging }> {
  const filter = activeFilter(lists, request);
  const order = orderOf(request.sort, lists.sortColumns, NEWEST_FIRST);
  if (request.page === undefined && request.pageSize === undefined)
    return { rows: await listActiveRows(database.db, lists.table, filter, order) };
  const page = request.page ?? 1;
  const pageSize = request.pageSize ?? DEFAULT_PAGE_SIZE;
  const total = await countActiveRows(database.db, lists.table, filter);
  const window = pageWindow(page, pageSize);
  const rows = total > 0 && window ? await listActiveRows(database.db, lists.table, filter, order, window) : [];
  return { rows, paging: paging(total, page, pageSize) };
}

/** One page of a kind's archived records, most recently archived first or in the order asked for. */
export async function listArchived<T extends RecordTable>(
  database: Database,
  lists: RecordLists<T>,
  request: ArchivedListRequest,
): Promise<{ rows: RecordRow<T>[]; paging: Paging }> {
  const page = request.page ?? 1;
  const pageSize = request.pageSize ?? DEFAULT_PAGE_SIZE;
  const order = orderOf(request.sort, archivedSortColumns(lists.sortColumns), LATEST_ARCHIVED_FIRST);
  const { rows, total } = await listArchivedRows(database.db, lists.table, activeFilter(lists, request), order, pageWindow(page, pageSize));
  return { rows, paging: paging(total, page, pageSize) };
}
