import type { Kysely } from 'kysely';
import { startBatchedPurge, type BatchedPurge } from '../db/batched-purge.ts';
import type { Tables } from '../db/schema.ts';
import type { Logger } from '../log.ts';
import { hourOf } from './hours.ts';
import { forgetSuggestionClients } from './suggestions.ts';

const DAY_MS = 86_400_000;

/** Suggestions count the clients of the last 30 days; older ones are forgotten. */
export const SUGGESTION_WINDOW_DAYS = 30;

/**
 * Keeps the keyword log bounded: entries older than `retentionDays` (KEYWORD_LOG_RETENTION_DAYS)
 * are deleted with their hourly counts, and clients whose last search of a keyword is older than
 * the suggestion window are taken off its count. Every `intervalMs` and a second after start, `batchSize` rows
 * a statement per table, the event loop turning between batches (see startBatchedPurge).
 */
export function startKeywordLogRetention(
  db: Kysely<Tables>,
  log: Logger,
  options: { retentionDays: number; intervalMs: number; batchSize: number; now?: () => Date },
): BatchedPurge {
  return startBatchedPurge(log, {
    ...options,
    what: 'keyword log entries past their retention',
    deleteBatch: async (now, limit) => {
      const before = new Date(Date.parse(now) - options.retentionDays * DAY_MS).toISOString();
      // The hourly totals go once their entries are gone, so the two never disagree about an hour.
      const entries = await deleteEntriesBefore(db, before, limit);
      if (entries >= limit) return entries;
      await deleteLogHoursBefore(db, hourOf(before));
      const keywordHours = await deleteKeywordHoursBefore(db, hourOf(before), limit);
      const clients = await forgetSuggestionClients(db, new Date(Date.parse(now) - SUGGESTION_WINDOW_DAYS * DAY_MS).toISOString(), limit);
      // Another batch is due while any table had a whole one.
      return Math.max(keywordHours, clients);
    },
  });
}

/** Deletes the oldest entries before `before`, about `limit` of them (entries of the same instant go together). */
async function deleteEntriesBefore(db: Kysely<Tables>, before: string, limit: number): Promise<number> {
  const last = await db
    .selectFrom('keyword_logs')
    .select('timestamp')
    .where('timestamp', '<', before)
    .orderBy('timestamp')
    .offset(limit - 1)
    .limit(1)
    .executeTakeFirst();
  let query = db.deleteFrom('keyword_logs').where('timestamp', '<', before);
  if (last) query = query.where('timestamp', '<=', last.timestamp);
  return Number((await query.executeTakeFirst()).numDeletedRows);
}

/** Deletes up to `limit` per-keyword counts of hours before `hour`. */
async function deleteKeywordHoursBefore(db: Kysely<Tables>, hour: string, limit: number): Promise<number> {
  const result = await db
    .deleteFrom('keyword_hours')
    .where((eb) =>
      eb(
        eb.refTuple('hour', 'keyword'),
        'in',
        eb
          .selectFrom('keyword_hours')
          .select(['hour', 'keyword'])
          .where('hour', '<', hour)
          .orderBy('hour')
          .limit(limit)
          .$asTuple('hour', 'keyword'),
      ),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Deletes the hourly totals of hours before `hour`: one row an hour, so never many at once. */
async function deleteLogHoursBefore(db: Kysely<Tables>, hour: string): Promise<void> {
  await db.deleteFrom('keyword_log_hours').where('hour', '<', hour).execute();
}
