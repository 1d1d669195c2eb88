import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import type { Tables } from '../db/schema.ts';
import { eraseMessagesAbout } from '../messaging/about-records.ts';
import { releaseSeat } from '../preorders/campaign.ts';
import { deleteHistoryOf } from '../records/history-store.ts';
import { deleteReservation, deleteReservationsAt } from './store.ts';

/** One reservation, or every reservation at a canonical address (a customer's request). */
export type ReservationsToErase = { id: string; productSlug: string } | { addressKey: string };

/**
 * Erases reservations inside the caller's transaction: the rows, every message about them, sent or
 * not (they quote the name and address), and their history (memos quote them); a reservation not
 * cancelled gives its seat back to its campaign. The rows are deleted first and the rest found from
 * what was deleted, so one taken at the same moment is erased whole or left whole. How many of each.
 */
export async function eraseReservations(
  trx: Kysely<Tables>,
  which: ReservationsToErase,
): Promise<{ reservations: number; messages: number }> {
  const deleted =
    'id' in which
      ? [await deleteReservation(trx, which.id, which.productSlug)].filter((row) => row !== undefined)
      : await deleteReservationsAt(trx, which.addressKey);
  for (const reservation of deleted) if (reservation.status !== 'cancelled') await releaseSeat(trx, reservation);
  const ids = deleted.map((reservation) => reservation.id);
  const messages = await eraseMessagesAbout(trx, ids);
  await deleteHistoryOf(trx, ids);
  return { reservations: deleted.length, messages };
}

/** Erases one reservation (the admin route); false when there is no such reservation. */
export async function eraseReservation(database: Database, target: { id: string; productSlug: string }): Promise<boolean> {
  return database.db.transaction().execute(async (trx) => (await eraseReservations(trx, target)).reservations > 0);
}
