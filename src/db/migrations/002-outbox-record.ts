import type { Kysely } from 'kysely';

/**
 * Ties each outbox message to the record it is about (a reservation, a subscription), so erasing a
 * record's personal data erases the messages that quote it as well.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('outbox').addColumn('record_id', 'text').execute();
  await db.schema.createIndex('outbox_record').on('outbox').column('record_id').execute();
}
