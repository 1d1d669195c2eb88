import type { Preorder } from './store.ts';

// What a campaign's row means at a moment: its state and its seats left.

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
