import { v7 as uuidv7 } from 'uuid';
import type { Catalog } from '../catalog/catalog.ts';
import type { Database } from '../db/database.ts';
import { enqueueMessages } from '../notifications/outbox-store.ts';
import { reservationChatMessage, reservationConfirmationEmail } from '../notifications/templates/reservation.ts';
import { insertReservation } from './store.ts';

export interface ReservationRequest {
  /** Trimmed, on one line. */
  name: string;
  /** Lowercased. */
  email: string;
  productSlug: string;
}

export type ReserveResult = { ok: true; reservationId: string } | { ok: false; reason: 'unknown-product' };

/**
 * Takes a reservation: the row and its two messages (the customer's confirmation email, the shop's
 * chat notice) are written in one transaction, so either all three exist or none does. Delivery
 * happens afterwards, in the dispatcher, which is woken once the transaction has committed.
 */
export async function reserve(
  deps: { database: Database; catalog: Catalog; wakeDispatcher: () => void },
  request: ReservationRequest,
  now: Date = new Date(),
): Promise<ReserveResult> {
  const product = deps.catalog.bySlug.get(request.productSlug);
  if (!product) return { ok: false, reason: 'unknown-product' };

  const reservation = { id: `res_${uuidv7()}`, name: request.name, email: request.email, createdAt: now.toISOString() };
  await deps.database.db.transaction().execute(async (trx) => {
    await insertReservation(trx, {
      id: reservation.id,
      name: reservation.name,
      email: reservation.email,
      product_slug: product.slug,
      status: 'pending',
      created_at: reservation.createdAt,
    });
    await enqueueMessages(
      trx,
      [
        {
          idempotencyKey: `reservation/${reservation.id}/confirmation-email`,
          recordId: reservation.id,
          message: { channel: 'email', to: reservation.email, content: reservationConfirmationEmail(reservation, product) },
        },
        {
          idempotencyKey: `reservation/${reservation.id}/chat`,
          recordId: reservation.id,
          message: { channel: 'chat', webhook: 'reservation', content: reservationChatMessage(reservation, product) },
        },
      ],
      reservation.createdAt,
    );
  });
  deps.wakeDispatcher();
  return { ok: true, reservationId: reservation.id };
}
