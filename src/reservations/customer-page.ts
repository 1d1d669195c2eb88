import type { Catalog } from '../catalog/catalog.ts';
import type { Database } from '../db/database.ts';
import { verifyManageToken } from '../messaging/links.ts';
import type { Messaging } from '../messaging/messaging.ts';
import { campaignNotes } from '../preorders/store.ts';
import type { ShopContact } from '../shop/contact.ts';
import { readShop } from '../shop/shop.ts';
import { changeReservationStatus } from './change-status.ts';
import type { PageContext } from './manage-page.ts';
import { findReservation, type Reservation } from './store.ts';

// The customer's own page of a reservation, reached by the signed link in every reservation email:
// what it shows, and the cancel it offers while the reservation is pending.

export interface CustomerPageDeps {
  database: Database;
  catalog: Catalog;
  messaging: Messaging;
  /** Signs the page's links (UNSUBSCRIBE_SECRET). */
  manageSecret: string;
  wakeDispatcher: () => void;
}

export type PageRefusal = { ok: false; reason: 'badToken' | 'notFound' };

/** The reservation a page link names; refused when the link was not made by the shop or the reservation was erased. */
export async function customerReservation(
  deps: Pick<CustomerPageDeps, 'database' | 'manageSecret'>,
  token: string | undefined,
): Promise<{ ok: true; reservation: Reservation } | PageRefusal> {
  const id = token === undefined ? undefined : verifyManageToken(deps.manageSecret, token);
  if (id === undefined) return { ok: false, reason: 'badToken' };
  const reservation = await findReservation(deps.database.db, id);
  return reservation ? { ok: true, reservation } : { ok: false, reason: 'notFound' };
}

/** What the page says besides the reservation: its product's name, its campaign's words, and the shop's own name and contact. */
export async function pageContext(deps: Pick<CustomerPageDeps, 'database' | 'catalog'>, reservation: Reservation): Promise<PageContext> {
  const campaigns = reservation.preorder_id ? await campaignNotes(deps.database.db, [reservation.preorder_id]) : undefined;
  return {
    productName: deps.catalog.bySlug.get(reservation.product_slug)?.name ?? reservation.product_slug,
    campaign: reservation.preorder_id ? campaigns?.get(reservation.preorder_id) : undefined,
    shop: await shopContact(deps),
  };
}

/** The shop's name and contact, which even a page refusing its link shows. */
export function shopContact(deps: Pick<CustomerPageDeps, 'database'>): Promise<ShopContact> {
  return readShop(deps.database.db);
}

/**
 * The customer cancels: a pending, active reservation becomes cancelled, with the cancellation email
 * and the shop's chat notice queued in the same transaction (change-status.ts). Anything else changes
 * nothing and the answer says why (`not-pending`, with the reservation as it is).
 */
export async function cancelByCustomer(
  deps: CustomerPageDeps,
  token: string | undefined,
): Promise<{ ok: true; outcome: 'cancelled' | 'notPending'; reservation: Reservation } | PageRefusal> {
  const found = await customerReservation(deps, token);
  if (!found.ok) return found;
  const { id, product_slug: productSlug } = found.reservation;
  const result = await changeReservationStatus(deps, { id, productSlug, status: 'cancelled', byCustomer: true });
  if (result.outcome === 'updated') {
    deps.wakeDispatcher();
    return { ok: true, outcome: 'cancelled', reservation: result.record };
  }
  const now = await findReservation(deps.database.db, id);
  return now ? { ok: true, outcome: 'notPending', reservation: now } : { ok: false, reason: 'notFound' };
}
