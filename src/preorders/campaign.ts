import type { Kysely } from 'kysely';
import type { Dialect } from '../db/database.ts';
import type { Tables } from '../db/schema.ts';
import { canonicalAddress } from '../text/canonical-address.ts';
import { addSeats, customerSeats, listPreorders, lockPreorders, moveSeat, type Preorder } from './store.ts';

// A preorder campaign: what its row means at a moment (its state, its seats left), and its seats
// taken and given back by reservations, in their transactions.

export type PreorderState = 'upcoming' | 'closed' | 'soldOut' | 'open';

/** The reasons a reservation is refused by its product's campaign, in the order they are checked. */
export type SeatRefusal = 'upcoming' | 'closed' | 'soldOut' | 'customerLimit';

/** Seats left; null without a capacity. A capacity lowered below what is reserved leaves 0. */
export function remainingSeats(preorder: Pick<Preorder, 'capacity' | 'reserved'>): number | null {
  return preorder.capacity === null ? null : Math.max(0, preorder.capacity - preorder.reserved);
}

/** Checked in this order: before opensAt, after closesAt, no seat left, else open. `now` is an ISO time. */
export function preorderState(preorder: Pick<Preorder, 'opens_at' | 'closes_at' | 'capacity' | 'reserved'>, now: string): PreorderState {
  if (preorder.opens_at !== null && now < preorder.opens_at) return 'upcoming';
  if (preorder.closes_at !== null && now > preorder.closes_at) return 'closed';
  if (remainingSeats(preorder) === 0) return 'soldOut';
  return 'open';
}

/** Whether an address holding `held` seats may take one more. */
export function withinCustomerLimit(preorder: Pick<Preorder, 'per_customer_limit'>, held: number): boolean {
  return preorder.per_customer_limit === null || held < preorder.per_customer_limit;
}

/** A campaign as the admin routes show it (the public route shows part of it). */
export function preorderView(preorder: Preorder, now: string) {
  return {
    id: preorder.id,
    productSlug: preorder.product_slug,
    opensAt: preorder.opens_at,
    closesAt: preorder.closes_at,
    capacity: preorder.capacity,
    perCustomerLimit: preorder.per_customer_limit,
    shipsIn: preorder.ships_in,
    note: preorder.note,
    createdAt: preorder.created_at,
    updatedAt: preorder.updated_at,
    reserved: preorder.reserved,
    remaining: remainingSeats(preorder),
    state: preorderState(preorder, now),
  };
}

/** A reservation asking for a seat: its product, address and time (ISO). */
export interface SeatRequest {
  productSlug: string;
  email: string;
  at: string;
}

/** The campaign a seat was taken of, with the words its customers' emails carry. */
export interface SeatCampaign {
  id: string;
  shipsIn: string | null;
  note: string | null;
}

/** The campaign whose seat a request took, null when its product has none, or why it was refused. */
export type SeatOutcome = { taken: true; campaign: SeatCampaign | null } | { taken: false; refusal: SeatRefusal };

/**
 * Takes a seat of the product's campaign, in the caller's transaction: the campaign is locked, the
 * request checked against its dates, its seats and the address's limit as they stand, and the
 * counters moved. A product without a campaign never waits for a lock. An address's seats are
 * counted under its canonical form (text/canonical-address.ts): taro+1@ and taro+2@ are one
 * customer against the limit.
 */
export async function takeSeat(trx: Kysely<Tables>, dialect: Dialect, request: SeatRequest): Promise<SeatOutcome> {
  const [preorder] = await lockPreorders(trx, dialect, [request.productSlug]);
  if (!preorder) return { taken: true, campaign: null };
  const state = preorderState(preorder, request.at);
  if (state !== 'open') return { taken: false, refusal: state };
  const email = canonicalAddress(request.email);
  const held = await customerSeats(trx, preorder.id, [email]);
  if (!withinCustomerLimit(preorder, held.get(email) ?? 0)) return { taken: false, refusal: 'customerLimit' };
  await addSeats(trx, preorder.id, new Map([[email, 1]]));
  return { taken: true, campaign: { id: preorder.id, shipsIn: preorder.ships_in, note: preorder.note } };
}

/** A reservation as its seat is concerned: the campaign it was taken under (if any) and its address. */
export interface SeatHolder {
  preorder_id: string | null;
  email: string;
}

/** Gives back a reservation's seat (it was cancelled or erased), in the caller's transaction. */
export async function releaseSeat(trx: Kysely<Tables>, reservation: SeatHolder): Promise<void> {
  if (reservation.preorder_id !== null) await moveSeat(trx, reservation.preorder_id, canonicalAddress(reservation.email), -1);
}

/**
 * Whether the seat a reservation just gave back opened its campaign again: the campaign was full
 * (one seat short of its capacity now) and, neither closed nor yet to open, takes reservations at `at`.
 */
export async function seatReopened(db: Kysely<Tables>, reservation: SeatHolder & { product_slug: string }, at: string): Promise<boolean> {
  if (reservation.preorder_id === null) return false;
  const [campaign] = await listPreorders(db, [reservation.product_slug]);
  if (campaign?.id !== reservation.preorder_id || campaign.capacity === null) return false;
  return campaign.reserved === campaign.capacity - 1 && preorderState(campaign, at) === 'open';
}

/**
 * Takes a seat again for a cancelled reservation moved back by staff: false when its campaign has
 * none left. Staff decide, so the address's limit does not refuse it, but the seat is counted.
 * A campaign deleted since has no seats to count.
 */
export async function retakeSeat(trx: Kysely<Tables>, reservation: SeatHolder): Promise<boolean> {
  if (reservation.preorder_id === null) return true;
  return (await moveSeat(trx, reservation.preorder_id, canonicalAddress(reservation.email), 1)) !== 'full';
}
