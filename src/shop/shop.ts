import type { Kysely } from 'kysely';
import { sameTime } from '../db/same-time.ts';
import type { Database } from '../db/database.ts';
import type { Tables } from '../db/schema.ts';
import { changeTime } from '../records/status-checks.ts';
import type { ShopContact } from './contact.ts';
import { findShopRow, writeShopRow, type ShopRow } from './store.ts';

// The shop's own name and contact: read wherever the shop names itself (emails, the customer's
// pages, the console), and saved by staff.

/** The settings as the admin routes answer them: '' for a field never set, `updatedAt` null until the first save. */
export interface Shop extends ShopContact {
  updatedAt: string | null;
}

const toShop = (row: ShopRow): Shop => ({
  name: row.name,
  contactEmail: row.contact_email,
  phone: row.phone,
  address: row.address,
  hours: row.hours,
  updatedAt: row.updated_at,
});

export async function readShop(db: Kysely<Tables>): Promise<Shop> {
  return toShop(await findShopRow(db));
}

export type ShopChange = Partial<ShopContact> & {
  /** The `updatedAt` the change was made from (null: never saved); absent, the change is made whatever happened since. */
  expectedUpdatedAt?: string | null;
};

/**
 * Saves the given fields (the others keep their value), unless `expectedUpdatedAt` is given and the
 * settings were saved since: then nothing is written (`changed`). The row is locked while it is
 * checked, so two staff saving from the same screen cannot both pass. Every save gives a new
 * `updatedAt`, later than the last.
 */
export async function updateShop(
  database: Database,
  change: ShopChange,
  now: Date = new Date(),
): Promise<{ ok: true; shop: Shop } | { ok: false; reason: 'changed' }> {
  return database.db.transaction().execute(async (trx) => {
    const current = await findShopRow(trx, { dialect: database.dialect, forUpdate: true });
    if (change.expectedUpdatedAt !== undefined && !sameTime(change.expectedUpdatedAt, current.updated_at))
      return { ok: false, reason: 'changed' } as const;
    const row: ShopRow = {
      name: change.name ?? current.name,
      contact_email: change.contactEmail ?? current.contact_email,
      phone: change.phone ?? current.phone,
      address: change.address ?? current.address,
      hours: change.hours ?? current.hours,
      updated_at: (current.updated_at === null ? now : changeTime(current.updated_at, now)).toISOString(),
    };
    await writeShopRow(trx, row);
    return { ok: true, shop: toShop(row) } as const;
  });
}
