import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import type { Tables } from '../db/schema.ts';
import { eraseMessagesAbout } from '../messaging/about-records.ts';
import type { Messaging } from '../messaging/messaging.ts';
import { releaseSeat, retakeSeat } from '../preorders/seats.ts';
import { deleteHistoryOf } from '../records/history-store.ts';
import type { StatusChangeResult } from '../records/record-kind.ts';
import type { ReservationStatus } from './status.ts';
import { deleteReservation, updateReservation, type Reservation } from './store.ts';

export interface ReservationStatusChange {
  id: string;
  productSlug: string;
  status: ReservationStatus;
  /** Replaces the notes when given ('' clears them); absent keeps them. */
  notes?: string;
  /** False: the move emails the customer nothing; absent or true: it does, when its template is enabled. */
  notifyCustomer?: boolean;
  /** The customer cancelling on their own page: allowed only from `pending`, and the shop is told in chat. */
  byCustomer?: boolean;
}

/**
 * A reservation's part of an allowed status move (src/records/status-change.ts checked it): the
 * status, and the notes when given, and the messages about the move (the customer's email, the
 * shop's chat notice of a customer's own cancel), queued in the same transaction. Staying on the same status is a notes edit, and with the same
 * notes nothing changes (so `updatedAt` stays). The first move away from `pending` records when
 * the shop responded, and that time is never overwritten. A reservation of a preorder campaign
 * gives its seat back when cancelled, and takes one again when moved back from cancelled, which a
 * campaign with no seat left refuses.
 */
export async function applyReservationStatus(
  trx: Kysely<Tables>,
  current: Reservation,
  change: ReservationStatusChange,
  now: Date,
  messaging: Messaging,
): Promise<StatusChangeResult<'reservations'>> {
  if (change.byCustomer && current.status !== 'pending') return { outcome: 'invalid-transition', from: current.status, to: change.status };
  if (current.status === change.status && (change.notes === undefined || change.notes === current.notes))
    return { outcome: 'updated', record: current };
  const cancelled = current.status === 'cancelled';
  if (cancelled && change.status !== 'cancelled' && !(await retakeSeat(trx, current)))
    return { outcome: 'conflict', code: 'preorder_full', error: 'Preorder is full' };
  if (!cancelled && change.status === 'cancelled') await releaseSeat(trx, current);
  const firstResponse = current.responded_at === null && current.status === 'pending' && change.status !== 'pending';
  const record = await updateReservation(trx, current.id, {
    status: change.status,
    updated_at: now.toISOString(),
    ...(change.notes !== undefined ? { notes: change.notes } : {}),
    ...(firstResponse ? { responded_at: now.toISOString() } : {}),
  });
  const { customerEmailed } = await messaging.reservationStatusMoved(trx, record, {
    from: current.status,
    at: now,
    notifyCustomer: change.notifyCustomer,
    byCustomer: change.byCustomer,
  });
  return { outcome: 'updated', record, customerEmailed };
}

/**
 * Erases a reservation (a customer's request to delete their data): the row, every message about
 * it, sent or not, since those quote the name and address too, and its history (memos quote them). False when no such reservation.
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
