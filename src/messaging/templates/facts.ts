import type { Product } from '../../catalog/product.ts';
import { formatJapanTime, formatYen } from '../../text/japan-format.ts';
import type { ReservationTemplateKind, TemplateKind } from '../kinds.ts';

// What a queued email states, fixed when it is queued (the product's name and price that day, the
// links), and the placeholder values made from it when it is rendered.

export interface ReservationEmailFacts {
  reservationId: string;
  name: string;
  /** When the reservation was taken (ISO). */
  createdAt: string;
  productName: string;
  productUrl: string;
  price: number | null;
  manageUrl: string;
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
  reservation: { id: string; name: string; createdAt: string },
  product: Pick<Product, 'name' | 'price'>,
  links: { productUrl: string; manageUrl: string },
): ReservationEmailFacts {
  return {
    reservationId: reservation.id,
    name: reservation.name,
    createdAt: reservation.createdAt,
    productName: product.name,
    price: product.price,
    ...links,
  };
}

export function restockEmailFacts(
  product: Pick<Product, 'name' | 'price'>,
  links: { productUrl: string; unsubscribeUrl: string },
): RestockEmailFacts {
  return { productName: product.name, price: product.price, ...links };
}

/** The placeholders' values, formatted as the customer reads them. */
export function placeholderValues(email: Pick<QueuedEmail, 'template' | 'facts'>): Record<string, string> {
  const { facts } = email;
  const common = { productName: facts.productName, productUrl: facts.productUrl, price: formatYen(facts.price) };
  if ('unsubscribeUrl' in facts) return { ...common, unsubscribeUrl: facts.unsubscribeUrl };
  return {
    ...common,
    name: facts.name,
    reservationId: facts.reservationId,
    reservedAt: formatJapanTime(facts.createdAt),
    manageUrl: facts.manageUrl,
  };
}

/**
 * Headers a kind's email carries: a restock email names its unsubscribe link in List-Unsubscribe
 * (RFC 2369) and asks for RFC 8058's one-click POST, which mail clients show as a button.
 */
export function emailHeaders(email: Pick<QueuedEmail, 'facts'>): Record<string, string> | undefined {
  if (!('unsubscribeUrl' in email.facts)) return undefined;
  return { 'List-Unsubscribe': `<${email.facts.unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}
