import type { Kysely } from 'kysely';

/**
 * A record's history also says when staff sent one of its given-up messages again: a row with
 * action 'retry' naming the message in the new `message_id` (null on every other row).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('record_history').addColumn('message_id', 'text').execute();
}
