import { sql, type Kysely } from 'kysely';

/**
 * Each person on the shop's staff signs in as themselves. `staff` holds the accounts: a password
 * only as its scrypt hash (src/staff/password.ts), the role, and whether the account is disabled
 * (accounts are never deleted, so a history entry can always name who made it); an address is
 * one account's only, compared case-insensitively (addresses are ASCII, where both dialects'
 * lower() agree). `staff_sessions` holds the signed-in sessions, one row each, keyed by the
 * SHA-256 of the cookie's token (the token itself is never stored), so every instance finds them
 * and ending or disabling takes effect everywhere at once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('staff')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_sign_in_at', 'text')
    .execute();
  await db.schema
    .createIndex('staff_email')
    .unique()
    .on('staff')
    .expression(sql`lower(email)`)
    .execute();

  await db.schema
    .createTable('staff_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('staff_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('staff_sessions_staff').on('staff_sessions').column('staff_id').execute();
}
