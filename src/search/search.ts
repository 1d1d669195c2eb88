import { normalize, normalizeWithMap } from '../text/normalize.ts';
import { makeExcerpt } from './excerpt.ts';
import { findMatches, markHtml, runsFoundWhole } from './highlight.ts';
import { matchQuery } from './query.ts';
import type { SearchIndex } from './index-fields.ts';

export interface SearchResult {
  id: string;
  slug: string;
  title: string;
  description: string;
  tags: string[];
  createdAt: string;
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

/**
 * Results carry the best this many matches; `totalResults` counts them all. The sample site never
 * reaches it; a site of thousands of pages would otherwise answer a common word with megabytes.
 */
export const MAX_RESULTS = 50;

/**
 * The query as SPEC §3 defines it, and as the response and the keyword log show it: NFKC, trimmed,
 * inner whitespace collapsed, cut to 200 code points.
 */
export function normalizeQuery(q: string): string {
  const collapsed = q.normalize('NFKC').trim().replace(/\s+/g, ' ');
  return Array.from(collapsed).slice(0, MAX_QUERY_LENGTH).join('').trimEnd();
}

/** Searches the site for an already normalised query (see normalizeQuery). */
export function searchSite(index: SearchIndex, query: string, excerptLength: number): SearchResponse {
  if (query === '') return { results: [], query, totalResults: 0 };
  const { total, hits, targets } = matchQuery(index, query, MAX_RESULTS);
  const results = hits.map(({ document, score }): SearchResult => {
    const { id, slug, title, description, tags, createdAt, body } = index.documents[document]!;
    const mappedTitle = normalizeWithMap(title);
    const mappedBody = normalizeWithMap(body);
    const whole = runsFoundWhole(targets, [mappedTitle.text, mappedBody.text, normalize(description)]);
    const excerpt = makeExcerpt(body, findMatches(mappedBody, targets, whole), excerptLength);
    return {
      id,
      slug,
      title,
      description,
      tags,
      createdAt,
      excerpt: excerpt.text,
      highlighted_title: markHtml(title, findMatches(mappedTitle, targets, whole)),
      highlighted_excerpt: excerpt.html,
      score: Math.round(score * 1000) / 1000,
    };
  });
  return { results, query, totalResults: total };
}
