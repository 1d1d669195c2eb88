import type { Kysely, Selectable } from 'kysely';
import type { Dialect } from '../db/database.ts';
import type { ReservationRow, Tables } from '../db/schema.ts';

// The reservations table's SQL (archiving is in src/records/store.ts, shared with subscriptions).

export type Reservation = Selectable<ReservationRow>;

export type NewReservationRow = Omit<Reservation, 'notes' | 'responded_at' | 'archived_at'>;

export async function insertReservations(db: Kysely<Tables>, rows: NewReservationRow[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('reservations').values(rows).execute();
}

/** Active reservations, newest first (ties: id descending), optionally of one status and one product. */
export async function listActiveReservations(db: Kysely<Tables>, filter: { status?: string; productSlug?: string }): Promise<Reservation[]> {
  let query = db.selectFrom('reservations').selectAll().where('archived_at', 'is', null);
  if (filter.status) query = query.where('status', '=', filter.status);
  if (filter.productSlug) query = query.where('product_slug', '=', filter.productSlug);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
}

/** The reservation with this id, locked until the transaction ends on PostgreSQL. */
export async function findReservationForUpdate(db: Kysely<Tables>, dialect: Dialect, id: string): Promise<Reservation | undefined> {
  let query = db.selectFrom('reservations').selectAll().where('id', '=', id);
  if (dialect === 'postgres') query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function updateReservation(
  db: Kysely<Tables>,
  id: string,
  changes: Partial<Pick<Reservation, 'status' | 'notes' | 'responded_at'>>,
): Promise<Reservation> {
  return db.updateTable('reservations').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** Deletes the reservation if both id and product match; true when there was one. */
export async function deleteReservation(db: Kysely<Tables>, id: string, productSlug: string): Promise<boolean> {
  const result = await db.deleteFrom('reservations').where('id', '=', id).where('product_slug', '=', productSlug).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
