import type { Product } from '../catalog/product.ts';

/** Where unsubscribe links point (the route is mounted at this path). */
export const UNSUBSCRIBE_PATH = '/api/notify/unsubscribe';

/**
 * The product's page on the shop's site: its `detailHref` under PUBLIC_BASE_URL (or as it is when
 * the catalog gives a full http(s) URL), else the site's front page, so the email always has a link.
 */
export function productPageUrl(publicBaseUrl: string, product: Pick<Product, 'detailHref'>): string {
  const href = product.detailHref?.trim();
  if (!href) return `${publicBaseUrl}/`;
  if (/^https?:\/\//i.test(href)) return URL.canParse(href) ? href : `${publicBaseUrl}/`;
  const joined = `${publicBaseUrl}${href.startsWith('/') ? '' : '/'}${href}`;
  return URL.canParse(joined) ? joined : `${publicBaseUrl}/`;
}

/** The one-click unsubscribe link of a token (unsubscribe-token.ts). */
export function unsubscribeUrl(publicBaseUrl: string, token: string): string {
  return `${publicBaseUrl}${UNSUBSCRIBE_PATH}?token=${encodeURIComponent(token)}`;
}
