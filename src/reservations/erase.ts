import type { Database } from '../db/database.ts';
import { eraseMessagesAbout } from '../messaging/about-records.ts';
import { releaseSeat } from '../preorders/seats.ts';
import { deleteHistoryOf } from '../records/history-store.ts';
import { deleteReservation } from './store.ts';

/**
 * Erases a reservation (a customer's request to delete their data): the row, every message about
 * it, sent or not, since those quote the name and address too, and its history (memos quote them).
 * False when no such reservation.
 */
export async function eraseReservation(database: Database, target: { id: string; productSlug: string }): Promise<boolean> {
  return database.db.transaction().execute(async (trx) => {
    const deleted = await deleteReservation(trx, target.id, target.productSlug);
    if (!deleted) return false;
    await eraseMessagesAbout(trx, [target.id]);
    await deleteHistoryOf(trx, [target.id]);
    // An erased reservation is no longer one of its campaign's.
    if (deleted.status !== 'cancelled') await releaseSeat(trx, deleted);
    return true;
  });
}
