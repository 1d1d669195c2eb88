import { sql, type Kysely, type SqlBool } from 'kysely';

/**
 * Ties each outbox message to the record it is about (a reservation, a subscription), so erasing a
 * record's personal data erases the messages that quote it as well.
 *
 * Also replaces the index on `status` with a partial one on dead messages: almost every row is
 * `sent`, so the plain index helped no query, and without statistics SQLite preferred it to the
 * primary key and to the `outbox_due` queue index, scanning every pending row on each claim and
 * settlement (bench/reservations.ts). Pending and dead counts read the two partial indexes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('outbox').addColumn('record_id', 'text').execute();
  await db.schema.createIndex('outbox_record').on('outbox').column('record_id').execute();
  await db.schema.dropIndex('outbox_status').execute();
  await db.schema.createIndex('outbox_dead').on('outbox').column('created_at').where(sql.raw<SqlBool>("status = 'dead'")).execute();
}
