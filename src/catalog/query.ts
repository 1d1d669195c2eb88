import { normalize } from '../text/normalize.ts';
import type { Catalog } from './catalog.ts';
import type { Product } from './product.ts';

export interface ProductQuery {
  /** Any of these tags (OR); empty means no tag filter. */
  tags: string[];
  /** Normalised words (see queryWords); each must occur in one field. */
  words: string[];
  page: number;
  perPage: number;
}

export interface ProductPage {
  success: true;
  products: Product[];
  total: number;
  page: number;
  totalPages: number;
  availableTags: string[];
}

/** Splits a query into normalised words, the form the filter compares and the cache keys on. */
export function queryWords(q: string): string[] {
  return normalize(q).split(/\s+/u).filter(Boolean);
}

export function queryProducts(catalog: Catalog, query: ProductQuery): ProductPage {
  const { words } = query;
  const matches = catalog.entries.filter(
    (entry) =>
      (query.tags.length === 0 || query.tags.some((tag) => entry.tags.has(tag))) && words.every((word) => entry.text.includes(word)),
  );
  const start = (query.page - 1) * query.perPage;
  return {
    success: true,
    products: matches.slice(start, start + query.perPage).map((entry) => entry.product),
    total: matches.length,
    page: query.page,
    totalPages: Math.ceil(matches.length / query.perPage),
    availableTags: catalog.availableTags,
  };
}
