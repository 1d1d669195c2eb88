import type { Kysely } from 'kysely';

/**
 * Preorder campaigns. A campaign keeps its seat count in its own row (`reserved`: its
 * reservations that are not cancelled) and each address's count in `preorder_customers`, so a
 * reservation checks and takes a seat by locking that one row and updating two counters, instead
 * of counting reservations; on PostgreSQL that lock is what keeps several instances from selling
 * the same last seat. A reservation names the campaign it was taken under (`preorder_id`): a
 * campaign deleted and created again starts with no reservations.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('preorders')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('product_slug', 'text', (c) => c.notNull().unique())
    .addColumn('opens_at', 'text')
    .addColumn('closes_at', 'text')
    .addColumn('capacity', 'integer')
    .addColumn('per_customer_limit', 'integer')
    .addColumn('ships_in', 'text')
    .addColumn('note', 'text')
    .addColumn('reserved', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('preorder_customers')
    .addColumn('preorder_id', 'text', (c) => c.notNull().references('preorders.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('reserved', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('preorder_customers_pk', ['preorder_id', 'email'])
    .execute();
  await db.schema.alterTable('reservations').addColumn('preorder_id', 'text').execute();
}
