import { readFileSync } from 'node:fs';
import { readContentSources } from '../../src/search/content-sources.ts';
import { parseContent } from '../../src/search/content.ts';
import type { Endpoint, LoadCall } from './mixed-load.ts';
import { makeQueries } from './search-corpus.ts';

// A shop's traffic for runMixedLoad (mixed-load.ts), as the sustained and capacity suites send it.

export interface Product {
  slug: string;
  name: string;
  tags: string[];
}

/**
 * The shop's traffic, by weight out of 100: shoppers browsing the catalog and searching (80), reserving
 * and signing up for restocks (15), staff in the admin console (5: status moves 2.5, lists 2, the
 * dashboard 0.5, whose aggregates over every search logged are the heaviest request of all). Varied
 * enough that caches do not answer everything: 200 catalog queries, 300 search queries, new
 * customers, moves of real reservations.
 */
export function shopTraffic(random: () => number, adminToken: string): Endpoint[] {
  const products = readProducts();
  const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)]!;
  const searchPaths = makeQueries(parseContent(readContentSources('content')), 300).map((q) => `/api/search?q=${encodeURIComponent(q)}`);
  const admin = { authorization: `Bearer ${adminToken}` };
  const statuses = ['pending', 'confirmed', 'fulfilled', 'cancelled'];
  const restockProducts = products.slice(0, 10).map((p) => p.slug);

  // Reservations the staff can move, each out of the pool while a move is under way (a second move
  // of the same one at the same time could rightly be refused).
  const movable: { id: string; productSlug: string; status: string }[] = [];
  const moving = new Map<string, { id: string; productSlug: string; status: string }>();
  const nextStatus = (status: string) =>
    ({ pending: 'confirmed', confirmed: random() < 0.2 ? 'cancelled' : 'fulfilled', fulfilled: 'confirmed', cancelled: 'pending' })[
      status
    ]!;

  return [
    catalogPages(random, products, 40),
    { name: 'GET /api/search', weight: 40, next: () => ({ method: 'GET', path: pick(searchPaths) }) },
    newReservations(random, products, 10, (reservation) => {
      if (movable.length < 5_000) movable.push({ ...reservation, status: 'pending' });
    }),
    {
      name: 'POST /api/notify',
      weight: 5,
      // Some addresses sign up again: answered with their existing subscription.
      next: () => ({
        method: 'POST',
        path: '/api/notify',
        body: { email: `waiting${Math.floor(random() * 20_000)}@example.com`, productSlug: pick(restockProducts) },
      }),
    },
    {
      name: 'POST /api/admin-reservations-list',
      weight: 1.2,
      next: () => ({
        method: 'POST',
        path: '/api/admin-reservations-list',
        headers: admin,
        body: { productSlug: pick(products).slug, status: pick(statuses) },
      }),
    },
    {
      name: 'POST /api/admin-reservations-status',
      weight: 2.5,
      next: () => {
        if (movable.length === 0) return undefined;
        const [reservation] = movable.splice(Math.floor(random() * movable.length), 1);
        const status = nextStatus(reservation!.status);
        moving.set(reservation!.id, { ...reservation!, status });
        return {
          method: 'POST',
          path: '/api/admin-reservations-status',
          headers: admin,
          body: { id: reservation!.id, productSlug: reservation!.productSlug, status, notes: `→ ${status}` },
        };
      },
      answered: (call: LoadCall) => {
        const id = (call.body as { id: string }).id;
        movable.push(moving.get(id)!);
        moving.delete(id);
      },
      failed: (call: LoadCall) => moving.delete((call.body as { id: string }).id),
    },
    {
      name: 'POST /api/admin-notify-list',
      weight: 0.8,
      next: () => ({ method: 'POST', path: '/api/admin-notify-list', headers: admin, body: { productSlug: pick(restockProducts) } }),
    },
    {
      name: 'POST /api/admin-dashboard-stats',
      weight: 0.5,
      next: () => ({ method: 'POST', path: '/api/admin-dashboard-stats', headers: admin, body: {} }),
    },
  ];
}

/** The sample catalog's products (data/products.json). */
export function readProducts(): Product[] {
  return JSON.parse(readFileSync('data/products.json', 'utf8')) as Product[];
}

/**
 * Shoppers browsing the catalog: 200 pages (by tag, two tags, a word of a name, a prefix and a tag,
 * a page number), so the answers' cache holds many but not one per request.
 */
export function catalogPages(random: () => number, products: Product[], weight: number): Endpoint {
  const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)]!;
  const tags = [...new Set(products.flatMap((p) => p.tags))];
  const words = [...new Set(products.flatMap((p) => p.name.split(/\s+/)).filter((w) => w.length >= 3))];
  const paths = Array.from({ length: 200 }, (_, i) => {
    const query = [
      () => `tag=${pick(tags)}`,
      () => `tag=${pick(tags)}&tag=${pick(tags)}`,
      () => `q=${encodeURIComponent(pick(words))}`,
      () => `q=${encodeURIComponent(pick(words).slice(0, 3))}&tag=${pick(tags)}`,
      () => `page=${1 + Math.floor(random() * 4)}&per_page=20`,
    ][i % 5]!();
    return `/api/products?${query}`;
  });
  return { name: 'GET /api/products', weight, next: () => ({ method: 'GET', path: pick(paths) }) };
}

/** New customers reserving a product each; `taken` sees each reservation made. */
export function newReservations(
  random: () => number,
  products: Product[],
  weight: number,
  taken?: (reservation: { id: string; productSlug: string }) => void,
): Endpoint {
  let customer = 0;
  return {
    name: 'POST /api/reservation',
    weight,
    next: () => ({
      method: 'POST',
      path: '/api/reservation',
      body: {
        name: `負荷 太郎 ${++customer}`,
        email: `buyer${customer}@example.com`,
        productSlug: products[Math.floor(random() * products.length)]!.slug,
      },
    }),
    answered: taken
      ? (call: LoadCall, body: string) =>
          taken({ id: JSON.parse(body).reservationId, productSlug: (call.body as { productSlug: string }).productSlug })
      : undefined,
  };
}

/**
 * Staff opening the console for the first time, request by request: the page, then every file it
 * links (the stylesheet, the entry script and what it preloads), as a browser with an empty cache
 * asks for them, read from the page the service at `url` serves.
 */
export async function consoleFirstVisit(url: string, weight: number): Promise<Endpoint> {
  const page = await (await fetch(`${url}/admin`)).text();
  const files = [...page.matchAll(/(?:href|src)="(\/admin\/assets\/[^"]+)"/g)].map((match) => match[1]!);
  const visit = ['/admin', ...files];
  let next = 0;
  return { name: 'GET /admin (first visit)', weight, next: () => ({ method: 'GET', path: visit[next++ % visit.length]! }) };
}
