import { sql, type Kysely } from 'kysely';

/**
 * `updated_at` on reservations and subscriptions: the time of the record's last change
 * (status, notes, archive flag), which an administrator's status request may name as
 * `expectedUpdatedAt` so that a stale screen cannot undo a colleague's change. Existing rows get the
 * latest time they are known to have changed: their creation, first response or notification, or
 * archiving. Added NOT NULL with a placeholder default (SQLite cannot add one without), then filled.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [table, changedAt] of [
    ['reservations', 'responded_at'],
    ['subscriptions', 'notified_at'],
  ] as const) {
    await db.schema
      .alterTable(table)
      .addColumn('updated_at', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
    await sql`update ${sql.table(table)} set updated_at = created_at`.execute(db);
    for (const column of [changedAt, 'archived_at']) {
      await sql`update ${sql.table(table)} set updated_at = ${sql.ref(column)} where ${sql.ref(column)} > updated_at`.execute(db);
    }
  }
}
