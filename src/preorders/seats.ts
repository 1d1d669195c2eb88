import type { Kysely } from 'kysely';
import type { Dialect } from '../db/database.ts';
import type { Tables } from '../db/schema.ts';
import { canonicalAddress } from '../text/canonical-address.ts';
import { preorderState, withinCustomerLimit, type SeatRefusal } from './campaign.ts';
import { addSeats, customerSeats, listPreorders, lockPreorders, moveSeat } from './store.ts';

/** A reservation asking for a seat: its product, address and time (ISO). */
export interface SeatRequest {
  productSlug: string;
  email: string;
  at: string;
}

/** Per request: the campaign whose seat it took, null when its product has no campaign, or why it was refused. */
export type SeatOutcome = { taken: true; preorderId: string | null } | { taken: false; refusal: SeatRefusal };

/**
 * Takes a seat for each request of a batch (a group commit's), in the caller's transaction, first
 * come first served: the campaigns of the batch's products are locked, each request is checked
 * against its campaign's dates, seats and its address's limit as they stand after the requests
 * before it, and the counters move once per campaign. A batch may ask for more seats than are
 * left: the first requests take them and the rest are refused, none counted twice, and a product
 * without a campaign never waits for a lock. An address's seats are counted under its canonical
 * form (text/canonical-address.ts): taro+1@ and taro+2@ are one customer against the limit.
 */
export async function takeSeats(trx: Kysely<Tables>, dialect: Dialect, requests: SeatRequest[]): Promise<SeatOutcome[]> {
  const preorders = await lockPreorders(trx, dialect, [...new Set(requests.map((r) => r.productSlug))]);
  const outcomes: SeatOutcome[] = requests.map(() => ({ taken: true, preorderId: null }));
  for (const preorder of preorders) {
    const indexes = requests.flatMap((r, i) => (r.productSlug === preorder.product_slug ? [i] : []));
    const customers = new Map(indexes.map((i) => [i, canonicalAddress(requests[i]!.email)]));
    const held = await customerSeats(trx, preorder.id, [...new Set(customers.values())]);
    const added = new Map<string, number>();
    const seats = { ...preorder };
    for (const i of indexes) {
      const { at } = requests[i]!;
      const email = customers.get(i)!;
      const state = preorderState(seats, at);
      const refusal: SeatRefusal | undefined =
        state !== 'open'
          ? state
          : !withinCustomerLimit(seats, (held.get(email) ?? 0) + (added.get(email) ?? 0))
            ? 'customerLimit'
            : undefined;
      if (refusal) {
        outcomes[i] = { taken: false, refusal };
        continue;
      }
      seats.reserved += 1;
      added.set(email, (added.get(email) ?? 0) + 1);
      outcomes[i] = { taken: true, preorderId: preorder.id };
    }
    await addSeats(trx, preorder.id, added);
  }
  return outcomes;
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
