import type { Database } from '../db/database.ts';
import type { Messaging } from '../messaging/messaging.ts';
import { releaseSeat, retakeSeat } from '../preorders/campaign.ts';
import { byStaff, BY_CUSTOMER, recordStatusChange } from '../records/history.ts';
import { changeTime, invalidTransition, NOT_FOUND, refusedStatusChange, type StatusChangeResult } from '../records/status-checks.ts';
import { findRecordForUpdate } from '../records/store.ts';
import { RESERVATION_STATUS_TABLE, type ReservationStatus } from './status.ts';
import { updateReservation, type Reservation } from './store.ts';

export interface ReservationStatusChange {
  id: string;
  productSlug: string;
  status: ReservationStatus;
  /** Replaces the notes when given ('' clears them); absent keeps them. */
  notes?: string;
  /** False: the move emails the customer nothing; absent or true: it does, when its template is enabled. */
  notifyCustomer?: boolean;
  /** The record's `updatedAt` as the requester last saw it: when it has changed since, nothing is written. */
  expectedUpdatedAt?: string;
  /** The customer cancelling on their own page: allowed only from `pending`, recorded as theirs, and the shop is told in chat. */
  byCustomer?: boolean;
  /** The staff account making it (its history names it); null or absent for the bearer token and the customer. */
  staffId?: string | null;
}

/** A campaign's reservation moved back from cancelled needs a seat again. */
export const PREORDER_FULL = { code: 'preorder_full', error: 'Preorder is full' } as const;

/**
 * Moves a reservation to another status, or edits its notes (staff's request, or the customer's own
 * cancel), in one transaction with the row locked, so two changes cannot both pass a check the other
 * invalidates: 1. the checks every record's move passes (a customer may only cancel a pending one);
 * 2. the same status and notes change nothing; 3. a campaign's seat is given back on a cancel and
 * taken again on a move back, which a full campaign refuses; 4. the move is written, the shop's first
 * response time kept once set; 5. messaging queues the customer's email (and, for their own cancel,
 * the shop's chat notice); 6. the history gets the move, the memo edit and who made them.
 */
export async function changeReservationStatus(
  deps: { database: Database; messaging: Messaging },
  change: ReservationStatusChange,
  now: Date = new Date(),
): Promise<StatusChangeResult<Reservation>> {
  const { database } = deps;
  return database.db.transaction().execute(async (trx): Promise<StatusChangeResult<Reservation>> => {
    const reservation = await findRecordForUpdate(trx, database.dialect, 'reservations', change.id);
    if (!reservation) return NOT_FOUND;
    const refused = refusedStatusChange(reservation, change, RESERVATION_STATUS_TABLE);
    if (refused) return refused;
    if (change.byCustomer && reservation.status !== 'pending') return invalidTransition(reservation.status, change.status);
    if (reservation.status === change.status && (change.notes === undefined || change.notes === reservation.notes))
      return { outcome: 'updated', record: reservation };

    const cancelled = reservation.status === 'cancelled';
    if (cancelled && change.status !== 'cancelled' && !(await retakeSeat(trx, reservation)))
      return { outcome: 'conflict', ...PREORDER_FULL };
    if (!cancelled && change.status === 'cancelled') await releaseSeat(trx, reservation);

    const at = changeTime(reservation.updated_at, now);
    // The shop's first response: a customer's own cancel is theirs, not the shop's.
    const firstResponse =
      !change.byCustomer && reservation.responded_at === null && reservation.status === 'pending' && change.status !== 'pending';
    const record = await updateReservation(trx, reservation.id, {
      status: change.status,
      updated_at: at.toISOString(),
      ...(change.notes !== undefined ? { notes: change.notes } : {}),
      ...(firstResponse ? { responded_at: at.toISOString() } : {}),
    });

    const { customerEmailed } = await deps.messaging.reservationStatusMoved(trx, record, {
      from: reservation.status,
      at,
      notifyCustomer: change.notifyCustomer,
      byCustomer: change.byCustomer,
    });

    await recordStatusChange(trx, reservation, record, {
      by: change.byCustomer ? BY_CUSTOMER : byStaff(change.staffId ?? null),
      customerEmailed,
    });
    return { outcome: 'updated', record };
  });
}
