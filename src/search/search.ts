import { makeExcerpt } from './excerpt.ts';
import { findMatches, markHtml, runsFoundWhole } from './highlight.ts';
import { pageText } from './page-text.ts';
import { matchQuery } from './query.ts';
import type { ContentDocument, SearchIndex } from './index-fields.ts';

/** A page as found: its front matter as written, and an excerpt of its body instead of the body. */
export interface SearchResult extends Omit<ContentDocument, 'body'> {
  excerpt: string;
  highlighted_title: string;
  highlighted_excerpt: string;
  score: number;
}

export interface SearchResponse {
  results: SearchResult[];
  query: string;
  totalResults: number;
}

export const MAX_QUERY_LENGTH = 200;

export const DEFAULT_EXCERPT_LENGTH = 200;
export const MIN_EXCERPT_LENGTH = 50;
export const MAX_EXCERPT_LENGTH = 500;

/**
 * Results carry the best this many matches; `totalResults` counts them all. The sample site never
 * reaches it; a site of thousands of pages would otherwise answer a common word with megabytes.
 */
export const MAX_RESULTS = 50;

/**
 * The query as search answers it, and as the response and the keyword log show it: NFKC, trimmed,
 * inner whitespace collapsed, cut to 200 code points.
 */
export function normalizeQuery(q: string): string {
  const collapsed = q.normalize('NFKC').trim().replace(/\s+/g, ' ');
  // Code points never outnumber UTF-16 units: a query this short is not cut.
  if (collapsed.length <= MAX_QUERY_LENGTH) return collapsed;
  return Array.from(collapsed).slice(0, MAX_QUERY_LENGTH).join('').trimEnd();
}

/** The excerpt length asked for: an integer clamped into 50..500; absent or not a number → 200. A fraction is cut. */
export function clampExcerptLength(length: number | undefined): number {
  if (length === undefined || !Number.isFinite(length)) return DEFAULT_EXCERPT_LENGTH;
  return Math.min(Math.max(Math.trunc(length), MIN_EXCERPT_LENGTH), MAX_EXCERPT_LENGTH);
}

/**
 * Searches the site for an already normalised query (see normalizeQuery) and a clamped excerpt
 * length (clampExcerptLength). Only its first MAX_QUERY_WORDS words are searched (query.ts);
 * `query` in the answer is the whole of it.
 */
export function searchSite(index: SearchIndex, query: string, excerptLength: number): SearchResponse {
  if (query === '') return { results: [], query, totalResults: 0 };
  const { total, hits, targets } = matchQuery(index, query, MAX_RESULTS);
  const results = hits.map(({ document, score }): SearchResult => {
    const page = index.documents[document]!;
    const { id, slug, title, description, tags, createdAt } = page;
    const text = pageText(page);
    const whole = runsFoundWhole(targets, [text.title.text, text.body.text, text.description]);
    const excerpt = makeExcerpt(text.excerptBody, findMatches(text.body, targets, whole), excerptLength);
    return {
      id,
      slug,
      title,
      description,
      tags,
      createdAt,
      excerpt: excerpt.text,
      highlighted_title: markHtml(title, findMatches(text.title, targets, whole)),
      highlighted_excerpt: excerpt.html,
      score: Math.round(score * 1000) / 1000,
    };
  });
  return { results, query, totalResults: total };
}
