import { sql, type Kysely, type SqlBool } from 'kysely';

const STATUSES = ['pending', 'sent', 'skipped', 'dead'] as const;

/**
 * The message log: staff list the outbox newest first, by status and channel, and
 * messages are deleted once kept long enough.
 *
 * Newest first is `created_at desc, id desc`, read backwards from `outbox_log` (unfiltered) or from
 * one partial index per status (`outbox_log_<status>`), so a page reads its rows in order whatever
 * the filter, and `channel` sits in each so the count of a filtered list reads the index alone. Per
 * status and partial rather than one index led by `status`: without statistics SQLite takes an
 * equality on a leading column for very selective and would prefer such an index to `outbox_due`
 * for the dispatcher's claim (the reason migration 002 dropped `outbox_status`). `outbox_log_dead`
 * replaces `outbox_dead`, which the dashboard's dead count read.
 *
 * Retention and the dashboard's figures count time from delivery: `outbox_sent_at` and
 * `outbox_skipped_at` hold `sent_at` for those two statuses. A message given up records when in
 * the new `died_at` (its `sent_at` stays null: it was never sent); the ones already dead get the
 * time of their last claim's lease, the closest the table knows.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('outbox').addColumn('died_at', 'text').execute();
  await sql`update outbox set died_at = next_attempt_at where status = 'dead'`.execute(db);

  await db.schema.dropIndex('outbox_dead').execute();
  const columns = ['created_at', 'id', 'channel'];
  await db.schema.createIndex('outbox_log').on('outbox').columns(columns).execute();
  for (const status of STATUSES) {
    await db.schema
      .createIndex(`outbox_log_${status}`)
      .on('outbox')
      .columns(columns)
      .where(sql.raw<SqlBool>(`status = '${status}'`))
      .execute();
  }
  for (const status of ['sent', 'skipped'] as const) {
    await db.schema
      .createIndex(`outbox_${status}_at`)
      .on('outbox')
      .column('sent_at')
      .where(sql.raw<SqlBool>(`status = '${status}'`))
      .execute();
  }
}
