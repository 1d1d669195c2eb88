import type { Context } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../http/app-env.ts';
import type { AnswerCode } from '../http/error-codes.ts';
import { reply } from '../http/reply.ts';
import { requestLog } from '../http/request-context.ts';
import { refusedAs } from '../http/route.ts';
import { errorResponses } from '../http/schemas.ts';
import { listFilterProblem, statusChangeProblem } from './admin-fields.ts';
import { MAX_BULK_ITEMS, type BulkAction, type BulkItemError, type BulkOutcome } from './bulk-archive.ts';
import { byteStream, exportFileName } from './export.ts';
import { archivedSortColumns, sortNames } from './lists.ts';
import type { RecordRefusals, Refusal } from './record-rows.ts';
import { archivedListResponse, ArchiveResponse, BulkBody, firstProblem, MISSING_ID, RecordGetBody, UnarchiveResponse } from './schemas.ts';
import { statusChangeCodes } from './status-checks.ts';

// The contracts of the admin routes both record kinds have (method, schemas, documentation, error
// codes), and the answers they give alike. A kind's route file declares each route with its own
// path and handler and spreads the contract in: `defineRoute({ path, ...activeListContract(…), handle })`.

/** Words of a kind's routes: their OpenAPI tag, and the plural and singular the summaries use. */
export interface KindWords {
  tag: string;
  /** 'reservations': also the list's key in list answers. */
  listKey: string;
  /** 'reservation': also the record's key in a record's answer. */
  itemKey: string;
}

const ADMIN_POST = { method: 'POST', cors: 'any', admin: true } as const;

/** The active list: `{status?, productSlug?, q?, page?, pageSize?, sort?}`. */
export function activeListContract<B extends z.ZodType>(
  words: KindWords,
  docs: { summary: string; description: string },
  schemas: { body: B; response: z.ZodType },
) {
  return {
    ...ADMIN_POST,
    ...docs,
    tag: words.tag,
    body: schemas.body,
    invalid: listFilterProblem,
    responses: {
      200: { description: `Active ${words.listKey}`, schema: schemas.response },
      ...errorResponses(400, 401, 413, 500),
    },
  };
}

/** A status change: `{id, productSlug, status, expectedUpdatedAt?, …the kind's own}`, refused with the kind's words. */
export function statusChangeContract<B extends z.ZodType>(
  words: KindWords,
  docs: { summary: string; description: string },
  schemas: { body: B; response: z.ZodType },
  refusals: { of: RecordRefusals; conflicts: readonly AnswerCode[] },
) {
  return {
    ...ADMIN_POST,
    ...docs,
    tag: words.tag,
    body: schemas.body,
    invalid: statusChangeProblem,
    errors: statusChangeCodes(refusals.of, refusals.conflicts),
    responses: {
      200: { description: 'Updated', schema: schemas.response },
      ...errorResponses(400, 401, 404, 409, 413, 500),
    },
  };
}

/** One record with its history (`{id}`), archived or not: the console's page of a record. */
export function recordPageContract(words: KindWords, notFound: Refusal<AnswerCode>, response: z.ZodType) {
  return {
    ...ADMIN_POST,
    tag: words.tag,
    summary: `One ${words.itemKey}, archived or not, with its history`,
    description: `For the console's page of a record: the record with its archive state, and every status move (who: staff or the customer; whether the customer was emailed), memo edit, archiving and restoring, oldest first, each written in the change's own transaction. The messages about it are in POST /api/admin/messages/list ({recordId}). An unknown id is \`404 ${notFound.error}\`. Answers \`{success, ${words.itemKey}, history}\` (an extension): the ${words.itemKey} with \`archivedAt\` (null while active), and its history oldest first: \`{type: 'status', at, actor, from, to, customerEmailed}\` (a move; \`customerEmailed\` whether it queued the customer's email), \`{type: 'memo', at, actor, before, after}\`, \`{type: 'archived' | 'unarchived', at, actor}\`, staff's resend of one of its given-up messages \`{type: 'retry', at, actor, messageId}\`, and each message about it as it stands now, at the time it was queued (after the change that queued it): \`{type: 'message', at, messageId, channel, kind, status, attempts, sentAt, to, lastError}\` (\`to\` and \`lastError\`, as the message log shows them, are an extension); \`actor\` is \`staff\` (admin API, console) or \`customer\` (their own page); every entry also has \`staffId\` and \`staffName\`: the signed-in account that made the change or the resend (its name as it is now, a disabled account's too), null for the customer, for the bearer token and for a message. The history is table \`record_history\`, and erasing the ${words.itemKey} erases it with its messages. Body \`{id}\`; a missing id is \`400 ${MISSING_ID}\`.`,
    body: RecordGetBody,
    invalid: refusedAs('missing_required_fields', MISSING_ID),
    errors: [notFound.code],
    responses: {
      200: { description: `The ${words.itemKey} and its history`, schema: response },
      ...errorResponses(400, 401, 404, 413, 500),
    },
  };
}

