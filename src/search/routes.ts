import { z } from 'zod';
import { isLoopback, type ClientResolver } from '../http/client-address.ts';
import { answerWeight, serializeJson, type CachedJson } from '../serving/cached-json.ts';
import { RecentCache } from '../serving/recent-cache.ts';
import { replyJson, sendCachedJson } from '../http/reply.ts';
import { nodeRequest, requestHeader, requestMethod } from '../http/request.ts';
import { defineRoute, TAKES_ANYTHING, type Route } from '../http/route.ts';
import { errorResponses } from '../http/schemas.ts';
import type { KeywordLogWriter } from '../keyword-log/writer.ts';
import { staticFile, type StaticFile } from '../serving/static-file.ts';
import { sendStaticFile } from '../http/send-file.ts';
import {
  clampExcerptLength,
  normalizeQuery,
  MAX_EXCERPT_LENGTH,
  MAX_RESULTS,
  MIN_EXCERPT_LENGTH,
  DEFAULT_EXCERPT_LENGTH,
} from './search.ts';
import { INDEX_FILE_FORMAT } from './index-file-format.ts';
import type { SiteSearch } from './site-search.ts';
import { MAX_SUGGESTIONS, type Suggester } from './suggest.ts';

/** A name given twice counts once, with its first value: search answers every input. */
const firstValue = z.union([z.string(), z.array(z.string())]).optional();

export const SearchQuery = z.object({
  q: firstValue.describe('Keywords: NFKC-normalised, trimmed, inner whitespace collapsed, cut to 200 characters'),
  excerpt_length: firstValue.describe(
    `Excerpt length in characters, ${MIN_EXCERPT_LENGTH}-${MAX_EXCERPT_LENGTH} (values outside are clamped); default ${DEFAULT_EXCERPT_LENGTH}`,
  ),
});

/**
 * The search's input from its query: the first `q` and `excerpt_length`, `q` normalised, the
 * length clamped. Every value is an input: nothing is refused.
 */
function searchInput(query: z.output<typeof SearchQuery>): { q: string; excerptLength: number } {
  return { q: normalizeQuery(firstOf(query.q) ?? ''), excerptLength: excerptLength(firstOf(query.excerpt_length)) };
}

