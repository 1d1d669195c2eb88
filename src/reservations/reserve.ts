import type { Kysely } from 'kysely';
import type { Catalog } from '../catalog/catalog.ts';
import type { Database, Dialect } from '../db/database.ts';
import { groupCommit } from '../db/group-commit.ts';
import type { Tables } from '../db/schema.ts';
import { uuidV7 } from '../db/time-ordered-id.ts';
import type { OutboxEntry } from '../notifications/message.ts';
import { enqueueMessages } from '../notifications/outbox-store.ts';
import type { SeatRefusal } from '../preorders/campaign.ts';
import { takeSeats, type SeatOutcome } from '../preorders/seats.ts';
import { reservationChatMessage } from '../notifications/templates/reservation.ts';
import { reservationEmailFacts } from '../email-templates/facts.ts';
import { productPageUrl } from '../subscriptions/links.ts';
import { manageUrl } from './manage-link.ts';
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

export type ReserveResult = { ok: true; reservationId: string } | { ok: false; reason: 'unknown-product' | SeatRefusal };

/**
 * Takes a reservation: the row and its two messages (the customer's confirmation email, the shop's
 * chat notice) are written in one transaction, so either all three exist or none does. Delivery
 * happens afterwards, in the dispatcher, which is woken once the transaction has committed. When
 * the product has a preorder campaign, the write takes a seat of it first, or refuses (SPEC §7).
 */
export async function reserve(
  deps: { catalog: Catalog; write: (reservation: ReservationWrite) => Promise<SeatOutcome>; wakeDispatcher: () => void; publicBaseUrl: string; manageSecret: string },
  request: ReservationRequest,
  now: Date = new Date(),
): Promise<ReserveResult> {
  const product = deps.catalog.bySlug.get(request.productSlug);
  if (!product) return { ok: false, reason: 'unknown-product' };

  const reservation = { id: `res_${uuidV7(now.getTime())}`, name: request.name, email: request.email, createdAt: now.toISOString() };
  const seat = await deps.write({
    row: { id: reservation.id, name: reservation.name, email: reservation.email, product_slug: product.slug, status: 'pending', created_at: reservation.createdAt },
    messages: [
      {
        idempotencyKey: `reservation/${reservation.id}/confirmation-email`,
        recordId: reservation.id,
        queuedAt: reservation.createdAt,
        message: {
          channel: 'email',
          to: reservation.email,
          email: {
            template: 'reservation-received',
            facts: reservationEmailFacts(reservation, product, {
              productUrl: productPageUrl(deps.publicBaseUrl, product),
              manageUrl: manageUrl(deps.publicBaseUrl, deps.manageSecret, reservation.id),
            }),
          },
        },
      },
      {
        idempotencyKey: `reservation/${reservation.id}/chat`,
        recordId: reservation.id,
        queuedAt: reservation.createdAt,
        message: { channel: 'chat', webhook: 'reservation', content: reservationChatMessage(reservation, product) },
      },
    ],
  });
  if (!seat.taken) return { ok: false, reason: seat.refusal };
  deps.wakeDispatcher();
  return { ok: true, reservationId: reservation.id };
}

/**
 * Writes a batch of reservations with their messages, all in the caller's transaction: those whose
 * product's campaign gives them a seat (or that have no campaign), each answered with its outcome.
 */
export async function writeReservations(trx: Kysely<Tables>, dialect: Dialect, reservations: ReservationWrite[]): Promise<SeatOutcome[]> {
  const seats = await takeSeats(
    trx,
    dialect,
    reservations.map(({ row }) => ({ productSlug: row.product_slug, email: row.email, at: row.created_at })),
  );
  const taken = reservations.flatMap((r, i) => {
    const seat = seats[i]!;
    return seat.taken ? [{ ...r, row: { ...r.row, preorder_id: seat.preorderId } }] : [];
  });
  await insertReservations(
    trx,
    taken.map((r) => r.row),
  );
  await enqueueMessages(trx, taken.flatMap((r) => r.messages));
  return seats;
}

/** The reservation write of a store: reservations taken in the same moment share one transaction. */
export function reservationWriter(database: Database): (reservation: ReservationWrite) => Promise<SeatOutcome> {
  return groupCommit(database, (trx, batch: ReservationWrite[]) => writeReservations(trx, database.dialect, batch));
}