/** Bulk archive or unarchive: `{ids: [{id, productSlug}]}`, each item handled on its own. */
export function bulkArchiveContract(words: KindWords, action: BulkAction) {
  return {
    ...ADMIN_POST,
    tag: words.tag,
    summary: `${action === 'archive' ? 'Archive' : 'Unarchive'} ${words.listKey} in bulk`,
    description: `Each item is handled on its own: failures are listed in errors and the others succeed (200). The batch is one transaction. At most ${MAX_BULK_ITEMS} items (\`{ids:[{id, productSlug}]}\`, 1–${MAX_BULK_ITEMS}). An item's failure is \`${words.itemKey[0]!.toUpperCase()}${words.itemKey.slice(1)} not found\`, \`… already archived\`, \`… is not archived\` or \`Invalid item\`.`,
    body: BulkBody,
    invalid: firstProblem,
    responses: {
      200: { description: 'Every item handled', schema: action === 'archive' ? ArchiveResponse : UnarchiveResponse },
      ...errorResponses(400, 401, 413, 500),
    },
  };
}

/** A bulk status move: `{items: [{id, productSlug, expectedUpdatedAt?}], status, …the kind's own}`, each item moved on its own. */
export function bulkStatusContract<B extends z.ZodType>(words: KindWords, schemas: { body: B; response: z.ZodType }) {
  return {
    ...ADMIN_POST,
    tag: words.tag,
    summary: `Move ${words.listKey} to a status in bulk`,
    description: `Each item is moved as POST ${words.itemKey === 'reservation' ? '/api/admin-reservations-status' : '/api/admin-notify-status'} would move it, in its own transaction, one after another: an item refused (not found, archived, changed since its \`expectedUpdatedAt\`, a move the status table does not allow, or the kind's own conflicts) is listed in errors with the code that route would answer, and the others are moved (200). A record named twice is moved once. At most ${MAX_BULK_ITEMS} items; more are sent in several requests (the console moves any number of selected records ${MAX_BULK_ITEMS} a request). Answers \`{success, updatedCount, updated: [${words.itemKey}…], errors?: [{id, error, code}]}\`; each item moved keeps that route's checks, email and history; a malformed item is \`invalid_item\`. Body \`{items: [{id, productSlug, expectedUpdatedAt?}] (1–${MAX_BULK_ITEMS}), status}\` and the status route's own options. Bad \`status\` or \`items\` → 400 as the status route.`,
    body: schemas.body,
    invalid: statusChangeProblem,
    responses: {
      200: {
        description: 'Every item handled',
        schema: schemas.response,
      },
      ...errorResponses(400, 401, 413, 500),
    },
  };
}

/** A shared contract with what only this kind's route adds to its description. */
export function describedFurther<C extends { description: string }>(contract: C, more: string): C {
  return { ...contract, description: `${contract.description} ${more}` };
}

/** A bulk status move's answer: the records moved, and the items left as they were. */
export function bulkStatusAnswer<T>(updated: T[], errors: BulkItemError[]) {
  return { success: true as const, updatedCount: updated.length, updated, ...(errors.length > 0 ? { errors } : {}) };
}

/** A bulk archive's answer: what was done, and the items left as they were. */
export function bulkArchiveAnswer(action: BulkAction, outcome: BulkOutcome) {
  const counted = action === 'archive' ? 'archived' : 'unarchived';
  return {
    success: true,
    [`${counted}Count`]: outcome.doneIds.length,
    [`${counted}Ids`]: outcome.doneIds,
    ...(outcome.errors.length > 0 ? { errors: outcome.errors } : {}),
  };
}