function firstOf(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** A number as written (`Number('')` would be 0): clampExcerptLength takes it from there. */
function excerptLength(value: string | undefined): number {
  return clampExcerptLength(value === undefined || value.trim() === '' ? undefined : Number(value));
}

const SearchResultSchema = z
  .object({
    id: z.string().describe('<contentType>/<fileSlug>'),
    slug: z.string().describe('URL path of the page: /<contentType>/<fileSlug>'),
    title: z.string().describe('Plain text, as written'),
    description: z.string().describe('Plain text, as written'),
    tags: z.array(z.string()),
    createdAt: z.string(),
    excerpt: z.string().describe('Plain text from the body centred on the first match, with … where cut'),
    highlighted_title: z.string().describe('HTML: the title escaped, matches in <mark>'),
    highlighted_excerpt: z.string().describe('HTML: the excerpt escaped, matches in <mark>'),
    score: z.number().describe('Relevance, higher is better'),
  })
  .meta({ id: 'SearchResult' });

export const SearchResponseSchema = z.object({
  results: z.array(SearchResultSchema).describe(`The best ${MAX_RESULTS} matches, best first`),
  query: z.string().describe('The normalised query'),
  totalResults: z.number().int().describe('Every match, also those beyond the results'),
});

const CACHE_HEADERS = { 'Cache-Control': 'public, max-age=300' };

/**
 * Distinct answers kept serialized: 500 at most, 8 MB at most (an answer of 50 results with
 * 500-character excerpts is some 100 KB); content is fixed while the service runs, so none goes stale.
 */
export const CACHE_ENTRIES = 500;
const CACHE_BYTES = 8 * 1024 * 1024;

/** Queries asked once remembered, so that the second time one is asked its answer is kept. */
const QUERIES_ASKED_ONCE = 5_000;

interface Answer {
  json: CachedJson;
  query: string;
  totalResults: number;
}

export const IndexFileSchema = z.object({
  format: z.literal(INDEX_FILE_FORMAT),
  fingerprint: z.string().describe('Identifies the content and code the index was built from'),
  documents: z
    .array(
      SearchResultSchema.pick({ id: true, slug: true, title: true, description: true, tags: true, createdAt: true }).extend({
        body: z.string().describe('The page as plain text'),
      }),
    )
    .describe('Every page, in index order'),
  synonyms: z.array(z.array(z.string())).describe('Groups of words a query word also finds (normalised), from synonyms.yaml'),
  index: z.record(z.string(), z.unknown()).describe('MiniSearch’s serialization of the index'),
});

/** The index as browsers load it (tenpo/search-browser): revalidated after 5 minutes, as search answers. */
const INDEX_FILE_HEADERS = { 'Cache-Control': 'public, max-age=300' };

export const SuggestQuery = z.object({
  q: firstValue
    .transform((value) => (Array.isArray(value) ? value[0] : value) ?? '')
    .describe('What the shopper has typed so far; its last word is completed (normalised as search normalises)'),
});

export const SuggestResponse = z.object({
  success: z.literal(true),
  suggestions: z
    .array(
      z.object({
        text: z.string().describe('A completion of the last word: a title, a tag or a keyword, as written'),
        kind: z.enum(['title', 'tag', 'keyword']),
      }),
    )
    .max(MAX_SUGGESTIONS)
    .describe(`At most ${MAX_SUGGESTIONS}: those beginning with the word first, then keywords (most searched first), tags, titles`),
});

const SUGGEST_HEADERS = { 'Cache-Control': 'public, max-age=60' };

export interface SearchServices {
  siteSearch: SiteSearch;
  /** The index's file, for GET /api/search-index. */
  indexFile: Uint8Array;
  suggester: Suggester;
}

export function searchRoutes(
  { siteSearch, indexFile, suggester }: SearchServices,
  keywordLog: KeywordLogWriter,
  clientOf: ClientResolver,
): Route[] {
  // Made on first request: a service whose storefront never searches in the browser hashes nothing.
  let asset: StaticFile | undefined;
  const indexFileAsset = () =>
    (asset ??= staticFile('search-index.json', Buffer.from(indexFile.buffer, indexFile.byteOffset, indexFile.byteLength), {
      hashed: false,
    }));

  // By the normalised query and excerpt length: a new search costs more than reading its target again.
  // An answer is kept once its query is asked again: most queries are asked once.
  const weight = answerWeight(CACHE_ENTRIES, CACHE_BYTES);
  const answers = new RecentCache<string, Answer>(CACHE_ENTRIES, {
    weigh: (answer, key) => weight(answer.json, key),
    keepOnSecondUse: QUERIES_ASKED_ONCE,
  });
  const answerOf = ({ q, excerptLength }: { q: string; excerptLength: number }): Answer =>
    answers.getOrCompute(`${excerptLength}\n${q}`, () => {
      const response = siteSearch.search(q, { excerptLength });
      return { json: serializeJson(response), query: response.query, totalResults: response.totalResults };
    });

  return [
    defineRoute({
      method: 'GET',
      path: '/api/search',
      tag: 'Search',
      summary: 'Full-text search over the site content (Japanese-aware), with highlighted excerpts',
      description:
        '`q` is NFKC-normalised, trimmed, whitespace collapsed and cut to 200 characters: that is the `query` returned; only its first 10 words are searched. ' +
        '`excerpt_length` is clamped into 50–500, default 200. ' +
        'Answers `{results, query, totalResults}`: the best 50 by score (title > description > tags = body), each with `highlighted_title` / `highlighted_excerpt` where matches are in `<mark>` and everything else is HTML-escaped, the excerpt centred on the first match with `…` where cut. ' +
        'Width, case and hiragana/katakana are ignored; Japanese matches by character bigrams, so part of a compound finds it (`シンセ` → `モジュラーシンセ`) while every bigram must match (`サイバー` does not find `サイドバー`); ' +
        'Latin words match as prefixes from 2 characters and with typos from 5 (floor(0.2 × length) edits); every word must match. ' +
        "Empty `q` → `{results:[], query:'', totalResults:0}`. `Cache-Control: public, max-age=300`. " +
        'Every non-empty search is written to the keyword log ([search.md](search.md#the-keyword-log)) after the response, never delaying it.',
      cors: 'any',
      query: SearchQuery,
      invalid: TAKES_ANYTHING,
      responses: {
        200: { description: 'Matches by relevance', schema: SearchResponseSchema, headers: CACHE_HEADERS },
        ...errorResponses(405, 500),
      },
      handle: (c, { query }) => {
        const answer = answerOf(searchInput(query));
        // A HEAD is not a search anybody made (monitors, link checkers): it is not logged.
        if (answer.query !== '' && requestMethod(c) === 'GET') {
          const peer = nodeRequest(c)?.socket.remoteAddress ?? 'unknown';
          const client = clientOf(peer, requestHeader(c, 'x-forwarded-for'));
          keywordLog.append({
            keyword: answer.query,
            timestamp: new Date().toISOString(),
            resultCount: answer.totalResults,
            client,
            ...(client !== peer && isLoopback(peer) ? { via: peer } : {}),
          });
        }
        return sendCachedJson(c, answer.json, CACHE_HEADERS);
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/search-index',
      tag: 'Search',
      summary: 'The prebuilt search index, for searching in the browser with tenpo/search-browser',
      description:
        'One JSON file holding the site content and its index, as built by `npm run build`. ' +
        '`loadSiteSearch()` of the package export `tenpo/search-browser` reads it and answers exactly what GET /api/search answers. ' +
        'See [storefront-package.md](storefront-package.md#searching-in-the-browser-tenposearch-browser). ' +
        'Strong ETag (304 on If-None-Match); gzipped when the client accepts it (81 KB for the sample content); `Cache-Control: public, max-age=300`.',
      cors: 'any',
      responses: {
        200: { description: 'The index file', schema: IndexFileSchema, headers: INDEX_FILE_HEADERS },
        304: { description: 'The client’s copy is current' },
        ...errorResponses(405, 500),
      },
      handle: (c) => sendStaticFile(c, indexFileAsset(), INDEX_FILE_HEADERS),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/search/suggest',
      tag: 'Search',
      summary: 'Completions of the last word typed: page titles, tags, and keywords shoppers searched with results in the last 30 days',
      description:
        "Answers `{success:true, suggestions:[{text, kind:'title'|'tag'|'keyword'}]}`, at most 8, from page titles, tags and keywords. " +
        'A keyword is suggested only when at least three different clients searched it with results in the last 30 days, it is at most 3 words and 30 characters, every word of it is in the site index, and it holds no URL, `@` or `＊` ([search.md](search.md#suggestions-from-what-shoppers-searched)). ' +
        'A candidate completes the word when it, or one of its later words, begins with it; those beginning with it come first, then keywords (most searched first), tags, titles (shorter first); the same text is offered once. ' +
        'Empty `q` → `[]`. Keywords are reloaded from the log at most once a minute. `Cache-Control: public, max-age=60`; not logged.',
      cors: 'any',
      query: SuggestQuery,
      invalid: TAKES_ANYTHING,
      responses: {
        200: { description: 'Completions, best first', schema: SuggestResponse, headers: SUGGEST_HEADERS },
        ...errorResponses(405, 500),
      },
      handle: async (c, { query }) => replyJson(c, 200, { success: true, suggestions: await suggester.suggest(query.q) }, SUGGEST_HEADERS),
    }),
  ];
}
