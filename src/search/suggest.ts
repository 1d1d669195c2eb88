import { normalize } from '../text/normalize.ts';
import { textRuns } from '../text/tokenize.ts';
import type { ContentDocument } from './index-fields.ts';
import { normalizeQuery } from './search.ts';

/**
 * Completions of the last word being typed: page titles, tags, and keywords shoppers searched with
 * results in the last 30 days (at least three times, and suggestible: keyword-log/suggestions.ts,
 * suggestible.ts). A candidate completes the word when, normalised as search normalises, it or one
 * of its later words begins with it (`vc` → `Fennelwire Twin Reed VCO`). Those beginning with it
 * come first; then keywords by searches, tags, titles shorter first; each text once. Keywords are
 * reloaded when a request finds them a minute old (answers are cached that long anyway).
 */ export interface Suggestion {
  text: string;
  kind: SuggestionKind;
}

export type SuggestionKind = 'title' | 'tag' | 'keyword';

export const MAX_SUGGESTIONS = 8;

interface Candidate extends Suggestion {
  /** The text normalised. */
  whole: string;
  /** The normalised text from each of its later words on. */
  later: string[];
}

export interface Suggester {
  suggest(q: string): Promise<Suggestion[]>;
}

/** Keywords to offer, searched since a moment, most searched first. */
export type LoadKeywords = (since: string) => Promise<string[]>;

const KEYWORD_WINDOW_MS = 30 * 24 * 60 * 60 * 1000;
const KEYWORDS_MAX_AGE_MS = 60_000;

export function createSuggester(
  documents: readonly ContentDocument[],
  loadKeywords: LoadKeywords,
  now: () => number = Date.now,
): Suggester {
  const byLength = (a: string, b: string) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
  // Made on the first request, not at start: a site of thousands of pages has as many titles to normalise.
  let fixed: { tags: Candidate[]; titles: Candidate[] } | undefined;
  const fixedCandidates = () =>
    (fixed ??= {
      tags: [...new Set(documents.flatMap((document) => document.tags))].sort(byLength).map((tag) => candidate(tag, 'tag')),
      titles: documents
        .map((document) => document.title)
        .sort(byLength)
        .map((title) => candidate(title, 'title')),
    });
  let keywords: Candidate[] = [];
  let loadedAt = Number.NEGATIVE_INFINITY;
  let loading: Promise<void> | undefined;
  // Requests arriving during a reload share it. A store that does not answer leaves the keywords
  // as they were (suggestions without the latest keywords are better than none) until a minute on.
  const reload = () =>
    (loading ??= loadKeywords(new Date(now() - KEYWORD_WINDOW_MS).toISOString())
      .then(
        (list) => {
          keywords = list.map((keyword) => candidate(keyword, 'keyword'));
        },
        () => undefined,
      )
      .finally(() => {
        loadedAt = now();
        loading = undefined;
      }));

  return {
    suggest: async (q) => {
      const word = normalize(normalizeQuery(q).split(' ').at(-1)!);
      if (word === '') return [];
      if (now() - loadedAt >= KEYWORDS_MAX_AGE_MS) await reload();
      const first: Suggestion[] = [];
      const then: Suggestion[] = [];
      const seen = new Set<string>();
      const { tags, titles } = fixedCandidates();
      for (const group of [keywords, tags, titles]) {
        for (const { text, kind, whole, later } of group) {
          if (first.length >= MAX_SUGGESTIONS) break;
          const begins = whole.startsWith(word);
          if ((!begins && !later.some((rest) => rest.startsWith(word))) || seen.has(whole)) continue;
          seen.add(whole);
          (begins ? first : then).push({ text, kind });
        }
      }
      return first.concat(then).slice(0, MAX_SUGGESTIONS);
    },
  };
}

function candidate(text: string, kind: SuggestionKind): Candidate {
  const whole = normalize(text);
  return {
    text,
    kind,
    whole,
    later: textRuns(whole)
      .slice(1)
      .map((run) => whole.slice(run.start)),
  };
}
