import type { Kysely } from 'kysely';
import type { Catalog } from '../catalog/catalog.ts';
import type { Product } from '../catalog/product.ts';
import type { Database, Dialect } from '../db/database.ts';
import { groupCommit } from '../db/group-commit.ts';
import type { Tables } from '../db/schema.ts';
import { uuidV7 } from '../db/time-ordered-id.ts';
import { claimOf, type IdempotencyKey } from '../idempotency/claim.ts';
import { keyedWrites, type Keyed, type KeyedOutcome } from '../idempotency/keyed-writes.ts';
import type { Messaging } from '../messaging/messaging.ts';
import type { SeatRefusal } from '../preorders/campaign.ts';
import { takeSeats } from '../preorders/seats.ts';
import { insertReservations, numbersOf, type NewReservationRow } from './store.ts';

export interface ReservationRequest {
  /** Trimmed, on one line. */
  name: string;
  /** Lowercased. */
  email: string;
  productSlug: string;
}

/** A reservation to write, and its product, which its messages name. */
export interface ReservationWrite {
  row: NewReservationRow;
  product: Product;
}

/** A reservation answered: its id and number (null only when a replayed key's reservation was erased since). */
export type ReserveResult =
  | { ok: true; reservationId: string; reservationNumber: number | null }
  | { ok: false; reason: 'unknownProduct' | 'keyReused' | SeatRefusal };

/** What became of a reservation of a batch: taken (with its campaign, if any, and the number it was given) or refused. */
export type ReservationOutcome = { taken: true; preorderId: string | null; number: number } | { taken: false; refusal: SeatRefusal };

/** Writes a reservation (with the key its request carried, if any); see reservationWriter. */
export type WriteReservation = (reservation: Keyed<ReservationWrite>) => Promise<KeyedOutcome<ReservationOutcome>>;

/**
 * Takes a reservation: the row and its messages (the customer's confirmation email, the shop's
 * chat notice) are written in one transaction, so either all exist or none does. Delivery happens
 * afterwards, in the dispatcher, which is woken once the transaction has committed. When the
 * product has a preorder campaign, the write takes a seat of it first, or refuses. With an
 * Idempotency-Key a key first sent with this request answers its first reservation again, writing
 * nothing and taking no seat; one first sent with another is refused.
 */
export async function reserve(
  deps: { database: Database; catalog: Catalog; write: WriteReservation; wakeDispatcher: () => void; idempotencySecret: string },
  request: ReservationRequest,
  now: Date = new Date(),
  key?: IdempotencyKey,
): Promise<ReserveResult> {
  const product = deps.catalog.bySlug.get(request.productSlug);
  if (!product) return { ok: false, reason: 'unknownProduct' };

  const id = `res_${uuidV7(now.getTime())}`;
  const row: NewReservationRow = {
    id,
    name: request.name,
    email: request.email,
    product_slug: product.slug,
    status: 'pending',
    created_at: now.toISOString(),
  };
  const outcome = await deps.write({
    item: { row, product },
    claim: key && claimOf(deps.idempotencySecret, key, 'reservation', [request.name, request.email, request.productSlug]),
  });
  if (outcome.kind === 'replay') {
    const numbers = await numbersOf(deps.database.db, [outcome.recordId]);
    return { ok: true, reservationId: outcome.recordId, reservationNumber: numbers.get(outcome.recordId) ?? null };
  }
  if (outcome.kind === 'mismatch') return { ok: false, reason: 'keyReused' };
  if (!outcome.result.taken) return { ok: false, reason: outcome.result.refusal };
  deps.wakeDispatcher();
  return { ok: true, reservationId: id, reservationNumber: outcome.result.number };
}

/**
 * Writes a batch of reservations with their messages, all in the caller's transaction: those whose
 * product's campaign gives them a seat (or that have no campaign), each answered with its outcome.
 */
export async function writeReservations(
  trx: Kysely<Tables>,
  dialect: Dialect,
  messaging: Messaging,
  reservations: ReservationWrite[],
): Promise<ReservationOutcome[]> {
  const seats = await takeSeats(
    trx,
    dialect,
    reservations.map(({ row }) => ({ productSlug: row.product_slug, email: row.email, at: row.created_at })),
  );
  const taken = reservations.flatMap((r, i) => {
    const seat = seats[i]!;
    return seat.taken ? [{ ...r, row: { ...r.row, preorder_id: seat.preorderId } }] : [];
  });
  const numbers = await insertReservations(
    trx,
    taken.map((r) => r.row),
  );
  await messaging.reservationsTaken(
    trx,
    taken.map(({ row, product }) => ({ reservation: { ...row, number: numbers.get(row.id)! }, product })),
  );
  return seats.map((seat, i) => (seat.taken ? { ...seat, number: numbers.get(reservations[i]!.row.id)! } : seat));
}

/** Batches of reservations start at least this far apart (group-commit.ts): 50 commits a second at most. */
const RESERVATION_GATHER_MS = 20;

/**
 * The reservation write of a store: reservations taken in the same moment share one transaction,
 * which also claims their keys; a key answers with its reservation only when a seat was taken.
 * Batches are written one at a time, in the order their requests reached the instance, so seats
 * are first come, first served (docs/preorders.md).
 */
export function reservationWriter(database: Database, messaging: Messaging, now?: () => Date): WriteReservation {
  return groupCommit(
    database,
    keyedWrites({
      write: (trx, batch: ReservationWrite[]) => writeReservations(trx, database.dialect, messaging, batch),
      proposedAnswer: ({ row }) => row.id,
      answerOf: (seat, { row }) => (seat.taken ? row.id : undefined),
      now,
    }),
    { inOrder: true, gatherMs: RESERVATION_GATHER_MS },
  );
}
