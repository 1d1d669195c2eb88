import type { Kysely } from 'kysely';

/**
 * The shop's own name and contact, which every email and the customer's pages show: one row (`id`
 * 1), its fields empty and `updated_at` null until staff first save them. The row exists from the
 * start, so a save is always an update that can be made conditional on the `updated_at` staff saw.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('shop_settings')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('contact_email', 'text', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('hours', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text')
    .execute();
  await (db as Kysely<{ shop_settings: Record<string, string | number | null> }>)
    .insertInto('shop_settings')
    .values({ id: 1, name: '', contact_email: '', phone: '', address: '', hours: '', updated_at: null })
    .execute();
}
