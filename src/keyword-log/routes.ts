import { z } from 'zod';
import { replyJson } from '../http/reply.ts';
import { defineRoute, type Route } from '../http/route.ts';
import { errorResponses } from '../http/schemas.ts';
import { parseIso8601 } from '../text/iso-8601.ts';
import type { KeywordLogStore } from './store.ts';
import type { KeywordLogWriter } from './writer.ts';

const DEFAULT_LIMIT = 1000;
const MAX_LIMIT = 5000;
const DEFAULT_WINDOW_MS = 30 * 24 * 60 * 60 * 1000;

const LIMIT_MESSAGE = `limit must be between 1 and ${MAX_LIMIT}`;
const ORDER_MESSAGE = 'from must not be after to';

const isoTime = (field: string) =>
  z
    .string({ error: `${field} must be given once` })
    .transform((value, ctx) => {
      const time = parseIso8601(value.trim());
      if (time !== undefined) return time;
      ctx.addIssue({ code: 'custom', message: `${field} must be an ISO 8601 date or date-time` });
      return z.NEVER;
    })
    .optional();

/**
 * `from`/`to` ISO 8601 (a bare date, or a date-time without an offset, is UTC), defaulting
 * to the last 30 days up to now; `from` after `to` is refused. `limit` over 5000 reads as 5000;
 * below 1 or not an integer is refused. A name given twice is refused rather than guessed at.
 */
export const KeywordLogsQuery = z
  .object({
    from: isoTime('from').describe('Window start, ISO 8601; default 30 days before now'),
    to: isoTime('to').describe('Window end, ISO 8601; default now'),
    limit: z
      .string({ error: LIMIT_MESSAGE })
      .regex(/^\+?\d+$/, LIMIT_MESSAGE)
      .transform(Number)
      .refine((n) => n >= 1, LIMIT_MESSAGE)
      .transform((n) => Math.min(n, MAX_LIMIT))
      .optional()
      .describe(`Most entries to return, 1-${MAX_LIMIT} (larger values read as ${MAX_LIMIT}); default ${DEFAULT_LIMIT}`),
  })
  .transform((query, ctx) => {
    const now = Date.now();
    const to = query.to ?? now;
    const from = query.from ?? now - DEFAULT_WINDOW_MS;
    if (from > to) {
      ctx.addIssue({ code: 'custom', path: ['from'], message: ORDER_MESSAGE });
      return z.NEVER;
    }
    return { from: new Date(from).toISOString(), to: new Date(to).toISOString(), limit: query.limit ?? DEFAULT_LIMIT };
  });

export const KeywordLogsResponse = z.object({
  logs: z
    .array(z.object({ keyword: z.string(), timestamp: z.string(), resultCount: z.number().int() }).meta({ id: 'KeywordLogEntry' }))
    .describe('Newest first'),
  total: z.number().int().describe('Entries in the window, before the limit'),
});

const HEADERS = { 'Cache-Control': 'no-cache' };

export function keywordLogRoutes(store: KeywordLogStore, writer: KeywordLogWriter): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/keyword-logs',
      tag: 'Search',
      summary: 'Read the search keyword log (search analytics)',
      description:
        'Every non-empty search, zero-result ones included. `from`/`to` are ISO 8601 (a date or an offset-less time reads as UTC; the default window is the last 30 days), `limit` 1–5000 (default 1000, larger reads as 5000); `total` counts the whole window. Bad values or `from` after `to` are `400 Invalid parameters`. ' +
        'Answers `{logs:[{keyword, timestamp, resultCount}], total}`, newest first. `Cache-Control: no-cache`.',
      cors: 'any',
      query: KeywordLogsQuery,
      responses: {
        200: { description: 'Entries of the window, newest first', schema: KeywordLogsResponse, headers: HEADERS },
        ...errorResponses(400, 405, 500),
      },
      handle: async (c, { query }) => {
        // Searches answered a moment ago are still queued; write them first so they show.
        await writer.flush();
        return replyJson(c, 200, await store.read(query), HEADERS);
      },
    }),
  ];
}
