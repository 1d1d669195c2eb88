import { sql, type Kysely, type SqlBool } from 'kysely';

/**
 * Messages that are no longer true when they are due: an email about a reservation whose status
 * has moved on, or a restock email to a subscriber who has unsubscribed, is not sent but settled as
 * `superseded`, with the time it was found so in `died_at` (it was never sent, so `sent_at` stays
 * null). The message log filters by it and retention deletes it like the other settled statuses, so
 * it gets a partial index of its own, as each status has (migration 008).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('outbox_log_superseded')
    .on('outbox')
    .columns(['created_at', 'id', 'channel'])
    .where(sql.raw<SqlBool>("status = 'superseded'"))
    .execute();
}
