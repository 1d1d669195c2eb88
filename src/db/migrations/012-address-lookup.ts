import { sql, type Kysely, type SqlBool } from 'kysely';

/**
 * Finding everything held about one address (a customer's request to see or erase their data) by
 * `lower(email)`, on every table that holds one, so the look-up reads an index instead of
 * every row. An expression index rather than a stored lowercased column: the public forms already
 * store addresses lowercased, and `lower()` keeps rows written any other way (imports, the previous
 * system) findable without a second copy of the address to keep in step. Addresses are ASCII (the
 * forms refuse others), where SQLite's and PostgreSQL's lower() agree. Outbox rows carry an address
 * only for email (chat rows name a webhook), so that index holds email rows only.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['reservations', 'subscriptions', 'preorder_customers'] as const) {
    await db.schema
      .createIndex(`${table}_address`)
      .on(table)
      .expression(sql`lower(email)`)
      .execute();
  }
  await db.schema
    .createIndex('outbox_address')
    .on('outbox')
    .expression(sql`lower(destination)`)
    .where(sql.raw<SqlBool>("channel = 'email'"))
    .execute();
}
