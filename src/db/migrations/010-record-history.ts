import type { Kysely } from 'kysely';

/**
 * What happened to each record: its status moves, memo edits, archiving and restoring,
 * one row per change, written in the change's own transaction, so the history never misses a change
 * nor shows one that was rolled back. Keyed by the record's id (reservations' and subscriptions' ids
 * never collide: `res_…`, `ntf_…`), with no foreign key, so that erasing a record's personal data
 * deletes its rows by that id (src/records/history-store.ts) on both dialects alike.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('record_history')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('record_id', 'text', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('from_status', 'text')
    .addColumn('to_status', 'text')
    .addColumn('customer_emailed', 'integer')
    .addColumn('notes_before', 'text')
    .addColumn('notes_after', 'text')
    .execute();
  await db.schema.createIndex('record_history_record').on('record_history').columns(['record_id', 'at', 'id']).execute();
}
