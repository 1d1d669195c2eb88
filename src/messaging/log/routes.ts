import type { Database } from '../../db/database.ts';
import { staffIdOf } from '../../http/admin-auth.ts';
import { replyJson } from '../../http/reply.ts';
import { defineRoute, type Route } from '../../http/route.ts';
import { errorResponses } from '../../http/schemas.ts';
import { firstProblem } from '../../records/schemas.ts';
import { MAX_BULK_ITEMS } from '../../records/bulk-archive.ts';
import { listMessages } from './messages.ts';
import { retryMessages } from './retry.ts';
import { ListBody, ListResponse, listProblem, RetryBody, RetryResponse } from './schemas.ts';

const TAG = 'Admin: message log';

/** The number and name of these reservations, by id: the log names each message's reservation by them. */
export type ReservationNames = (ids: string[]) => Promise<Map<string, { number: number; name: string }>>;

/** The message log: list, and send again what was given up. */
export function messageLogRoutes(deps: { database: Database; wakeDispatcher: () => void; reservationNames: ReservationNames }): Route[] {
  const { database } = deps;
  const common = { method: 'POST', tag: TAG, cors: 'any', admin: true } as const;
  return [
    defineRoute({
      ...common,
      path: '/api/admin/messages/list',
      summary: 'List the emails and chat messages sent, waiting, skipped, given up or superseded, newest first',
      description:
        'Filtered by `recordId`, `status` and `channel`; 20 a page by default (`pageSize` 1–100). Each message about a reservation names it by its number and name (`reservation`).' +
        ' Body `{recordId?, status?, channel?, page?, pageSize?}` → `{success, messages:[{id, recordId, reservation, channel, kind, to, status, attempts, lastError, createdAt, sentAt}], total, page, pageSize, totalPages}`: every email and chat message in the outbox, newest first (`createdAt`, ties by id), paging as the archive lists. ' +
        '`channel` is `email` or `chat`; `status` `pending`, `sent`, `skipped` (no provider or webhook configured), `dead` (given up) or `superseded` (not sent: no longer true of its record when it was due, [operations.md](operations.md#messages-that-are-true-when-they-arrive)); ' +
        "`kind` is the template kind of an email and the webhook's name (`reservation`, `restock`, `public`) for chat; `to` is the address of an email and the webhook's name for chat, never its URL; `recordId` the reservation or subscription it is about, and `reservation` `{number, name}` null for any other message. " +
        'Unknown status `400 Invalid status`, unknown channel `400 Invalid channel`.',
      body: ListBody,
      invalid: listProblem,
      responses: { 200: { description: 'One page of messages', schema: ListResponse }, ...errorResponses(400, 401, 413, 500) },
      handle: async (c, { body }) => {
        const page = await listMessages(database, {
          recordId: body.recordId || undefined,
          status: body.status || undefined,
          channel: body.channel || undefined,
          page: body.page,
          pageSize: body.pageSize,
        });
        const names = await deps.reservationNames([...new Set(page.messages.flatMap((m) => (m.recordId === null ? [] : [m.recordId])))]);
        const messages = page.messages.map((message) => ({ ...message, reservation: names.get(message.recordId ?? '') ?? null }));
        return replyJson(c, 200, { success: true, ...page, messages });
      },
    }),
    defineRoute({
      ...common,
      path: '/api/admin/messages/retry',
      summary: 'Send given-up messages again',
      description: `Each dead message goes back to pending with its attempts reset and is delivered again, unless it is no longer true of its record (a cancelled reservation, a later email about it, an unsubscribed subscription): that one becomes superseded and is reported as \`Message is superseded\`. Each item is handled on its own: failures are listed in errors and the others succeed (200). At most ${MAX_BULK_ITEMS} items. Body \`{ids:[messageId]}\` → \`{success, retriedCount, retriedIds, errors?}\`. A message superseded already is listed as \`Message is superseded\` too; a retried one has its last error cleared and is checked once more right before the attempt; the rest are listed as \`Message not found\`, \`Message is not dead\` or \`Invalid item\`. \`ids\` as for bulk archive (\`400 ids array is required\`, \`… cannot be empty\`, \`… cannot exceed ${MAX_BULK_ITEMS} items\`).`,
      body: RetryBody,
      invalid: firstProblem,
      responses: { 200: { description: 'Every item handled', schema: RetryResponse }, ...errorResponses(400, 401, 413, 500) },
      handle: async (c, { body }) => {
        const outcome = await retryMessages(database, body.ids, new Date().toISOString(), staffIdOf(c));
        if (outcome.retriedIds.length > 0) deps.wakeDispatcher();
        return replyJson(c, 200, {
          success: true,
          retriedCount: outcome.retriedIds.length,
          retriedIds: outcome.retriedIds,
          ...(outcome.errors.length > 0 ? { errors: outcome.errors } : {}),
        });
      },
    }),
  ];
}
