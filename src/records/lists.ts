import type { Database } from '../db/database.ts';
import type { SortRequest } from './admin-fields.ts';
import type { ActiveListRequest, ArchivedListRequest, RecordKind, RecordTable } from './record-kind.ts';
import { countActiveRows, listActiveRows, listArchivedRows, type ActiveFilter, type RowOrder } from './store.ts';

// A kind's two lists: its active records (all of them, or a page at a time), and its archived ones
// a page at a time.

export interface Paging {
  total: number;
  page: number;
  pageSize: number;
  totalPages: number;
}

/** A list's default page size (SPEC §4). */
export const DEFAULT_PAGE_SIZE = 20;

/** Pages further than this are empty however many records there are; not asked of the store (its OFFSET is 64-bit). */
const MAX_OFFSET = 2 ** 31;

/** The rows of a page, or undefined for a page past any the store can hold. Every paged list's (SPEC §4, §6.5, §9). */
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

/** The lists' own orders (SPEC §4). */
export const NEWEST_FIRST: RowOrder = { column: 'created_at', direction: 'desc' };
export const LATEST_ARCHIVED_FIRST: RowOrder = { column: 'archived_at', direction: 'desc' };

/**
 * A kind's active records, newest first or in the order asked for, as its list shows them: every match, or with `page` or
 * `pageSize` one page and the paging figures (SPEC §9).
 */
export async function listActive<T extends RecordTable>(
  database: Database,
  kind: RecordKind<T>,
  request: ActiveListRequest,
): Promise<{ items: Record<string, unknown>[]; paging?: Paging }> {
  const filter: ActiveFilter = {
    status: request.status || undefined,
    productSlug: request.productSlug || undefined,
    search: request.q ? { text: request.q, columns: kind.searchColumns } : undefined,
  };
  const order = orderOf(request.sort, kind.sortColumns, NEWEST_FIRST);
  if (request.page === undefined && request.pageSize === undefined) {
    const rows = await listActiveRows(database.db, kind.table, filter, order);
    return { items: rows.map((row) => kind.activeItem(row)) };
  }
  const page = request.page ?? 1;
  const pageSize = request.pageSize ?? DEFAULT_PAGE_SIZE;
  const total = await countActiveRows(database.db, kind.table, filter);
  const window = pageWindow(page, pageSize);
  const rows = total > 0 && window ? await listActiveRows(database.db, kind.table, filter, order, window) : [];
  return { items: rows.map((row) => kind.activeItem(row)), paging: paging(total, page, pageSize) };
}

export interface ArchivedPage extends Paging {
  items: Record<string, unknown>[];
}

/** One page of a kind's archived records, most recently archived first or in the order asked for, as its archived list shows them. */
export async function listArchived<T extends RecordTable>(
  database: Database,
  kind: RecordKind<T>,
  request: ArchivedListRequest & { page: number; pageSize: number },
): Promise<ArchivedPage> {
  const { page, pageSize } = request;
  const order = orderOf(request.sort, archivedSortColumns(kind.sortColumns), LATEST_ARCHIVED_FIRST);
  const { rows, total } = await listArchivedRows(
    database.db,
    kind.table,
    { productSlug: request.productSlug, status: request.status },
    order,
    pageWindow(page, pageSize),
  );
  return { items: rows.map((row) => kind.archivedItem(row)), ...paging(total, page, pageSize) };
}
