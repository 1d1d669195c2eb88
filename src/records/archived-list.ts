import type { Database } from '../db/database.ts';
import type { ArchivableKind, ArchivableTable } from './record-kind.ts';
import { listArchivedRows, type ArchivedFilter } from './store.ts';

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
export async function listArchived<T extends ArchivableTable>(
  database: Database,
  kind: ArchivableKind<T>,
  request: ArchivedFilter & { page: number; pageSize: number },
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