/** The archived list: `{page?, pageSize?, productSlug?, status?, sort?}`, most recently archived first. */
export function archivedListContract<B extends z.ZodType>(
  words: KindWords,
  sortColumns: Readonly<Record<string, string>>,
  schemas: { body: B; item: z.ZodType },
) {
  return {
    ...ADMIN_POST,
    tag: words.tag,
    summary: `List archived ${words.listKey}, most recently archived first`,
    description: `Filtered by \`productSlug\` and \`status\`; 20 a page by default (\`pageSize\` 1–100). \`sort\` (an extension) orders by ${sortNames(archivedSortColumns(sortColumns)).join(', ')} (the active list's columns and \`archivedAt\`), ties by id. \`q\` searches as in the active list. Body \`{page?, pageSize?, q?, productSlug?, status?, sort?}\`.`,
    body: schemas.body,
    invalid: firstProblem,
    responses: {
      200: { description: 'One page of archived records', schema: archivedListResponse(words.listKey, schemas.item) },
      ...errorResponses(400, 401, 413, 500),
    },
  };
}

/**
 * The one rule for taking customers' personal data in bulk, said by every route that gives it (the
 * CSV of a list, a customer's personal-data export): owners only.
 */
export const BULK_PERSONAL_DATA =
  'Owners only (and the admin token): it takes customers’ names and addresses out of tenpo in bulk, which a `staff` account, made for the day’s work on the records, may not; it gets `403 Forbidden`.';

/** A CSV export: the active list's filters (or `archived: true`), in the list's order, as a file named `<fileName>-<yyyymmdd>-<hhmm>.csv`. */
export function csvExportContract<B extends z.ZodType>(words: KindWords, csv: { fileName: string; headers: string[] }, body: B) {
  return {
    ...ADMIN_POST,
    ownerOnly: true,
    tag: words.tag,
    summary: `Download ${words.listKey} as CSV (owners only)`,
    description: `${BULK_PERSONAL_DATA} The ${words.listKey} the active list's filters select (with \`archived: true\` the archived ones), in the list's order (or \`sort\`'s), as a CSV file for Excel: UTF-8 with a byte-order mark, a header row of Japanese column names, RFC 4180 quoting (CRLF line ends), times in Japan time (\`2026-11-23 15:04:05\`), statuses in Japanese, and a \`'\` before a cell that starts with =, +, -, @, tab or CR, so no cell runs as a formula. Streamed a batch at a time as the client reads: any number of rows in bounded memory. Columns: ${csv.headers.join(', ')}. Answers \`200 text/csv; charset=utf-8\` with \`Content-Disposition: attachment; filename="${csv.fileName}-<yyyymmdd>-<hhmm>.csv"\` (\`${csv.fileName}-archived-…\` for the archive; Japan time). The archived records' \`status\` filter may be any stored one, and their order is most recently archived first. RFC 4180: CRLF after every record; a field holding a comma, quote, CR or LF quoted, quotes doubled. A cell is prefixed with \`'\` when it starts with \`=\`, \`+\`, \`-\` or \`@\` once NFKC-normalised (\`＝\`) and stripped of leading whitespace and zero-width characters, holds \`;=\`, \`,=\` or a tab then \`=\` (LibreOffice splitting on \`;\` or tabs), or starts with a tab or CR. Read 500 rows at a time by keyset and written as the client takes them; the exports running at once take turns, one batch each, so other requests wait for one batch at most. An export whose records cannot be read before its first rows answers \`500\` (a JSON error, no CSV). Body \`{status?, productSlug?, q?, sort?, archived?}\`. Bad filters as the list (\`400 Invalid status\`, \`archived must be a boolean\`, …).`,
    body,
    invalid: listFilterProblem,
    responses: {
      200: {
        description: 'The CSV file',
        schema: z.string(),
        contentType: 'text/csv; charset=utf-8',
        headers: {
          'Content-Disposition': `attachment; filename="${csv.fileName}-<yyyymmdd>-<hhmm>.csv" (${csv.fileName}-archived-… for the archive), Japan time`,
        },
      },
      ...errorResponses(400, 401, 403, 413, 500),
    },
  };
}

/**
 * A CSV export's answer: its chunks streamed as the client takes them, as a file named for now
 * (Japan time). One that fails before its first rows rejects, so the client gets the 500 error
 * answer instead of a 200 file cut short.
 */
export async function csvAnswer(
  c: Context<AppEnv>,
  file: { name: string; archived: boolean },
  chunks: AsyncGenerator<string>,
): Promise<Response> {
  const body = await byteStream(chunks, (error) => requestLog(c).error({ err: error }, 'CSV export failed after it began'));
  return reply(c, 200, body, {
    'Content-Type': 'text/csv; charset=utf-8',
    'Content-Disposition': `attachment; filename="${exportFileName(file.name, file.archived, new Date())}"`,
    'Cache-Control': 'no-store',
  });
}
