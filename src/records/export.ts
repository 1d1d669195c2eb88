import type { Database } from '../db/database.ts';
import { CSV_BOM, csvLine } from '../text/csv.ts';
import { archivedSortColumns, LATEST_ARCHIVED_FIRST, NEWEST_FIRST, orderOf } from './lists.ts';
import type { ExportRequest, RecordKind, RecordRow, RecordTable } from './record-kind.ts';
import { recordsAfter, type KeysetPosition } from './store.ts';

// A kind's records as CSV for a spreadsheet (SPEC §9): the list's filters, its active or its
// archived records, in the list's order. Read a batch at a time by keyset (never OFFSET, never the
// whole table) and made only as fast as the client takes it: the HTTP response asks for the next
// batch once the last has been written to the socket, so 100,000 rows take the memory of a batch
// or two (bench/csv-export.ts).

/** Rows per read: a few hundred kilobytes of CSV. */
export const EXPORT_BATCH = 1_000;

const JAPAN_OFFSET_MS = 9 * 3_600_000;

/** `2026-11-23 15:04:05` in Japan time (which keeps no summer time), as Excel reads a date and time; '' for none. */
export function japanTime(iso: string | null): string {
  if (!iso) return '';
  const time = Date.parse(iso);
  return Number.isNaN(time) ? iso : new Date(time + JAPAN_OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ');
}

/** The CSV of the records the request selects: the byte-order mark and header first, then one chunk of lines per batch. */
export async function* recordCsv<T extends RecordTable>(
  database: Database,
  kind: RecordKind<T>,
  request: ExportRequest,
  productName: (slug: string) => string,
): AsyncGenerator<string> {
  const { columns } = kind.csv;
  yield CSV_BOM + csvLine(columns.map((column) => column.header));
  const archived = request.archived === true;
  const filter = {
    status: request.status || undefined,
    productSlug: request.productSlug || undefined,
    search: request.q ? { text: request.q, columns: kind.searchColumns } : undefined,
  };
  const order = archived
    ? orderOf(request.sort, archivedSortColumns(kind.sortColumns), LATEST_ARCHIVED_FIRST)
    : orderOf(request.sort, kind.sortColumns, NEWEST_FIRST);
  let after: KeysetPosition | undefined;
  for (;;) {
    const rows: RecordRow<T>[] = await recordsAfter(database.db, kind.table, filter, archived, order, after, EXPORT_BATCH);
    if (rows.length > 0) yield rows.map((row) => csvLine(columns.map((column) => column.value(row, productName)))).join('');
    if (rows.length < EXPORT_BATCH) return;
    const last = rows.at(-1)! as Record<string, unknown> & { id: string };
    after = { value: String(last[order.column]), id: last.id };
  }
}

/** `reservations-20261123-1504.csv` (`reservations-archived-…` for the archive), named at the Japan time of the export. */
export function exportFileName(name: string, archived: boolean, now: Date): string {
  const stamp = new Date(now.getTime() + JAPAN_OFFSET_MS).toISOString().slice(0, 16).replace(/[-:]/g, '').replace('T', '-');
  return `${name}${archived ? '-archived' : ''}-${stamp}.csv`;
}
