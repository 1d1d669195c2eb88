import { z } from 'zod';
import type { Database } from '../db/database.ts';
import { replyJson } from '../http/reply.ts';
import { defineRoute, refusedAs, type Route } from '../http/route.ts';
import { errorResponses } from '../http/schemas.ts';
import { AppError } from '../http/app-error.ts';
import { listFilterProblem, required, statusChangeProblem, statusChangeRefusal, statusChangeRefusalCodes } from './admin-fields.ts';
import { HistoryEntrySchema } from './history.ts';
import { recordWithHistory } from './record-detail.ts';
import { listActive } from './lists.ts';
import type { RecordKind, RecordTable, StatusChangeRequest } from './record-kind.ts';
import { changeStatus } from './status-change.ts';

/**
 * A kind's active records under its own key (`reservations`, `subscriptions`), with the paging
 * figures when a page was asked for. Typed with that key so the typed client can name it:
 * TypeScript widens a computed key to `string`.
 */
export function activeListResponse<K extends string, I extends z.ZodType>(listKey: K, item: I) {
  const figure = (description: string) => z.number().int().optional().describe(`${description}; only when page or pageSize was given`);
  return z.object({
    success: z.literal(true),
    ...({ [listKey]: z.array(item) } as Record<K, z.ZodArray<I>>),
    total: figure('Records matching the filters'),
    page: figure('This page, 1-based'),
    pageSize: figure('Records per page'),
    totalPages: figure('Pages in all'),
  });
}

/** A record after its status change, under the kind's own key (`reservation`, `subscription`). */
export function statusChangeResponse<K extends string, I extends z.ZodType>(itemKey: K, item: I) {
  return z.object({ success: z.literal(true), ...({ [itemKey]: item } as Record<K, I>) });
}

const MISSING_ID = 'Missing required field: id';

export const RecordGetBody = z.object({ id: required(MISSING_ID).describe('The record’s id (ご予約番号 for a reservation)') });

/** One record, archived or not, under the kind's own key, and its history oldest first. */
export function recordDetailResponse<K extends string, I extends z.ZodType>(itemKey: K, item: I) {
  return z.object({
    success: z.literal(true),
    ...({ [itemKey]: item } as Record<K, I>),
    history: z.array(HistoryEntrySchema).describe('Its status moves, memo edits, archiving and restoring, oldest first'),
  });
}

/**
 * The active list, the status change and the page of one record of a kind: SPEC §4, and issue 16's
 * record page (`get`, an extension). `wakeDispatcher`, when given,
 * is called after a change has committed, for the messages the kind may have queued with it.
 */
export function recordAdminRoutes<T extends RecordTable, C extends StatusChangeRequest>(
  kind: RecordKind<T, C>,
  database: Database,
  wakeDispatcher?: () => void,
): Route[] {
  return [
    defineRoute({
      method: 'POST',
      path: kind.paths.list,
      tag: kind.tag,
      summary: kind.docs.listSummary,
      description: kind.docs.listDescription,
      cors: 'any',
      admin: true,
      body: kind.schemas.listBody,
      invalid: listFilterProblem,
      responses: {
        200: { description: `Active ${kind.listKey}`, schema: kind.schemas.listResponse },
        ...errorResponses(400, 401, 413, 500),
      },
      handle: async (c, { body }) => {
        const { items, paging } = await listActive(database, kind, body);
        return replyJson(c, 200, { success: true, [kind.listKey]: items, ...paging });
      },
    }),
    defineRoute({
      method: 'POST',
      path: kind.paths.status,
      tag: kind.tag,
      summary: kind.docs.statusSummary,
      description: kind.docs.statusDescription,
      cors: 'any',
      admin: true,
      body: kind.schemas.statusBody,
      invalid: statusChangeProblem,
      errors: statusChangeRefusalCodes(kind),
      responses: {
        200: { description: 'Updated', schema: kind.schemas.statusResponse },
        ...errorResponses(400, 401, 404, 409, 413, 500),
      },
      handle: async (c, { body }) => {
        const result = await changeStatus(database, kind, body);
        if (result.outcome !== 'updated') throw statusChangeRefusal(result, kind);
        wakeDispatcher?.();
        return replyJson(c, 200, { success: true, [kind.itemKey]: kind.activeItem(result.record) });
      },
    }),
    defineRoute({
      method: 'POST',
      path: kind.paths.get,
      tag: kind.tag,
      summary: `One ${kind.itemKey}, archived or not, with its history`,
      description: `An extension to SPEC §4, for the console's page of a record: the record with its archive state, and every status move (who: staff or the customer; whether the customer was emailed), memo edit, archiving and restoring, oldest first, each written in the change's own transaction. The messages about it are in POST /api/admin/messages/list ({recordId}). An unknown id is \`404 ${kind.texts.notFound}\`.`,
      cors: 'any',
      admin: true,
      body: RecordGetBody,
      invalid: refusedAs('missing_required_fields', MISSING_ID),
      errors: [kind.codes.notFound],
      responses: {
        200: { description: `The ${kind.itemKey} and its history`, schema: kind.schemas.detailResponse },
        ...errorResponses(400, 401, 404, 413, 500),
      },
      handle: async (c, { body }) => {
        const found = await recordWithHistory(database, kind, body.id);
        if (!found) throw new AppError(kind.codes.notFound, kind.texts.notFound);
        return replyJson(c, 200, { success: true, [kind.itemKey]: found.item, history: found.history });
      },
    }),
  ];
}
