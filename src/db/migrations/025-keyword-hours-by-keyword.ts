import type { Kysely } from 'kysely';

/**
 * The hourly keyword counts by keyword: the dashboard keeps the settled hours' top keywords, and a
 * keyword searched since that ranks near them has its settled count read through this index (its
 * hours only) instead of summing every keyword of 30 days.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('keyword_hours_keyword').ifNotExists().on('keyword_hours').columns(['keyword', 'hour']).execute();
}
