import type { Kysely } from 'kysely';
import type { Catalog } from '../catalog/catalog.ts';
import type { Tables } from '../db/schema.ts';
import { uuidV7 } from '../db/time-ordered-id.ts';
import type { OutboxEntry } from '../notifications/message.ts';
import { enqueueMessages } from '../notifications/outbox-store.ts';
import { reservationChatMessage, reservationConfirmationFacts } from '../notifications/templates/reservation.ts';
import { insertReservations, type NewReservationRow } from './store.ts';

export interface ReservationRequest {
  /** Trimmed, on one line. */
  name: string;
  /** Lowercased. */
  email: string;
  productSlug: string;
}

/** A reservation and the messages it sends, written together. */
export interface ReservationWrite {
  row: NewReservationRow;
  messages: OutboxEntry[];
}

export type ReserveResult = { ok: true; reservationId: string } | { ok: false; reason: 'unknown-product' };

/**
 * Takes a reservation: the row and its two messages (the customer's confirmation email, the shop's
 * chat notice) are written in one transaction, so either all three exist or none does. Delivery
 * happens afterwards, in the dispatcher, which is woken once the transaction has committed.
 */
export async function reserve(
  deps: { catalog: Catalog; write: (reservation: ReservationWrite) => Promise<void>; wakeDispatcher: () => void },
  request: ReservationRequest,
  now: Date = new Date(),
): Promise<ReserveResult> {
  const product = deps.catalog.bySlug.get(request.productSlug);
  if (!product) return { ok: false, reason: 'unknown-product' };

  const reservation = { id: `res_${uuidV7(now.getTime())}`, name: request.name, email: request.email, createdAt: now.toISOString() };
  await deps.write({
    row: { id: reservation.id, name: reservation.name, email: reservation.email, product_slug: product.slug, status: 'pending', created_at: reservation.createdAt },
    messages: [
      {
        idempotencyKey: `reservation/${reservation.id}/confirmation-email`,
        recordId: reservation.id,
        queuedAt: reservation.createdAt,
        message: { channel: 'email', to: reservation.email, email: { template: 'reservation-confirmation', facts: reservationConfirmationFacts(reservation, product) } },
      },
      {
        idempotencyKey: `reservation/${reservation.id}/chat`,
        recordId: reservation.id,
        queuedAt: reservation.createdAt,
        message: { channel: 'chat', webhook: 'reservation', content: reservationChatMessage(reservation, product) },
      },
    ],
  });
  deps.wakeDispatcher();
  return { ok: true, reservationId: reservation.id };
}

/** Writes reservations with their messages, all in the caller's transaction. */
export async function writeReservations(trx: Kysely<Tables>, reservations: ReservationWrite[]): Promise<void> {
  await insertReservations(
    trx,
    reservations.map((r) => r.row),
  );
  await enqueueMessages(trx, reservations.flatMap((r) => r.messages));
}
