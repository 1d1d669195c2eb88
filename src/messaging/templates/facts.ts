import type { Product } from '../../catalog/product.ts';
import { shopContactLines, type ShopContact } from '../../shop/contact.ts';
import { formatJapanTime, formatYen } from '../../text/japan-format.ts';
import type { ReservationTemplateKind, TemplateKind } from '../kinds.ts';

// What a queued email states, fixed when it is queued (the product's name and price that day, the
// links, the preorder campaign's words), and the placeholder values made from it, and from the
// shop's own details as they are, when it is rendered.

export interface ReservationEmailFacts {
  reservationId: string;
  /** The number the customer quotes (absent in emails queued before reservations had one). */
  reservationNumber?: number;
  name: string;
  /** When the reservation was taken (ISO). */
  createdAt: string;
  productName: string;
  productUrl: string;
  price: number | null;
  manageUrl: string;
  /** The campaign's `shipsIn` and note when it was queued ('' without them; absent in emails queued before they were stated). */
  shipsIn?: string;
  preorderNote?: string;
}

export interface RestockEmailFacts {
  productName: string;
  productUrl: string;
  price: number | null;
  unsubscribeUrl: string;
}

/**
 * An email as the outbox holds it: its template kind, its facts, and the template version current
 * when it was queued, which the outbox sets when the caller has not (outbox/store.ts).
 */
export type QueuedEmail =
  | { template: ReservationTemplateKind; version?: number; facts: ReservationEmailFacts }
  | { template: 'restock-available'; version?: number; facts: RestockEmailFacts };

/** The kinds' names in emails queued before templates were editable, which the outbox may still hold. */
export const LEGACY_KINDS: Readonly<Record<string, TemplateKind>> = {
  'reservation-confirmation': 'reservation-received',
  'restock-notice': 'restock-available',
};

export function reservationEmailFacts(
  reservation: { id: string; number: number; name: string; createdAt: string },
  product: Pick<Product, 'name' | 'price'>,
  links: { productUrl: string; manageUrl: string },
  campaign: { shipsIn: string | null; note: string | null } | undefined,
): ReservationEmailFacts {
  return {
    reservationId: reservation.id,
    reservationNumber: reservation.number,
    name: reservation.name,
    createdAt: reservation.createdAt,
    productName: product.name,
    price: product.price,
    ...links,
    shipsIn: campaign?.shipsIn ?? '',
    preorderNote: campaign?.note ?? '',
  };
}

export function restockEmailFacts(
  product: Pick<Product, 'name' | 'price'>,
  links: { productUrl: string; unsubscribeUrl: string },
): RestockEmailFacts {
  return { productName: product.name, price: product.price, ...links };
}

/** The placeholders' values, formatted as the customer reads them, with the shop's details as they are now. */
export function placeholderValues(email: Pick<QueuedEmail, 'template' | 'facts'>, shop: ShopContact): Record<string, string> {
  const { facts } = email;
  const common = {
    productName: facts.productName,
    productUrl: facts.productUrl,
    price: formatYen(facts.price),
    shopSignature: shopContactLines(shop).join('\n'),
  };
  if ('unsubscribeUrl' in facts) return { ...common, unsubscribeUrl: facts.unsubscribeUrl };
  return {
    ...common,
    name: facts.name,
    reservationId: facts.reservationId,
    reservationNumber: facts.reservationNumber === undefined ? facts.reservationId : String(facts.reservationNumber),
    reservedAt: formatJapanTime(facts.createdAt),
    manageUrl: facts.manageUrl,
    shipsIn: facts.shipsIn ?? '',
    preorderNote: facts.preorderNote ?? '',
  };
}

/**
 * Headers a kind's email carries: a reply goes to the shop's contact address when it is set (the
 * sender may be a no-reply address); a restock email names its unsubscribe link in
 * List-Unsubscribe (RFC 2369) and asks for RFC 8058's one-click POST, which mail clients show as a
 * button.
 */
export function emailHeaders(email: Pick<QueuedEmail, 'facts'>, shop: ShopContact): Record<string, string> | undefined {
  const headers: Record<string, string> = {};
  if (shop.contactEmail) headers['Reply-To'] = shop.contactEmail;
  if ('unsubscribeUrl' in email.facts) {
    headers['List-Unsubscribe'] = `<${email.facts.unsubscribeUrl}>`;
    headers['List-Unsubscribe-Post'] = 'List-Unsubscribe=One-Click';
  }
  return Object.keys(headers).length > 0 ? headers : undefined;
}
