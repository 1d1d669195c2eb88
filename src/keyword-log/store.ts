import { inTurn } from '../db/batch-turns.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import type { Tables } from '../db/schema.ts';
import { storableText } from '../text/storable-text.ts';
import { maskContactDetails } from './contact-details.ts';
import { hourOf, splitSince, splitWindow, type EntryRange } from './hours.ts';
import { clientHash, countSuggestionSearches } from './suggestions.ts';

/** One search, as GET /api/keyword-logs returns it. */
export interface KeywordLogEntry {
  keyword: string;
  timestamp: string;
  resultCount: number;
}

/** One search as it is logged: the entry, and who searched (the client's address, as the rate limit sees it). */
export interface LoggedSearch extends KeywordLogEntry {
  client: string;
}

/** A time window, both ends inclusive, as ISO strings (they compare as text). */
export interface KeywordLogWindow {
  from: string;
  to: string;
  limit: number;
}

export interface KeywordLogStore {
  /** Writes the searches, their hourly counts and their suggestion counts, all or nothing. */
  append(searches: LoggedSearch[]): Promise<void>;
  /** The newest `limit` entries of the window, and how many the window holds. */
  read(window: KeywordLogWindow): Promise<{ logs: KeywordLogEntry[]; total: number }>;
}

export interface KeywordLogStoreOptions {
  /** Keys the hash clients are kept as (suggestions.ts). */
  clientSecret: string;
  /** Whether a keyword may become a search suggestion at all (search/suggestible.ts). */
  suggestible: (keyword: string) => boolean;
}

/**
 * Entries per read of the public log (of at most 5,000): each read in the timestamp index's order,
 * taking turns with the other long reads (batch-turns.ts), so 16 readers asking for 5,000 entries
 * each hold the event loop for one batch at a time, not 80,000 rows.
 */
const READ_BATCH = 500;

/** Rows per INSERT: four parameters each at most, far below either dialect's limit. */
const ROWS_PER_INSERT = 500;

/**
 * The distinct keywords an hour keeps its own count of (the first ones searched in it). A flood of
 * distinct searches is still counted in the hour's total, but cannot grow the per-keyword counts
 * the dashboard adds up beyond ~720 × this in 30 days (keywords.ts reads them).
 */
export const KEYWORDS_PER_HOUR = 200;

/**
 * The keyword log's writes and reads. A stored keyword has email addresses and phone numbers
 * masked (contact-details.ts): GET /api/keyword-logs is public.
 */
export function createKeywordLogStore({ db }: Database, options: KeywordLogStoreOptions): KeywordLogStore {
  const hashClient = clientHash(options.clientSecret);
  return {
    append: async (searches) => {
      if (searches.length === 0) return;
      // One search for a NUL would otherwise fail its whole batch on PostgreSQL.
      const rows = searches.map((search) => ({
        keyword: maskContactDetails(storableText(search.keyword)),
        timestamp: search.timestamp,
        result_count: search.resultCount,
      }));
      const forSuggestions = rows.flatMap((row, i) =>
        row.result_count > 0 && options.suggestible(row.keyword)
          ? [{ keyword: row.keyword, client: hashClient(searches[i]!.client), timestamp: row.timestamp }]
          : [],
      );
      await db.transaction().execute(async (trx) => {
        for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
          await trx
            .insertInto('keyword_logs')
            .values(rows.slice(i, i + ROWS_PER_INSERT))
            .execute();
        }
        await countHours(trx, rows);
        await countKeywordHours(trx, rows);
        await countSuggestionSearches(trx, forSuggestions);
      });
    },
    read: async ({ from, to, limit }) => {
      const total = await inTurn(() => countKeywordLogWindow(db, from, to));
      const logs: KeywordLogEntry[] = [];
      // Newest first, READ_BATCH entries a turn: the rows up to the last one read, past those of its timestamp already read.
      let upTo = to;
      let skip = 0;
      while (logs.length < limit) {
        const size = Math.min(READ_BATCH, limit - logs.length);
        const rows = await inTurn(() =>
          db
            .selectFrom('keyword_logs')
            .select(['keyword', 'timestamp', 'result_count'])
            .where('timestamp', '>=', from)
            .where('timestamp', '<=', upTo)
            .orderBy('timestamp', 'desc')
            .limit(size)
            .offset(skip)
            .execute(),
        );
        for (const row of rows) logs.push({ keyword: row.keyword, timestamp: row.timestamp, resultCount: row.result_count });
        if (rows.length < size) break;
        const last = rows.at(-1)!.timestamp;
        skip = (last === upTo ? skip : 0) + rows.filter((row) => row.timestamp === last).length;
        upTo = last;
      }
      return { logs, total };
    },
  };
}

interface StoredEntry {
  keyword: string;
  timestamp: string;
  result_count: number;
}

/** Every entry counts in its hour's total. */
async function countHours(trx: Kysely<Tables>, rows: StoredEntry[]): Promise<void> {
  const perHour = new Map<string, number>();
  for (const row of rows) perHour.set(hourOf(row.timestamp), (perHour.get(hourOf(row.timestamp)) ?? 0) + 1);
  await trx
    .insertInto('keyword_log_hours')
    .values([...perHour].map(([hour, count]) => ({ hour, entries: count })))
    .onConflict((conflict) =>
      conflict.column('hour').doUpdateSet((eb) => ({ entries: eb('keyword_log_hours.entries', '+', eb.ref('excluded.entries')) })),
    )
    .execute();
}

/**
 * Per hour and keyword: the keywords the hour already counts, and new ones while it counts fewer
 * than KEYWORDS_PER_HOUR (the batch's most searched first).
 */
async function countKeywordHours(trx: Kysely<Tables>, rows: StoredEntry[]): Promise<void> {
  const perHour = new Map<string, Map<string, { searches: number; zero_result_searches: number }>>();
  for (const row of rows) {
    const hour = hourOf(row.timestamp);
    const keywords = perHour.get(hour) ?? perHour.set(hour, new Map()).get(hour)!;
    const counts = keywords.get(row.keyword) ?? keywords.set(row.keyword, { searches: 0, zero_result_searches: 0 }).get(row.keyword)!;
    counts.searches += 1;
    if (row.result_count === 0) counts.zero_result_searches += 1;
  }
  const counted: { hour: string; keyword: string; searches: number; zero_result_searches: number }[] = [];
  for (const [hour, keywords] of perHour) {
    const known = new Set(
      (await trx.selectFrom('keyword_hours').select('keyword').where('hour', '=', hour).execute()).map((row) => row.keyword),
    );
    let room = KEYWORDS_PER_HOUR - known.size;
    const byCount = [...keywords].sort((a, b) => b[1].searches - a[1].searches);
    for (const [keyword, counts] of byCount) {
      if (!known.has(keyword)) {
        if (room <= 0) continue;
        room -= 1;
      }
      counted.push({ hour, keyword, ...counts });
    }
  }
  for (let i = 0; i < counted.length; i += ROWS_PER_INSERT) {
    await trx
      .insertInto('keyword_hours')
      .values(counted.slice(i, i + ROWS_PER_INSERT))
      .onConflict((conflict) =>
        conflict.columns(['hour', 'keyword']).doUpdateSet((eb) => ({
          searches: eb('keyword_hours.searches', '+', eb.ref('excluded.searches')),
          zero_result_searches: eb('keyword_hours.zero_result_searches', '+', eb.ref('excluded.zero_result_searches')),
        })),
      )
      .execute();
  }
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
