import { sql, type Kysely } from 'kysely';

/**
 * Entries of the keyword log per hour, kept by the writer in the same transaction as the entries,
 * so GET /api/keyword-logs counts a 30-day window by adding ~720 hours and counting only the two
 * partial hours at its ends, instead of walking every entry of the window (1,000,000 and growing).
 * `hour` is the first 13 characters of the ISO timestamps it counts: `2026-03-01T14`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('keyword_log_hours')
    .addColumn('hour', 'text', (c) => c.primaryKey())
    .addColumn('entries', 'integer', (c) => c.notNull())
    .execute();
  await sql`
    insert into keyword_log_hours (hour, entries)
    select substr("timestamp", 1, 13), count(*) from keyword_logs group by substr("timestamp", 1, 13)
  `.execute(db);
}
