import type MiniSearch from 'minisearch';
import type { Query, SearchOptions } from 'minisearch';
import { RecentCache } from '../recent-cache.ts';

/**
 * A query's matches, as MiniSearch's `search({queries: [one per word]}, options)` finds them, with
 * each word's own matches worked out once and kept. A query is an AND of its words (runs, see
 * query.ts), and most of the cost of an uncached search was MiniSearch finding and scoring each
 * word's terms in every page (bench/search.ts); a shop's queries, new as they may be, are made of
 * words asked before, and what a word matches depends on the index alone, which never changes
 * while the service runs. The words' matches are combined as MiniSearch combines them, in the same
 * order, so scores (sums of floats) come out exactly the same (run-matches.test.ts compares them).
 */
export interface Match {
  /** The document's position in the index (SearchIndex.documents). */
  id: number;
  score: number;
  /** The index terms that matched. */
  terms: string[];
}

/** MiniSearch's matches of one query, by document, before they become results (its RawResult). */
type Raw = Map<number, { score: number; terms: string[]; match: Record<string, string[]> }>;

interface Internals {
  executeQuery(query: Query, options: SearchOptions): Raw;
  _documentIds: Map<number, number>;
}

/**
 * Documents matched and kept, summed over every word kept, a word matching none counting as one
 * (about 500 bytes each with their word's share: 25 MB at most); past it the words not used
 * recently are forgotten (recent-cache.ts). The sample's words match 3 pages each on average, so this holds every
 * word it has; a site of 5,000 pages, its commonest words at least. With 10,000 instead, a search
 * of the sample's words cost 2.5 times the CPU.
 */
export const MAX_KEPT_MATCHES = 50_000;

type Kept = RecentCache<string, Raw>;

const keptByIndex = new WeakMap<MiniSearch, Kept>();

/** A query MiniSearch runs, under a key that names it: equal keys must mean equal queries. */
export interface Word {
  key: string;
  query: () => Query;
}

/**
 * A word whose matches are those of all its parts (two or more), as MiniSearch finds a query of
 * several terms: a Japanese run, the AND of its bigrams, each found and kept on its own, and the
 * run kept too. A new run is mostly made of bigrams asked before (a slice of a page's text is), so
 * it costs no lookup.
 */
export interface Compound {
  key: string;
  parts: Word[];
}

/**
 * The documents matching every one of `words`, each found as MiniSearch runs it with `options`
 * (combineWith AND); every call on one index passes the same options.
 */
export function matchAll(miniSearch: MiniSearch, words: (Word | Compound)[], options: SearchOptions): Match[] {
  const internals = miniSearch as unknown as Internals;
  let kept = keptByIndex.get(miniSearch);
  if (!kept) keptByIndex.set(miniSearch, (kept = new RecentCache(MAX_KEPT_MATCHES, { weigh: keptSize })));
  const find = ({ key, query }: Word) => kept.getOrCompute(key, () => internals.executeQuery(query(), options));
  const raws = words.map((word) => ('parts' in word ? kept.getOrCompute(word.key, () => word.parts.map(find).reduce(and)) : find(word)));
  const combined = raws.length === 0 ? new Map() : raws.reduce(and);
  // As MiniSearch's search() makes its results of the combination.
  const matches: Match[] = [];
  for (const [docId, { score, terms, match }] of combined) {
    matches.push({ id: internals._documentIds.get(docId)!, score: score * (terms.length || 1), terms: Object.keys(match) });
  }
  return matches;
}

/** What a word's matches count for against MAX_KEPT_MATCHES: words matching nothing, queries' typos, are many. */
const keptSize = (raw: Raw) => Math.max(raw.size, 1);

/**
 * MiniSearch's AND of two words' matches (its `combinators.AND`): the same sums, terms and
 * matched fields, made anew where MiniSearch changes the first word's entries in place, as those
 * are kept. The smaller of the two is walked, and the documents come in its order: results are
 * ranked by a total order (query.ts), so the order in which they are found never shows.
 */
function and(a: Raw, b: Raw): Raw {
  const combined: Raw = new Map();
  const aIsSmaller = a.size <= b.size;
  for (const [docId, entry] of aIsSmaller ? a : b) {
    const other = (aIsSmaller ? b : a).get(docId);
    if (other === undefined) continue;
    const first = aIsSmaller ? entry : other;
    const second = aIsSmaller ? other : entry;
    const allTerms = [...first.terms];
    for (const term of second.terms) if (!allTerms.includes(term)) allTerms.push(term);
    combined.set(docId, { score: first.score + second.score, terms: allTerms, match: { ...first.match, ...second.match } });
  }
  return combined;
}
