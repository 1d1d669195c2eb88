import type { Database } from '../db/database.ts';
import { deleteMessagesAbout } from '../notifications/outbox-store.ts';
import { allowsMove, type StatusChangeRefused } from '../records/status-transitions.ts';
import { RESERVATION_STATUS_TABLE, type ReservationStatus } from './status.ts';
import { deleteReservation, findReservationForUpdate, updateReservation, type Reservation } from './store.ts';

export interface StatusChange {
  id: string;
  productSlug: string;
  status: ReservationStatus;
  /** Replaces the notes when given ('' clears them); absent keeps them. */
  notes?: string;
}

export type StatusChangeResult =
  | { outcome: 'updated'; reservation: Reservation }
  | StatusChangeRefused;

/**
 * An administrator's status update. Only the seed's moves are allowed, or staying on the same
 * status to edit the notes; archived reservations are left alone. The first move away from
 * `pending` records when the shop responded, and that time is never overwritten. The row is locked
 * while it is checked, so two concurrent updates cannot both pass a check the other invalidates.
 */
export async function changeReservationStatus(database: Database, change: StatusChange, now: Date = new Date()): Promise<StatusChangeResult> {
  return database.db.transaction().execute(async (trx) => {
    const current = await findReservationForUpdate(trx, database.dialect, change.id);
    if (!current || current.product_slug !== change.productSlug) return { outcome: 'not-found' };
    if (current.archived_at !== null) return { outcome: 'archived' };
    if (!allowsMove(RESERVATION_STATUS_TABLE, current.status, change.status)) {
      return { outcome: 'invalid-transition', from: current.status, to: change.status };
    }
    const firstResponse = current.responded_at === null && current.status === 'pending' && change.status !== 'pending';
    const reservation = await updateReservation(trx, current.id, {
      status: change.status,
      ...(change.notes !== undefined ? { notes: change.notes } : {}),
      ...(firstResponse ? { responded_at: now.toISOString() } : {}),
    });
    return { outcome: 'updated', reservation };
  });
}

/**
 * Erases a reservation (a customer's request to delete their data): the row and every message about
 * it, sent or not, since those quote the name and address too. False when no such reservation.
 */
export async function eraseReservation(database: Database, target: { id: string; productSlug: string }): Promise<boolean> {
  return database.db.transaction().execute(async (trx) => {
    const deleted = await deleteReservation(trx, target.id, target.productSlug);
    if (deleted) await deleteMessagesAbout(trx, target.id);
    return deleted;
  });
}
