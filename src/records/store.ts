import type { Kysely, Selectable } from 'kysely';
import type { Dialect } from '../db/database.ts';
import type { Tables } from '../db/schema.ts';
import type { ArchivableTable } from './record-kind.ts';

// The archive's SQL, written once for every archivable table: they share these columns.

interface ArchivableColumns {
  id: string;
  product_slug: string;
  status: string;
  created_at: string;
  archived_at: string | null;
}

/** The archivable tables seen through their shared columns only. */
function records(db: Kysely<Tables>): Kysely<Record<ArchivableTable, ArchivableColumns>> {
  return db as unknown as Kysely<Record<ArchivableTable, ArchivableColumns>>;
}

export interface ArchiveState {
  id: string;
  productSlug: string;
  archivedAt: string | null;
}

/** The archive state of the records with these ids; locked until the transaction ends on PostgreSQL. */
export async function findArchiveStates(db: Kysely<Tables>, dialect: Dialect, table: ArchivableTable, ids: string[]): Promise<ArchiveState[]> {
  if (ids.length === 0) return [];
  let query = records(db).selectFrom(table).select(['id', 'product_slug', 'archived_at']).where('id', 'in', ids);
  if (dialect === 'postgres') query = query.forUpdate();
  const rows = await query.execute();
  return rows.map((row) => ({ id: row.id, productSlug: row.product_slug, archivedAt: row.archived_at }));
}

/** Archives (`archivedAt` an ISO time) or unarchives (`null`) the records with these ids. */
export async function setArchivedAt(db: Kysely<Tables>, table: ArchivableTable, ids: string[], archivedAt: string | null): Promise<void> {
  if (ids.length === 0) return;
  await records(db).updateTable(table).set({ archived_at: archivedAt }).where('id', 'in', ids).execute();
}

export interface ArchivedFilter {
  productSlug?: string;
  status?: string;
}

/** One page of archived records, most recently archived first (ties: id descending), and how many match. */
export async function listArchivedRows<T extends ArchivableTable>(
  db: Kysely<Tables>,
  table: T,
  filter: ArchivedFilter,
  page: { limit: number; offset: number } | undefined,
): Promise<{ rows: Selectable<Tables[T]>[]; total: number }> {
  const shared: ArchivableTable = table;
  let matching = records(db).selectFrom(shared).where('archived_at', 'is not', null);
  if (filter.productSlug) matching = matching.where('product_slug', '=', filter.productSlug);
  if (filter.status) matching = matching.where('status', '=', filter.status);
  const counted = await matching.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const total = Number(counted.total);
  if (!page || total === 0) return { rows: [], total };
  const rows = await matching.selectAll().orderBy('archived_at', 'desc').orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute();
  // selectAll() returned every column of `table`; the shared-column view above only typed five of them.
  return { rows: rows as unknown as Selectable<Tables[T]>[], total };
}
