import type { Database } from '../db/database.ts';
import type { RecordKind, RecordTable } from './record-kind.ts';
import { listActiveRows, listArchivedRows, type RecordFilter } from './store.ts';

// A kind's two lists: its active records, and its archived ones a page at a time.

/** A kind's active records, newest first, as its list shows them. */
export async function listActive<T extends RecordTable>(database: Database, kind: RecordKind<T>, filter: RecordFilter): Promise<Record<string, unknown>[]> {
  const rows = await listActiveRows(database.db, kind.table, filter);
  return rows.map((row) => kind.activeItem(row));
}

export interface ArchivedPage {
  items: Record<string, unknown>[];
  total: number;
  page: number;
  pageSize: number;
  totalPages: number;
}

/** Pages further than this are empty however many records there are; not asked of the store (its OFFSET is 64-bit). */
const MAX_OFFSET = 2 ** 31;

/** One page of a kind's archived records, as its archived list shows them. */
export async function listArchived<T extends RecordTable>(
  database: Database,
  kind: RecordKind<T>,
  request: RecordFilter & { page: number; pageSize: number },
): Promise<ArchivedPage> {
  const { page, pageSize } = request;
  const offset = (page - 1) * pageSize;
  const { rows, total } = await listArchivedRows(
    database.db,
    kind.table,
    { productSlug: request.productSlug, status: request.status },
    offset < MAX_OFFSET ? { limit: pageSize, offset } : undefined,
  );
  return { items: rows.map((row) => kind.archivedItem(row)), total, page, pageSize, totalPages: Math.ceil(total / pageSize) };
}
