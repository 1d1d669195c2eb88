import type { Query, SearchOptions } from 'minisearch';
import { codePointLength } from '../text/code-points.ts';
import { normalize } from '../text/normalize.ts';
import { bigrams, isJapaneseTerm, textRuns, tokenize, type TextRun } from '../text/tokenize.ts';
import { matchAll, type Compound, type Match, type Word } from './run-matches.ts';
import { useFastLookups } from './term-lookups.ts';
import { synonymsOf } from './synonyms.ts';
import { FIELD_BOOSTS, type SearchIndex } from './index-fields.ts';

/**
 * Matching and ranking, by MiniSearch over the site's index, with the query cut into runs as the
 * documents were (src/text/tokenize.ts); a document matches every run: a Japanese run by all its
 * bigrams (a lone character: any term holding it), never fuzzy; a word as itself, as a prefix from 2
 * characters, and from 5 within floor(0.2 × length) edits, so `vco` never matches `vca`. A synonym
 * group's other words find pages after those with the words as typed. Only MAX_QUERY_WORDS runs
 * count, which bounds one query's cost. Scores: BM25+ per field with FIELD_BOOSTS; equal scores go
 * to the newer page. The rules with examples: docs/search.md.
 */ export interface QueryMatch {
  /** Every matching document. */
  total: number;
  /** The best `limit` of them, best first. */
  hits: { document: number; score: number }[];
  /** What matched, for marking it in the text (see highlight.ts). */
  targets: MatchTargets;
}

export interface MatchTargets {
  /** Index words that matched a query word (itself, longer words it begins, near misses). */
  words: ReadonlySet<string>;
  /** The query's Japanese runs, normalised. */
  japanese: readonly string[];
}

/** A query's words beyond these are ignored; a word is a run (`eurorackケース` is two, `ア・イ` too). */
export const MAX_QUERY_WORDS = 10;

const MIN_PREFIX_LENGTH = 2;
const FUZZINESS = 0.2;

/**
 * MiniSearch ANDs the terms of each run and the runs of the query, and ORs a word's prefix and
 * fuzzy expansions into one term.
 */
const SEARCH_OPTIONS: SearchOptions = {
  combineWith: 'AND',
  boost: FIELD_BOOSTS,
  // A bigram repeated in a query (ドンドン) is one condition, not two.
  tokenize: (text) => [...new Set(tokenize(text))],
  prefix: (term) => term.length >= MIN_PREFIX_LENGTH && !isJapaneseTerm(term),
  // A whole number is an edit distance to MiniSearch; 0 (words under 5 characters) is none.
  fuzzy: (term) => !isJapaneseTerm(term) && Math.floor(term.length * FUZZINESS),
};

export function matchQuery(index: SearchIndex, query: string, limit: number): QueryMatch {
  const runs = textRuns(normalize(query)).slice(0, MAX_QUERY_WORDS);
  const japanese = runs.filter((run) => run.kind === 'japanese').map((run) => run.text);
  if (runs.length === 0) return { total: 0, hits: [], targets: { words: new Set(), japanese } };

  useFastLookups(index.miniSearch);
  let results = ranked(index, matchAll(index.miniSearch, runs.map(runWord), SEARCH_OPTIONS));
  const synonyms = runs.map((run) => synonymsOf(index.synonyms, run.text));
  if (synonyms.some((words) => words.length > 0)) {
    results = results.concat(throughSynonyms(index, runs, synonyms, results));
    for (const word of synonyms.flat()) if (isJapaneseTerm(word)) japanese.push(word);
  }
  const hits = results.slice(0, limit);
  const words = new Set<string>();
  for (const hit of hits) for (const term of hit.terms) if (!isJapaneseTerm(term)) words.add(term);
  return {
    total: results.length,
    hits: hits.map((hit) => ({ document: hit.id as number, score: hit.score })),
    targets: { words, japanese },
  };
}

