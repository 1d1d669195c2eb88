import { inTurn } from '../db/batch-turns.ts';
import type { Database } from '../db/database.ts';
import { CSV_BOM, csvLine } from '../text/csv.ts';
import type { SortRequest } from './admin-fields.ts';
import { activeFilter, archivedSortColumns, LATEST_ARCHIVED_FIRST, NEWEST_FIRST, orderOf } from './lists.ts';
import type { RecordLists, RecordRow, RecordTable } from './record-rows.ts';
import { recordsAfter, type KeysetPosition } from './store.ts';

// A kind's records as CSV for a spreadsheet: the list's filters, its active or its archived
// records, in the list's order. Read a batch at a time by keyset (never OFFSET, never the whole
// table) and made only as fast as the client takes it: the HTTP response asks for the next batch
// once the last has been written to the socket, so 100,000 rows take the memory of a batch or two
// (bench/csv-export.ts).

/** A CSV export's request: the active list's filters and order, or the archived records with `archived`. */
export interface ExportRequest {
  status?: string;
  productSlug?: string;
  q?: string;
  sort?: SortRequest;
  archived?: boolean;
}

/** One column of a kind's CSV export: its header and its text for a record (times in Japan time). */
export interface CsvColumn<T extends RecordTable> {
  header: string;
  value(row: RecordRow<T>, productName: (slug: string) => string): string;
}

/** Rows per read: about 100 KB of CSV, and a few milliseconds of work between two turns of the event loop. */
export const EXPORT_BATCH = 500;

const JAPAN_OFFSET_MS = 9 * 3_600_000;

/** `2026-11-23 15:04:05` in Japan time (which keeps no summer time), as Excel reads a date and time; '' for none. */
export function japanTime(iso: string | null): string {
  if (!iso) return '';
  const time = Date.parse(iso);
  return Number.isNaN(time) ? iso : new Date(time + JAPAN_OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * The CSV of the records the request selects, one chunk per batch: the first holds the byte-order
 * mark, the header and the first batch, so an export that cannot read its records fails before
 * anything is answered. Batches take turns with those of other exports and long reads (batch-turns.ts).
 */
export async function* recordCsv<T extends RecordTable>(
  database: Database,
  lists: RecordLists<T>,
  columns: CsvColumn<T>[],
  request: ExportRequest,
  productName: (slug: string) => string,
): AsyncGenerator<string> {
  let head = CSV_BOM + csvLine(columns.map((column) => column.header));
  const archived = request.archived === true;
  const filter = activeFilter(lists, request);
  const order = archived
    ? orderOf(request.sort, archivedSortColumns(lists.sortColumns), LATEST_ARCHIVED_FIRST)
    : orderOf(request.sort, lists.sortColumns, NEWEST_FIRST);
  let after: KeysetPosition | undefined;
  for (;;) {
    const position = after;
    const [rows, text] = await inTurn(async () => {
      const rows: RecordRow<T>[] = await recordsAfter(database.db, lists.table, filter, archived, order, position, EXPORT_BATCH);
      return [rows, rows.map((row) => csvLine(columns.map((column) => column.value(row, productName)))).join('')] as const;
    });
    yield head + text;
    head = '';
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

/**
 * Chunks as a byte stream that asks for the next only when the response has taken the last
 * (highWaterMark 0: nothing is read ahead), so a slow client holds the export back instead of it
 * piling up in memory. The first chunk is read before the stream is made: a failure there rejects,
 * so the answer is an error rather than a 200 cut short. A client that hangs up cancels it; a
 * failure mid-way (the answer has begun, so no error answer is possible) is logged and cuts the
 * response short.
 */
export async function byteStream(chunks: AsyncGenerator<string>, onError: (error: unknown) => void): Promise<ReadableStream<Uint8Array>> {
  const encoder = new TextEncoder();
  let first: IteratorResult<string> | undefined = await chunks.next();
  // A hang-up cancels the stream while a batch is being read; that batch is then dropped.
  let cancelled = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const { done, value } = first ?? (await chunks.next());
          first = undefined;
          if (cancelled) return;
          if (done) controller.close();
          else controller.enqueue(encoder.encode(value));
        } catch (error) {
          onError(error);
          controller.error(error);
        }
      },
      async cancel() {
        cancelled = true;
        await chunks.return(undefined);
      },
    },
    { highWaterMark: 0 },
  );
}
