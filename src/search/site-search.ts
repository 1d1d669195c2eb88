import { deserializeSearchIndex } from './index-file-format.ts';
import { useFastLookups } from './term-lookups.ts';
import type { SearchIndex } from './index-fields.ts';
import { pageText } from './page-text.ts';
import { clampExcerptLength, normalizeQuery, searchSite, type SearchResponse } from './search.ts';

/**
 * The site search as one object, for the service and for browsers alike: GET /api/search answers
 * through it, and it is the package export `tenpo/search-browser`, which a storefront loads with
 * the file GET /api/search-index sends, to search without the service. So it and
 * everything it imports use no Node.js API (the browser build, tsconfig.browser.json, has no
 * Node types and fails on one).
 */
export interface SiteSearch {
  /** Exactly the body of `GET /api/search?q=…&excerpt_length=…`; nothing is logged. */
  search(q: string, options?: SiteSearchOptions): SearchResponse;
}

export interface SiteSearchOptions {
  /** Characters of body text per result, clamped into 50..500; default 200. */
  excerptLength?: number;
}

export type { SearchResponse, SearchResult } from './search.ts';

/**
 * Loads the index: from a URL (fetched), or from the bytes of a response already fetched.
 * Rejects when the source is not a tenpo search index.
 */
export async function loadSiteSearch(source: string | URL | ArrayBuffer | ArrayBufferView): Promise<SiteSearch> {
  const bytes = typeof source === 'string' || source instanceof URL ? await fetchBytes(source) : asBytes(source);
  const index = deserializeSearchIndex(bytes);
  if (!index) throw new Error('not a tenpo search index (GET /api/search-index sends one)');
  prepare(index);
  return siteSearch(index);
}

/**
 * Builds now what queries would otherwise build on first use, so a page's searches as it is typed
 * into cost the same from the first one: the term lookup tables, every page's normalised text,
 * and (by one search) the word segmenter and the compiled code. The service does not: a start
 * should be quick, and its first searches are warmed by its cache.
 */
function prepare(index: SearchIndex): void {
  useFastLookups(index.miniSearch);
  for (const page of index.documents) pageText(page);
  const first = index.documents[0];
  if (first) searchSite(index, normalizeQuery(first.title), clampExcerptLength(undefined));
}

export function siteSearch(index: SearchIndex): SiteSearch {
  return { search: (q, options = {}) => searchSite(index, normalizeQuery(q), clampExcerptLength(options.excerptLength)) };
}

async function fetchBytes(url: string | URL): Promise<Uint8Array> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`search index ${String(url)}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

function asBytes(source: ArrayBuffer | ArrayBufferView): Uint8Array {
  return source instanceof ArrayBuffer ? new Uint8Array(source) : new Uint8Array(source.buffer, source.byteOffset, source.byteLength);
}
