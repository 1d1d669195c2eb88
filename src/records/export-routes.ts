import { z } from 'zod';
import type { Catalog } from '../catalog/catalog.ts';
import type { Database } from '../db/database.ts';
import { reply } from '../http/reply.ts';
import { requestLog } from '../http/request-context.ts';
import { defineRoute, type Route } from '../http/route.ts';
import { errorResponses } from '../http/schemas.ts';
import { listFilterProblem } from './admin-fields.ts';
import { exportFileName, recordCsv } from './export.ts';
import type { RecordKind, RecordTable } from './record-kind.ts';

/**
 * Chunks as a byte stream that asks for the next only when the response has taken the last
 * (highWaterMark 0: nothing is read ahead), so a slow client holds the export back instead of it
 * piling up in memory. A client that hangs up cancels it; a failure mid-way (the answer has begun,
 * so no error answer is possible) is logged and cuts the response short.
 */
function byteStream(chunks: AsyncGenerator<string>, onError: (error: unknown) => void): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  // A hang-up cancels the stream while a batch is being read; that batch is then dropped.
  let cancelled = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const { done, value } = await chunks.next();
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

/** SPEC §9: a kind's list, filtered as the list is, as a CSV file. */
export function exportRoutes<T extends RecordTable>(
  kind: RecordKind<T>,
  database: Database,
  catalog: Catalog,
  now: () => Date = () => new Date(),
): Route[] {
  return [
    defineRoute({
      method: 'POST',
      path: `${kind.paths.archive}/export`,
      tag: kind.tag,
      summary: `Download ${kind.listKey} as CSV`,
      description: `The ${kind.listKey} the active list's filters select (with \`archived: true\` the archived ones), in the list's order (or \`sort\`'s), as a CSV file for Excel: UTF-8 with a byte-order mark, a header row of Japanese column names, RFC 4180 quoting (CRLF line ends), times in Japan time (\`2026-11-23 15:04:05\`), statuses in Japanese, and a \`'\` before a cell that starts with =, +, -, @, tab or CR, so no cell runs as a formula. Streamed a batch at a time as the client reads: any number of rows in bounded memory. Columns: ${kind.csv.columns.map((c) => c.header).join(', ')}.`,
      cors: 'any',
      admin: true,
      body: kind.schemas.exportBody,
      invalid: listFilterProblem,
      responses: {
        200: {
          description: 'The CSV file',
          schema: z.string(),
          contentType: 'text/csv; charset=utf-8',
          headers: {
            'Content-Disposition': `attachment; filename="${kind.csv.name}-<yyyymmdd>-<hhmm>.csv" (${kind.csv.name}-archived-… for the archive), Japan time`,
          },
        },
        ...errorResponses(400, 401, 413, 500),
      },
      handle: (c, { body }) => {
        const productName = (slug: string) => catalog.bySlug.get(slug)?.name ?? '';
        const lines = byteStream(recordCsv(database, kind, body, productName), (error) =>
          requestLog(c).error({ err: error }, 'CSV export failed after it began'),
        );
        return reply(c, 200, lines, {
          'Content-Type': 'text/csv; charset=utf-8',
          'Content-Disposition': `attachment; filename="${exportFileName(kind.csv.name, body.archived === true, now())}"`,
          'Cache-Control': 'no-store',
        });
      },
    }),
  ];
}
