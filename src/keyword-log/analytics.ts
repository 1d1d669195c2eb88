import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../db/database.ts';
import type { Tables } from '../db/schema.ts';
import { splitSince } from './hours.ts';
import { countEntries } from './store.ts';

// The keyword log's figures for the admin dashboard, over everything logged since a moment (30 days
// ago): the partial hour that moment falls in from the entries, every later hour from the
// per-keyword hourly counts (migration 004), the current one included. So the cost follows the
// hours and keywords of the window, not its searches.

/** Searches since `since` that found nothing. */
export async function countZeroResultSearchesSince(db: Kysely<Tables>, since: string): Promise<number> {
  const { head, hoursFrom } = splitSince(since);
  const [partial, hours] = await Promise.all([
    countEntries(db, head, { zeroResultsOnly: true }),
    db
      .selectFrom('keyword_hours')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('zero_result_searches'), eb.lit(0)).as('total'))
      .where('hour', '>=', hoursFrom)
      .executeTakeFirstOrThrow(),
  ]);
  return partial + Number(hours.total);
}

/** The most searched keywords since `since` (with `zeroResultsOnly`, of searches that found nothing), by count, ties by keyword. */
export async function topKeywordsSince(
  db: Kysely<Tables>,
  since: string,
  options: { limit: number; zeroResultsOnly: boolean },
): Promise<{ keyword: string; count: number }[]> {
  const { head, hoursFrom } = splitSince(since);
  const counted = options.zeroResultsOnly ? 'zero_result_searches' : 'searches';
  let entries = db
    .selectFrom('keyword_logs')
    .select(['keyword', sql<number>`1`.as('n')])
    .where('timestamp', '>=', head.from)
    .where('timestamp', '<', head.to);
  if (options.zeroResultsOnly) entries = entries.where('result_count', '=', 0);
  const hours = db
    .selectFrom('keyword_hours')
    .select(['keyword', sql<number>`${sql.ref(counted)}`.as('n')])
    .where('hour', '>=', hoursFrom)
    .where(counted, '>', 0);
  const rows = await db
    .selectFrom(hours.unionAll(entries).as('counted'))
    .select((eb) => ['counted.keyword', eb.fn.sum<number>('counted.n').as('count')])
    .groupBy('counted.keyword')
    .orderBy('count', 'desc')
    .orderBy('counted.keyword')
    .limit(options.limit)
    .execute();
  return rows.map((row) => ({ keyword: row.keyword, count: Number(row.count) }));
}

/**
 * Searches per Japan calendar day (`YYYY-MM-DD`) from the hour `fromHour` (`2026-03-01T15`, a Japan
 * midnight) on, summed from the hourly counts (migration 003): Japan keeps no daylight saving time, so
 * every Japan day is 24 whole UTC hours. Days without searches are absent.
 */
export async function searchesPerJapanDay(
  db: Kysely<Tables>,
  dialect: Dialect,
  fromHour: string,
): Promise<{ date: string; count: number }[]> {
  const day =
    dialect === 'sqlite'
      ? sql<string>`date(hour || ':00:00', '+9 hours')`
      : sql<string>`to_char((hour || ':00:00+00')::timestamptz at time zone 'Asia/Tokyo', 'YYYY-MM-DD')`;
  const rows = await db
    .selectFrom('keyword_log_hours')
    .select((eb) => [day.as('date'), eb.fn.sum<number>('entries').as('count')])
    .where('hour', '>=', fromHour)
    .groupBy(day)
    .execute();
  return rows.map((row) => ({ date: row.date, count: Number(row.count) }));
}
