import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import type { Tables } from '../db/schema.ts';
import { storableText } from '../records/storable-text.ts';

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
  /** Writes the entries and their hourly counts, all or nothing. */
  append(entries: KeywordLogEntry[]): Promise<void>;
  /** The newest `limit` entries of the window, and how many the window holds. */
  read(window: KeywordLogWindow): Promise<{ logs: KeywordLogEntry[]; total: number }>;
}

/** Rows per INSERT: three parameters each, far below either dialect's limit. */
const ROWS_PER_INSERT = 500;
const HOUR_MS = 3_600_000;

/** The hour bucket of an ISO timestamp (migration 003). */
const hourOf = (timestamp: string) => timestamp.slice(0, 13);

export function createKeywordLogStore({ db }: Database): KeywordLogStore {
  return {
    append: async (entries) => {
      if (entries.length === 0) return;
      const perHour = new Map<string, number>();
      for (const { timestamp } of entries) perHour.set(hourOf(timestamp), (perHour.get(hourOf(timestamp)) ?? 0) + 1);
      await db.transaction().execute(async (trx) => {
        for (let i = 0; i < entries.length; i += ROWS_PER_INSERT) {
          // One search for a NUL would otherwise fail its whole batch on PostgreSQL.
          const rows = entries
            .slice(i, i + ROWS_PER_INSERT)
            .map((entry) => ({ keyword: storableText(entry.keyword), timestamp: entry.timestamp, result_count: entry.resultCount }));
          await trx.insertInto('keyword_logs').values(rows).execute();
        }
        await trx
          .insertInto('keyword_log_hours')
          .values([...perHour].map(([hour, count]) => ({ hour, entries: count })))
          .onConflict((conflict) =>
            conflict.column('hour').doUpdateSet((eb) => ({ entries: eb('keyword_log_hours.entries', '+', eb.ref('excluded.entries')) })),
          )
          .execute();
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
        countWindow(db, from, to),
      ]);
      return { logs: rows.map((row) => ({ keyword: row.keyword, timestamp: row.timestamp, resultCount: row.result_count })), total };
    },
  };
}

/**
 * Entries in [from, to]: the whole hours inside the window from their counts, the partial hours
 * at either end from the entries themselves (through the timestamp index).
 */
async function countWindow(db: Kysely<Tables>, from: string, to: string): Promise<number> {
  const firstWholeHour = new Date(Math.ceil(Date.parse(from) / HOUR_MS) * HOUR_MS).toISOString();
  const lastHourStart = new Date(Math.floor(Date.parse(to) / HOUR_MS) * HOUR_MS).toISOString();
  if (firstWholeHour >= lastHourStart) return countEntries(db, from, to, true);
  const [head, hours, tail] = await Promise.all([
    countEntries(db, from, firstWholeHour, false),
    db
      .selectFrom('keyword_log_hours')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('entries'), eb.lit(0)).as('total'))
      .where('hour', '>=', hourOf(firstWholeHour))
      .where('hour', '<', hourOf(lastHourStart))
      .executeTakeFirstOrThrow(),
    countEntries(db, lastHourStart, to, true),
  ]);
  return head + Number(hours.total) + tail;
}

async function countEntries(db: Kysely<Tables>, from: string, to: string, includeTo: boolean): Promise<number> {
  const row = await db
    .selectFrom('keyword_logs')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .where('timestamp', '>=', from)
    .where('timestamp', includeTo ? '<=' : '<', to)
    .executeTakeFirstOrThrow();
  return row.total;
}
