import { sql, type Kysely, type SqlBool } from 'kysely';

/**
 * Every table the service needs, with an index for each filter and sort the API offers.
 * Active-record lists read partial indexes (archived_at IS NULL), archived lists the complementary
 * ones, so neither list pays for the other's rows. Written once for both dialects.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('reservations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('product_slug', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('notes', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('responded_at', 'text')
    .addColumn('archived_at', 'text')
    .execute();
  await createRecordIndexes(db, 'reservations');

  await db.schema
    .createTable('subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('product_slug', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('notified_at', 'text')
    .addColumn('archived_at', 'text')
    .execute();
  await createRecordIndexes(db, 'subscriptions');
  // At most one active pending subscription per address and product: a repeated signup, even a
  // concurrent one, finds the existing row instead of adding a second.
  await db.schema
    .createIndex('subscriptions_one_pending')
    .unique()
    .on('subscriptions')
    .columns(['product_slug', 'email'])
    .where(sql.raw<SqlBool>("status = 'pending' and archived_at is null"))
    .execute();

  await db.schema
    .createTable('keyword_logs')
    .addColumn('keyword', 'text', (c) => c.notNull())
    .addColumn('timestamp', 'text', (c) => c.notNull())
    .addColumn('result_count', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('keyword_logs_timestamp').on('keyword_logs').column('timestamp').execute();

  await db.schema
    .createTable('outbox')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('destination', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('locked_until', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'text')
    .execute();
  // The dispatcher's work queue: due pending messages, oldest first.
  await db.schema
    .createIndex('outbox_due')
    .on('outbox')
    .columns(['next_attempt_at'])
    .where(sql.raw<SqlBool>("status = 'pending'"))
    .execute();
  await db.schema.createIndex('outbox_status').on('outbox').column('status').execute();
}

/** Reservations and subscriptions are listed, filtered and archived the same way. */
async function createRecordIndexes(db: Kysely<unknown>, table: 'reservations' | 'subscriptions'): Promise<void> {
  const active = sql.raw<SqlBool>('archived_at is null');
  const archived = sql.raw<SqlBool>('archived_at is not null');
  const indexes = [
    { name: 'active_created', columns: ['created_at desc', 'id desc'], where: active },
    { name: 'active_status', columns: ['status', 'created_at desc'], where: active },
    { name: 'active_product', columns: ['product_slug', 'created_at desc'], where: active },
    { name: 'archived_at', columns: ['archived_at desc', 'id desc'], where: archived },
    { name: 'archived_status', columns: ['status', 'archived_at desc'], where: archived },
    { name: 'archived_product', columns: ['product_slug', 'archived_at desc'], where: archived },
  ];
  for (const index of indexes) {
    await db.schema.createIndex(`${table}_${index.name}`).on(table).columns(index.columns).where(index.where).execute();
  }
}
