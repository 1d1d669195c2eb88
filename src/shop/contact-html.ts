import { escapeHtml } from '../text/safe-text.ts';
import type { ShopContact } from './contact.ts';

/**
 * The shop's name and how to reach it, for the customer's pages (their reservation, an unsubscribe
 * link): its address, a phone number to call and an address to write to (as links a phone opens),
 * its hours. Escaped; empty while the shop has set none of them, so the page's own words stand alone.
 */
export function shopContactHtml(shop: ShopContact, heading = 'お問い合わせ'): string {
  const e = escapeHtml;
  const lines = [
    shop.name && `<strong>${e(shop.name)}</strong>`,
    ...shop.address.split('\n').map((line) => e(line)),
    shop.phone && `TEL: <a href="tel:${e(shop.phone.replace(/[^0-9+]/g, ''))}">${e(shop.phone)}</a>`,
    shop.contactEmail && `メール: <a href="mailto:${e(shop.contactEmail)}">${e(shop.contactEmail)}</a>`,
    shop.hours && `営業時間: ${e(shop.hours)}`,
  ].filter((line) => line.trim() !== '');
  if (lines.length === 0) return '';
  return `<section class="shop" aria-label="${e(heading)}"><h2>${e(heading)}</h2><p>${lines.join('<br>\n')}</p></section>`;
}