/** Best first; equal scores go to the newer page, then by id, so the order never depends on the index. */
function ranked(index: SearchIndex, results: Match[]): Match[] {
  const { documents } = index;
  return results.sort(
    (a, b) =>
      b.score - a.score ||
      compare(documents[b.id]!.createdAt, documents[a.id]!.createdAt) ||
      compare(documents[a.id]!.id, documents[b.id]!.id),
  );
}

/** How much a page found only through a synonym counts against one with the word itself. */
const SYNONYM_WEIGHT = 0.5;

/**
 * The pages the query finds when each word may also be one of its synonyms (synonyms.ts), less
 * those it finds as typed (`withWords`), ranked after them all: their score is halved and never
 * above the lowest of those. A synonym matches as a whole word (no prefix, no typo: `eg` is not
 * `egg`); a Japanese one by its bigrams, as any Japanese run.
 */
function throughSynonyms(index: SearchIndex, runs: TextRun[], synonyms: string[][], withWords: Match[]): Match[] {
  const words = runs.map((run, i): Word | Compound => {
    if (synonyms[i]!.length === 0) return runWord(run);
    const query = (): Query => {
      // Inside an OR each alternative must AND its own terms (a Japanese run's bigrams).
      const asTyped = runQuery(run);
      const typed: Query = typeof asTyped === 'string' ? { queries: [asTyped], combineWith: 'AND' } : asTyped;
      return { combineWith: 'OR', queries: [typed, ...synonyms[i]!.map(synonymQuery)] };
    };
    // A run's text has no newline: this key is never a word's own.
    return { key: `${run.text}\nor its synonyms`, query };
  });
  const found = new Set(withWords.map((result) => result.id));
  const ceiling = withWords.at(-1)?.score ?? Number.POSITIVE_INFINITY;
  const more = matchAll(index.miniSearch, words, SEARCH_OPTIONS).filter((result) => !found.has(result.id));
  for (const result of more) result.score = Math.min(result.score * SYNONYM_WEIGHT, ceiling);
  return ranked(index, more);
}

/**
 * A run as matchAll finds it: a Japanese run of two bigrams or more by its bigrams, each once
 * (MiniSearch ANDs a query's terms, after SEARCH_OPTIONS.tokenize), any other run as one query.
 */
function runWord(run: TextRun): Word | Compound {
  const word = { key: run.text, query: () => runQuery(run) };
  if (run.kind !== 'japanese') return word;
  const parts = [...new Set(bigrams(run.text))];
  return parts.length < 2 ? word : { key: run.text, parts: parts.map((bigram) => ({ key: bigram, query: () => bigram })) };
}

function runQuery(run: TextRun): Query {
  return run.kind === 'japanese' && codePointLength(run.text) === 1 ? characterQuery(run.text) : run.text;
}

function synonymQuery(word: string): Query {
  if (isJapaneseTerm(word) && codePointLength(word) === 1) return characterQuery(word);
  return { queries: [word], combineWith: 'AND', prefix: false, fuzzy: false };
}

/**
 * One Japanese character finds every term holding it: itself, the bigrams it begins (prefix) and
 * those it ends (one edit away: fuzzy 1). boostDocument drops the other terms one edit away (other
 * lone characters, short words). The weights make each such bigram count as the character itself
 * (MiniSearch weighs a prefix match w·len/(len + 0.3·extra), a fuzzy one w·len/(len + edits)).
 * MiniSearch counts UTF-16 units, so a character outside the BMP (𠮷) misses the bigrams it ends
 * after another such character: two edits would walk every bigram of the index, for a pair that
 * hardly occurs.
 */
function characterQuery(character: string): Query {
  return {
    queries: [character],
    prefix: true,
    fuzzy: 1,
    weights: { prefix: 2.3 / 2, fuzzy: 3 / 2 },
    boostDocument: (_position, term) => (term.includes(character) ? 1 : 0),
  };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
