import type { Context } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../http/app-env.ts';
import { LruCache, sendCachedJson, serializeJson, type CachedJson } from '../http/cached-json.ts';
import { requestTarget } from '../http/request.ts';
import { defineRoute, type Route } from '../http/route.ts';
import { errorResponses } from '../http/schemas.ts';
import type { KeywordLogWriter } from '../keyword-log/writer.ts';
import { normalizeQuery, searchSite, MAX_RESULTS } from './search.ts';
import type { SearchIndex } from './index-fields.ts';

const DEFAULT_EXCERPT_LENGTH = 200;
const MIN_EXCERPT_LENGTH = 50;
const MAX_EXCERPT_LENGTH = 500;

/** A name given twice counts once, with its first value: search answers every input (SPEC §3). */
const firstValue = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((value) => (Array.isArray(value) ? value[0] : value));

export const SearchQuery = z.object({
  q: firstValue
    .transform((q) => normalizeQuery(q ?? ''))
    .describe('Keywords: NFKC-normalised, trimmed, inner whitespace collapsed, cut to 200 characters'),
  excerpt_length: firstValue
    .transform(excerptLength)
    .describe(`Excerpt length in characters, ${MIN_EXCERPT_LENGTH}-${MAX_EXCERPT_LENGTH} (values outside are clamped); default ${DEFAULT_EXCERPT_LENGTH}`),
});

/** SPEC §3: an integer clamped into 50..500; absent or not a number → 200. A fraction is cut. */
function excerptLength(value: string | undefined): number {
  const number = value === undefined || value.trim() === '' ? Number.NaN : Number(value);
  if (!Number.isFinite(number)) return DEFAULT_EXCERPT_LENGTH;
  return Math.min(Math.max(Math.trunc(number), MIN_EXCERPT_LENGTH), MAX_EXCERPT_LENGTH);
}

const SearchResultSchema = z.object({
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
}).meta({ id: 'SearchResult' });

export const SearchResponseSchema = z.object({
  results: z.array(SearchResultSchema).describe(`The best ${MAX_RESULTS} matches, best first`),
  query: z.string().describe('The normalised query'),
  totalResults: z.number().int().describe('Every match, also those beyond the results'),
});

const CACHE_HEADERS = { 'Cache-Control': 'public, max-age=300' };

/** Distinct answers kept serialized: content is fixed while the service runs, so none goes stale. */
const CACHE_ENTRIES = 500;

interface Answer {
  json: CachedJson;
  query: string;
  totalResults: number;
}

export function searchRoutes(index: SearchIndex, keywordLog: KeywordLogWriter): Route[] {
  // By the normalised query, and by the URL exactly as sent, so a repeated URL skips parsing too.
  const byQuery = new LruCache<Answer>(CACHE_ENTRIES);
  const byUrl = new LruCache<Answer>(CACHE_ENTRIES);

  const send = (c: Context<AppEnv>, answer: Answer) => {
    // A HEAD is not a search anybody made (monitors, link checkers): it is not logged.
    if (answer.query !== '' && c.req.method === 'GET') {
      keywordLog.append({ keyword: answer.query, timestamp: new Date().toISOString(), resultCount: answer.totalResults });
    }
    return sendCachedJson(c, answer.json, CACHE_HEADERS);
  };

  return [
    defineRoute({
      method: 'GET',
      path: '/api/search',
      tag: 'Search',
      summary: 'Full-text search over the site content (Japanese-aware), with highlighted excerpts',
      description:
        'Every non-empty search is written to the keyword log after the response, never delaying it. ' +
        'Japanese is matched by character bigrams (a part of a compound finds it); width, case and kana form are ignored.',
      cors: 'any',
      query: SearchQuery,
      responses: {
        200: { description: 'Matches by relevance', schema: SearchResponseSchema, headers: CACHE_HEADERS },
        ...errorResponses(405, 500),
      },
      answerKnown: (c) => {
        const answer = byUrl.get(requestTarget(c));
        return answer && send(c, answer);
      },
      handle: (c, { query }) => {
        const answer = byQuery.getOrCompute(`${query.excerpt_length}\n${query.q}`, () => {
          const response = searchSite(index, query.q, query.excerpt_length);
          return { json: serializeJson(response), query: response.query, totalResults: response.totalResults };
        });
        byUrl.set(requestTarget(c), answer);
        return send(c, answer);
      },
    }),
  ];
}
