import { z } from 'zod';
import { answerWeight, serializeJson, type CachedJson } from '../serving/cached-json.ts';
import { sendCachedJson } from '../http/reply.ts';
import { RecentCache } from '../serving/recent-cache.ts';
import { JA } from '../http/storefront-texts.ts';
import { defineRoute, type Route } from '../http/route.ts';
import { errorResponses } from '../http/schemas.ts';
import { codePointLength } from '../text/code-points.ts';
import type { Catalog } from './catalog.ts';
import { ProductSchema } from './product.ts';
import { queryProducts, queryWords } from './query.ts';

const PAGE_MESSAGE = 'page must be a positive integer';
const PER_PAGE_MESSAGE = 'per_page must be between 1 and 200';
const Q_MESSAGE = 'q must be at most 200 characters';
const MAX_PER_PAGE = 200;

/**
 * page ≤ 0 reads as 1, per_page over 200 as 200; anything that is not an integer, a page
 * past 2^53, and per_page below 1, are rejected. A name given twice is rejected too, rather than
 * guessing which counts.
 */
export const ProductsQuery = z.object({
  tag: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((tags) => [tags ?? []].flat().filter(Boolean))
    .describe('Tag key; repeat for several (OR)'),
  q: z
    .string({ error: Q_MESSAGE })
    .optional()
    .transform((q) => (q ?? '').trim())
    .refine((q) => codePointLength(q) <= 200, Q_MESSAGE)
    .describe('Keywords; every word must match'),
  page: z
    .string({ error: PAGE_MESSAGE })
    .regex(/^[+-]?\d+$/, PAGE_MESSAGE)
    .transform((page) => Math.max(1, Number(page)))
    // A page past 2^53 cannot be answered exactly (a 400-digit one would be echoed as null).
    .refine(Number.isSafeInteger, PAGE_MESSAGE)
    .optional()
    .describe('1-based page; values below 1 read as 1'),
  per_page: z
    .string({ error: PER_PAGE_MESSAGE })
    .regex(/^\+?\d+$/, PER_PAGE_MESSAGE)
    .transform(Number)
    .refine((n) => n >= 1, PER_PAGE_MESSAGE)
    .transform((n) => Math.min(n, MAX_PER_PAGE))
    .optional()
    .describe('Page size, 1-200 (larger values read as 200); default 50'),
});

export const ProductsResponse = z.object({
  success: z.literal(true),
  products: z.array(ProductSchema),
  total: z.number().int(),
  page: z.number().int(),
  totalPages: z.number().int(),
  availableTags: z.array(z.string()),
});

/**
 * Distinct answers kept serialized, by query and by URL: 2,000 at most, 8 MB at most each (a
 * page of 200 products is some 36 KB); the catalog is fixed, so an answer never goes stale.
 */
const CACHE_ENTRIES = 2_000;
const CACHE_BYTES = 8 * 1024 * 1024;

export function catalogRoutes(catalog: Catalog): Route[] {
  // By the normalised query, so `?tag=a&tag=b` and `?tag=b&tag=a` share one answer; kept by URL too
  // (keptByUrl), so a repeated URL skips parsing and validation altogether.
  const byQuery = new RecentCache<string, CachedJson>(CACHE_ENTRIES, { weigh: answerWeight(CACHE_ENTRIES, CACHE_BYTES) });
  return [
    defineRoute({
      method: 'GET',
      path: '/api/products',
      tag: 'Catalog',
      summary: 'List and filter the product catalog',
      description:
        '`tag` is repeatable (a product with any of them); every word of `q` must match the name, subtitle, brand, description or tags, ignoring case, width and hiragana/katakana. `page` defaults to 1 (below 1 reads as 1), `per_page` to 50 (over 200 reads as 200). `400 Invalid parameters` lists every bad field. Every answer carries a strong ETag: send it back as If-None-Match and an unchanged page is a 304 with no body.',
      cors: 'allow-list',
      query: ProductsQuery,
      serverError: JA.serverError,
      responses: {
        200: { description: 'One page of matching products', schema: ProductsResponse },
        ...errorResponses(400, 405, 500),
      },
      keptByUrl: { entries: CACHE_ENTRIES, bytes: CACHE_BYTES },
      handle: (c, { query }) => {
        const tags = [...new Set(query.tag)].sort();
        const words = queryWords(query.q);
        const page = query.page ?? 1;
        const perPage = query.per_page ?? 50;
        const key = JSON.stringify([tags, words, page, perPage]);
        const entry = byQuery.getOrCompute(key, () => serializeJson(queryProducts(catalog, { tags, words, page, perPage })));
        return sendCachedJson(c, entry);
      },
    }),
  ];
}
