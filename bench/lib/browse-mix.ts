import { readContentSources } from '../../src/search/content-sources.ts';
import { parseContent } from '../../src/search/content.ts';
import type { Endpoint } from './mixed-load.ts';
import { contentWords } from './search-corpus.ts';
import { catalogPages, newReservations, readProducts } from './shop-traffic.ts';

// A mix the service was once measured with from outside, for runMixedLoad (mixed-load.ts): heavier
// on search than the shop's traffic (shop-traffic.ts). Nearly every search is one never asked
// before, its excerpt length its own, so it measures what searches leave in memory rather than
// what the answers' caches serve.

/**
 * Browsing and searching, by weight out of 100: catalog pages as the shop's traffic sends them (40),
 * searches of two words of the sample content with `excerpt_length` uniform in 50–449 (40), new
 * reservations (10), and staff's lists of 50 (10: the reservations' and the restock subscriptions'
 * first pages, five each).
 */
export function browseMix(random: () => number, adminToken: string): Endpoint[] {
  const products = readProducts();
  const words = contentWords(parseContent(readContentSources('content')));
  const word = () => words[Math.floor(random() * words.length)]!;
  const admin = { authorization: `Bearer ${adminToken}` };
  const listOf50 = (path: string) => () => ({ method: 'POST' as const, path, headers: admin, body: { page: 1, pageSize: 50 } });
  return [
    catalogPages(random, products, 40),
    {
      name: 'GET /api/search (two words, excerpt_length 50–449)',
      weight: 40,
      next: () => ({
        method: 'GET',
        path: `/api/search?q=${encodeURIComponent(`${word()} ${word()}`)}&excerpt_length=${50 + Math.floor(random() * 400)}`,
      }),
    },
    newReservations(random, products, 10),
    { name: 'POST /api/admin-reservations-list (50)', weight: 5, next: listOf50('/api/admin-reservations-list') },
    { name: 'POST /api/admin-notify-list (50)', weight: 5, next: listOf50('/api/admin-notify-list') },
  ];
}
