import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Product } from '../catalog/product.ts';

// Every link a message carries: the product's page, the one-click unsubscribe link of a restock
// email and the customer's own reservation page. The last two name their record by a signed token,
// `<id>.<mac>`, the MAC an HMAC-SHA256 of the id under the link secret (UNSUBSCRIBE_SECRET). The id
// is random and says nothing about the customer, so a URL carries no personal data, and without the
// secret no one can make a valid token for another id. Reservation ids (`res_…`) and subscription
// ids (`ntf_…`) never coincide, so one link cannot open the other's page.

/** Where unsubscribe links point: the route `/api/notify/unsubscribe` (subscriptions/public-routes.ts). */
export const UNSUBSCRIBE_PATH = '/api/notify/unsubscribe';

/** Where the customer's own reservation page is: the route `/reservations/manage` (reservations/manage-routes.ts). */
export const MANAGE_PATH = '/reservations/manage';

/**
 * The product's page on the shop's site: its `detailHref` under STOREFRONT_URL (or as it is when the
 * catalog gives a full http(s) URL), else the storefront's front page, so the email always has a link.
 */
export function productPageUrl(storefrontUrl: string, product: Pick<Product, 'detailHref'>): string {
  const href = product.detailHref?.trim();
  if (!href) return `${storefrontUrl}/`;
  if (/^https?:\/\//i.test(href)) return URL.canParse(href) ? href : `${storefrontUrl}/`;
  const joined = `${storefrontUrl}${href.startsWith('/') ? '' : '/'}${href}`;
  return URL.canParse(joined) ? joined : `${storefrontUrl}/`;
}

/** The record's own page in the staff console (`<PUBLIC_BASE_URL>/admin`), which a chat notice links to. */
export function consoleRecordUrl(publicBaseUrl: string, recordId: string): string {
  const screen = recordId.startsWith('ntf_') ? 'subscriptions' : 'reservations';
  return `${publicBaseUrl}/admin#/${screen}?record=${encodeURIComponent(recordId)}`;
}

/** The one-click unsubscribe link of a token (unsubscribeToken). */
export function unsubscribeUrl(publicBaseUrl: string, token: string): string {
  return `${publicBaseUrl}${UNSUBSCRIBE_PATH}?token=${encodeURIComponent(token)}`;
}

/** The link to the customer's own page of a reservation. */
export function manageUrl(publicBaseUrl: string, secret: string, reservationId: string): string {
  return `${publicBaseUrl}${MANAGE_PATH}?token=${encodeURIComponent(unsubscribeToken(secret, reservationId))}`;
}

function mac(secret: string, id: string): Buffer {
  return createHmac('sha256', secret).update(id).digest();
}

/** The signed token naming a record: a subscription's in its unsubscribe link, a reservation's in its page link. */
export function unsubscribeToken(secret: string, id: string): string {
  return `${id}.${mac(secret, id).toString('base64url')}`;
}

/** The id a token was made for, or undefined when the token was not made with this secret. */
export function verifyUnsubscribeToken(secret: string, token: string): string | undefined {
  const dot = token.lastIndexOf('.');
  if (dot <= 0) return undefined;
  const id = token.slice(0, dot);
  const presented = Buffer.from(token.slice(dot + 1), 'base64url');
  const expected = mac(secret, id);
  // base64url decoding ignores stray characters, so the text must also be exactly the canonical one.
  if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) return undefined;
  return presented.toString('base64url') === token.slice(dot + 1) ? id : undefined;
}

/** The reservation id a page token was made for, or undefined. */
export function verifyManageToken(secret: string, token: string): string | undefined {
  const id = verifyUnsubscribeToken(secret, token);
  return id?.startsWith('res_') ? id : undefined;
}
