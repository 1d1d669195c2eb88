import type { Kysely, Selectable } from 'kysely';
import type { ReservationRow, Tables } from '../db/schema.ts';

// The reservations table's own SQL (listing, locking and archiving are in src/records/store.ts,
// shared with subscriptions).

export type Reservation = Selectable<ReservationRow>;

export type NewReservationRow = Omit<Reservation, 'notes' | 'responded_at' | 'archived_at' | 'updated_at' | 'preorder_id'> & {
  preorder_id?: string | null;
};

export async function insertReservations(db: Kysely<Tables>, rows: NewReservationRow[]): Promise<void> {
  if (rows.length > 0)
    await db
      .insertInto('reservations')
      .values(rows.map((row) => ({ ...row, updated_at: row.created_at })))
      .execute();
}

export async function updateReservation(
  db: Kysely<Tables>,
  id: string,
  changes: Partial<Pick<Reservation, 'status' | 'notes' | 'responded_at'>> & Pick<Reservation, 'updated_at'>,
): Promise<Reservation> {
  return db.updateTable('reservations').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** Deletes the reservation if both id and product match; what it was, or undefined when there was none. */
export async function deleteReservation(db: Kysely<Tables>, id: string, productSlug: string): Promise<Reservation | undefined> {
  return db.deleteFrom('reservations').where('id', '=', id).where('product_slug', '=', productSlug).returningAll().executeTakeFirst();
}

export async function findReservation(db: Kysely<Tables>, id: string): Promise<Reservation | undefined> {
  return db.selectFrom('reservations').selectAll().where('id', '=', id).executeTakeFirst();
}
