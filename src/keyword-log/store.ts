import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import type { Tables } from '../db/schema.ts';
import { storableText } from '../records/storable-text.ts';
import { hourOf, splitSince, splitWindow, type EntryRange } from './hours.ts';

/** One search, as GET /api/keyword-logs returns it. */
export interface KeywordLogEntry {
  keyword: string;
  timestamp: string;
  resultCount: number;
}

/** A time window, both ends inclusive, as ISO strings (they compare as text). */
export interface KeywordLogWindow {
  from: string;
  to: string;
  limit: number;
}

export interface KeywordLogStore {
  /** Writes the entries and their hourly counts (in all, and per keyword), all or nothing. */
  append(entries: KeywordLogEntry[]): Promise<void>;
  /** The newest `limit` entries of the window, and how many the window holds. */
  read(window: KeywordLogWindow): Promise<{ logs: KeywordLogEntry[]; total: number }>;
}

/** Rows per INSERT: four parameters each at most, far below either dialect's limit. */
const ROWS_PER_INSERT = 500;

export function createKeywordLogStore({ db }: Database): KeywordLogStore {
  return {
    append: async (entries) => {
      if (entries.length === 0) return;
      // One search for a NUL would otherwise fail its whole batch on PostgreSQL.
      const rows = entries.map((entry) => ({
        keyword: storableText(entry.keyword),
        timestamp: entry.timestamp,
        result_count: entry.resultCount,
      }));
      const perHour = new Map<string, number>();
      const perKeywordHour = new Map<string, { hour: string; keyword: string; searches: number; zero_result_searches: number }>();
      for (const row of rows) {
        const hour = hourOf(row.timestamp);
        perHour.set(hour, (perHour.get(hour) ?? 0) + 1);
        const key = `${hour}\u0000${row.keyword}`;
        const counts = perKeywordHour.get(key) ?? { hour, keyword: row.keyword, searches: 0, zero_result_searches: 0 };
        counts.searches += 1;
        if (row.result_count === 0) counts.zero_result_searches += 1;
        perKeywordHour.set(key, counts);
      }
      const keywordHours = [...perKeywordHour.values()];
      await db.transaction().execute(async (trx) => {
        for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
          await trx
            .insertInto('keyword_logs')
            .values(rows.slice(i, i + ROWS_PER_INSERT))
            .execute();
        }
        await trx
          .insertInto('keyword_log_hours')
          .values([...perHour].map(([hour, count]) => ({ hour, entries: count })))
          .onConflict((conflict) =>
            conflict.column('hour').doUpdateSet((eb) => ({ entries: eb('keyword_log_hours.entries', '+', eb.ref('excluded.entries')) })),
          )
          .execute();
        for (let i = 0; i < keywordHours.length; i += ROWS_PER_INSERT) {
          await trx
            .insertInto('keyword_hours')
            .values(keywordHours.slice(i, i + ROWS_PER_INSERT))
            .onConflict((conflict) =>
              conflict.columns(['hour', 'keyword']).doUpdateSet((eb) => ({
                searches: eb('keyword_hours.searches', '+', eb.ref('excluded.searches')),
                zero_result_searches: eb('keyword_hours.zero_result_searches', '+', eb.ref('excluded.zero_result_searches')),
              })),
            )
            .execute();
        }
      });
    },
    read: async ({ from, to, limit }) => {
      const [rows, total] = await Promise.all([
        db
          .selectFrom('keyword_logs')
          .select(['keyword', 'timestamp', 'result_count'])
          .where('timestamp', '>=', from)
          .where('timestamp', '<=', to)
          .orderBy('timestamp', 'desc')
          .limit(limit)
          .execute(),
        countKeywordLogWindow(db, from, to),
      ]);
      return { logs: rows.map((row) => ({ keyword: row.keyword, timestamp: row.timestamp, resultCount: row.result_count })), total };
    },
  };
}

/**
 * Entries in [from, to]: the whole hours inside the window from their counts, the partial hours
 * at either end from the entries themselves (through the timestamp index).
 */
export async function countKeywordLogWindow(db: Kysely<Tables>, from: string, to: string): Promise<number> {
  const { hours, edges } = splitWindow(from, to);
  const [whole, ...partial] = await Promise.all([
    hours
      ? db
          .selectFrom('keyword_log_hours')
          .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('entries'), eb.lit(0)).as('total'))
          .where('hour', '>=', hours.from)
          .where('hour', '<', hours.to)
          .executeTakeFirstOrThrow()
          .then((row) => Number(row.total))
      : 0,
    ...edges.map((range) => countEntries(db, range)),
  ]);
  return partial.reduce((sum, n) => sum + n, whole);
}

/** Everything logged since `since` (the dashboard's "last 30 days"): see splitSince. */
export async function countKeywordLogSince(db: Kysely<Tables>, since: string): Promise<number> {
  const { head, hoursFrom } = splitSince(since);
  const [partial, hours] = await Promise.all([
    countEntries(db, head),
    db
      .selectFrom('keyword_log_hours')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('entries'), eb.lit(0)).as('total'))
      .where('hour', '>=', hoursFrom)
      .executeTakeFirstOrThrow(),
  ]);
  return partial + Number(hours.total);
}

/** Entries in the range; with `zeroResultsOnly`, those of searches that found nothing. */
export async function countEntries(db: Kysely<Tables>, range: EntryRange, options: { zeroResultsOnly?: boolean } = {}): Promise<number> {
  let query = db
    .selectFrom('keyword_logs')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .where('timestamp', '>=', range.from)
    .where('timestamp', range.includeTo ? '<=' : '<', range.to);
  if (options.zeroResultsOnly) query = query.where('result_count', '=', 0);
  return Number((await query.executeTakeFirstOrThrow()).total);
}
