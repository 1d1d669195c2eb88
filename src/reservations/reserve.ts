import type { Catalog } from '../catalog/catalog.ts';
import type { Dialect } from '../db/database.ts';
import type { Work } from '../db/group-commit.ts';
import { uuidV7 } from '../db/time-ordered-id.ts';
import type { Messaging } from '../messaging/messaging.ts';
import { takeSeat, type SeatRefusal } from '../preorders/campaign.ts';
import { insertReservation } from './store.ts';

export interface ReservationRequest {
  /** Trimmed, on one line. */
  name: string;
  /** Lowercased. */
  email: string;
  productSlug: string;
}

/** A reservation taken, with the number the customer quotes (null only when an idempotent retry's reservation was erased since), or why not. */
export type ReserveResult =
  { ok: true; reservationId: string; reservationNumber: number | null } | { ok: false; reason: 'unknownProduct' | SeatRefusal };

export interface ReserveDeps {
  catalog: Catalog;
  dialect: Dialect;
  messaging: Messaging;
  /** Runs the write in a transaction (the app's shares one among the reservations of a moment, and makes it idempotent per key). */
  transaction: (work: Work<ReserveResult>) => Promise<ReserveResult>;
  wakeDispatcher: () => void;
}

/**
 * Takes a reservation of a product, at `now` (when its request reached the shop): 1. the product
 * must be in the catalog; 2. in one transaction, a seat of its preorder campaign, if it has one, is
 * taken or refused (dates, seats left, the address's limit); 3. the reservation is written, the
 * database giving its number; 4. messaging queues the customer's confirmation email and the shop's
 * chat notice. All of it commits or none does; once it has, the dispatcher is woken to deliver.
 */
export async function reserve(deps: ReserveDeps, request: ReservationRequest, now: Date): Promise<ReserveResult> {
  const product = deps.catalog.bySlug.get(request.productSlug);
  if (!product) return { ok: false, reason: 'unknownProduct' };
  const id = `res_${uuidV7(now.getTime())}`;
  const at = now.toISOString();

  const result = await deps.transaction(async (trx): Promise<ReserveResult> => {
    const seat = await takeSeat(trx, deps.dialect, { productSlug: product.slug, email: request.email, at });
    if (!seat.taken) return { ok: false, reason: seat.refusal };
    const reservation = {
      id,
      name: request.name,
      email: request.email,
      product_slug: product.slug,
      status: 'pending',
      created_at: at,
      preorder_id: seat.campaign?.id ?? null,
    };
    const number = await insertReservation(trx, reservation);
    await deps.messaging.reservationTaken(trx, { ...reservation, number }, product, seat.campaign ?? undefined);
    return { ok: true, reservationId: id, reservationNumber: number };
  });

  if (result.ok) deps.wakeDispatcher();
  return result;
}
