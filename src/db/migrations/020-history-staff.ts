import type { Kysely } from 'kysely';

/**
 * A record's history says which staff account made each change: `staff_id`, null for the
 * customer's own changes, for the bearer token's (a script's, no one's account), and for the
 * rows written before accounts existed. The name is read from the account when the history is.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('record_history').addColumn('staff_id', 'text').execute();
}
