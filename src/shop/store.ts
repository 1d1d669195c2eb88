import type { Kysely } from 'kysely';
import type { Dialect } from '../db/database.ts';
import type { ShopSettingsRow, Tables } from '../db/schema.ts';

// The shop_settings table's SQL (migration 016): one row, id 1, always there.

export type ShopRow = Omit<ShopSettingsRow, 'id'>;

/** The settings as stored; locked until the transaction ends on PostgreSQL when `forUpdate`. */
export async function findShopRow(db: Kysely<Tables>, options: { dialect?: Dialect; forUpdate?: boolean } = {}): Promise<ShopRow> {
  let query = db
    .selectFrom('shop_settings')
    .select(['name', 'contact_email', 'phone', 'address', 'hours', 'updated_at'])
    .where('id', '=', 1);
  if (options.forUpdate && options.dialect === 'postgres') query = query.forUpdate();
  return query.executeTakeFirstOrThrow();
}

export async function writeShopRow(db: Kysely<Tables>, row: ShopRow): Promise<void> {
  await db.updateTable('shop_settings').set(row).where('id', '=', 1).execute();
}
