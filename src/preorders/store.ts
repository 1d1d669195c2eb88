import { sql, type Kysely, type Selectable } from 'kysely';
import type { Dialect } from '../db/database.ts';
import type { PreorderRow, Tables } from '../db/schema.ts';

// The campaigns' SQL: the rows, and the two seat counters (the campaign's, each address's).

export type Preorder = Selectable<PreorderRow>;

/** The fields an administrator sets. */
export type PreorderSettings = Pick<Preorder, 'opens_at' | 'closes_at' | 'capacity' | 'per_customer_limit' | 'ships_in' | 'note'>;

export async function listPreorders(db: Kysely<Tables>, productSlugs?: string[]): Promise<Preorder[]> {
  let query = db.selectFrom('preorders').selectAll().orderBy('product_slug');
  if (productSlugs) {
    if (productSlugs.length === 0) return [];
    query = query.where('product_slug', 'in', productSlugs);
  }
  return query.execute();
}

/** What these campaigns tell their customers (when it ships, the shop's note), by campaign id; a campaign deleted since is absent. */
export async function campaignNotes(
  db: Kysely<Tables>,
  preorderIds: string[],
): Promise<Map<string, { shipsIn: string | null; note: string | null }>> {
  if (preorderIds.length === 0) return new Map();
  const rows = await db.selectFrom('preorders').select(['id', 'ships_in', 'note']).where('id', 'in', preorderIds).execute();
  return new Map(rows.map((row) => [row.id, { shipsIn: row.ships_in, note: row.note }]));
}

/**
 * The campaigns of these products, locked on PostgreSQL until the transaction ends, in slug order
 * (so two transactions locking several never wait on each other in a circle). Every change to a
 * campaign's seats takes this lock first; other products' rows stay free.
 */
export async function lockPreorders(db: Kysely<Tables>, dialect: Dialect, productSlugs: string[]): Promise<Preorder[]> {
  if (productSlugs.length === 0) return [];
  let query = db.selectFrom('preorders').selectAll().where('product_slug', 'in', productSlugs).orderBy('product_slug');
  if (dialect === 'postgres') query = query.forUpdate();
  return query.execute();
}

export async function insertPreorder(db: Kysely<Tables>, row: Preorder): Promise<Preorder> {
  return db.insertInto('preorders').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function updatePreorder(
  db: Kysely<Tables>,
  id: string,
  changes: Partial<PreorderSettings> & { updated_at: string },
): Promise<Preorder> {
  return db.updateTable('preorders').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/**
 * Deletes a product's campaign (its address counts go with it): `deleted`; `held` (nothing deleted)
 * when reservations that are not cancelled hold seats of it and `force` is not given, judged in the
 * same statement, so a reservation taken at that moment is counted; `none` when there is none.
 */
export async function deletePreorder(db: Kysely<Tables>, productSlug: string, force: boolean): Promise<'deleted' | 'held' | 'none'> {
  let statement = db.deleteFrom('preorders').where('product_slug', '=', productSlug);
  if (!force) statement = statement.where('reserved', '=', 0);
  if (Number((await statement.executeTakeFirst()).numDeletedRows) > 0) return 'deleted';
  const exists = await db.selectFrom('preorders').select('id').where('product_slug', '=', productSlug).executeTakeFirst();
  return exists ? 'held' : 'none';
}

/** How many seats each of these (canonical) addresses holds in the campaign (addresses holding none are absent). */
export async function customerSeats(db: Kysely<Tables>, preorderId: string, emails: string[]): Promise<Map<string, number>> {
  if (emails.length === 0) return new Map();
  const rows = await db
    .selectFrom('preorder_customers')
    .select(['email', 'reserved'])
    .where('preorder_id', '=', preorderId)
    .where('email', 'in', emails)
    .execute();
  return new Map(rows.map((row) => [row.email, row.reserved]));
}

/**
 * Adds `delta` seats (negative to give back) to the campaign and to each address, under the lock
 * taken by lockPreorders: the caller has checked the limits.
 */
export async function addSeats(db: Kysely<Tables>, preorderId: string, byEmail: Map<string, number>): Promise<void> {
  let total = 0;
  for (const delta of byEmail.values()) total += delta;
  if (total !== 0) {
    await db
      .updateTable('preorders')
      .set({ reserved: sql`reserved + ${total}` })
      .where('id', '=', preorderId)
      .execute();
  }
  await addCustomerSeats(db, preorderId, byEmail);
}

async function addCustomerSeats(db: Kysely<Tables>, preorderId: string, byEmail: Map<string, number>): Promise<void> {
  if (byEmail.size === 0) return;
  await db
    .insertInto('preorder_customers')
    .values([...byEmail].map(([email, delta]) => ({ preorder_id: preorderId, email, reserved: delta })))
    .onConflict((oc) =>
      oc.columns(['preorder_id', 'email']).doUpdateSet({ reserved: sql`preorder_customers.reserved + excluded.reserved` }),
    )
    .execute();
}

/**
 * Moves one seat of a reservation's campaign, and of its address: takes one (`+1`) only while the
 * capacity allows, in one guarded UPDATE that holds the campaign's row until the transaction ends;
 * gives one back (`-1`). `gone` when the campaign has been deleted since.
 */
export async function moveSeat(db: Kysely<Tables>, preorderId: string, email: string, delta: 1 | -1): Promise<'moved' | 'full' | 'gone'> {
  let update = db
    .updateTable('preorders')
    .set({ reserved: sql`reserved + ${delta}` })
    .where('id', '=', preorderId);
  if (delta > 0) update = update.where((eb) => eb.or([eb('capacity', 'is', null), eb('reserved', '<', eb.ref('capacity'))]));
  const moved = await update.returning('id').executeTakeFirst();
  if (!moved) {
    const exists = await db.selectFrom('preorders').select('id').where('id', '=', preorderId).executeTakeFirst();
    return exists ? 'full' : 'gone';
  }
  await addCustomerSeats(db, preorderId, new Map([[email, delta]]));
  return 'moved';
}

/** Forgets a canonical address's seat counts in every campaign; run once its reservations are gone (and their seats given back). */
export async function forgetCustomerAt(db: Kysely<Tables>, key: string): Promise<void> {
  // A campaign counts seats under the canonical address already (seats.ts).
  await db.deleteFrom('preorder_customers').where('email', '=', key).execute();
}
