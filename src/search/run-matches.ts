import type MiniSearch from 'minisearch';
import type { Query, SearchOptions } from 'minisearch';
import { RecentCache } from '../serving/recent-cache.ts';

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
  /** The index terms that matched, in no particular order (they are marked wherever they are: highlight.ts). */
  terms: readonly string[];
}

/** MiniSearch's matches of one query, by document, before they become results (its RawResult). */
type MiniSearchRaw = Map<number, { score: number; terms: string[]; match: Record<string, string[]> }>;

/**
 * A word's matches as kept: MiniSearch's, with the index terms that matched (the keys of its
 * `match`, which gives the fields too) as a list. Objects keyed by terms took a hidden class of
 * V8's for every set of terms, and combining them was most of the cost of an AND.
 */
type Raw = Map<number, { score: number; terms: readonly string[]; matched: readonly string[] }>;

interface Internals {
  executeQuery(query: Query, options: SearchOptions): MiniSearchRaw;
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

/**
 * A word's matches are kept from its second search on, among the last this many words searched once
 * and not kept: a word searched once (a typo, a slice of a sentence) was copied by V8's collector
 * out of its young generation and into the old one, most of what a stream of new words left there.
 */
const WORDS_ASKED_ONCE = 10_000;

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
  if (!kept)
    keptByIndex.set(miniSearch, (kept = new RecentCache(MAX_KEPT_MATCHES, { weigh: keptSize, keepOnSecondUse: WORDS_ASKED_ONCE })));
  const find = ({ key, query }: Word) => kept.getOrCompute(key, () => asKept(internals.executeQuery(query(), options)));
  const raws = words.map((word) => ('parts' in word ? kept.getOrCompute(word.key, () => and(word.parts.map(find))) : find(word)));
  const combined = raws.length === 0 ? new Map() : and(raws);
  // As MiniSearch's search() makes its results of the combination.
  const matches: Match[] = [];
  for (const [docId, { score, terms, matched }] of combined) {
    matches.push({ id: internals._documentIds.get(docId)!, score: score * (terms.length || 1), terms: matched });
  }
  return matches;
}

function asKept(raw: MiniSearchRaw): Raw {
  const kept: Raw = new Map();
  for (const [docId, { score, terms, match }] of raw) kept.set(docId, { score, terms, matched: Object.keys(match) });
  return kept;
}

/** What a word's matches count for against MAX_KEPT_MATCHES: words matching nothing, queries' typos, are many. */
const keptSize = (raw: Raw) => Math.max(raw.size, 1);

/**
 * MiniSearch's AND of words' matches (its `combinators.AND`, applied from the first word to the
 * last): the same sums in the same order, the same query terms, and the index terms matched. The
 * documents in all of them are found first, by walking the word with the fewest, and only theirs
 * are combined; they come in that word's order, which never shows: results are ranked by a total
 * order (query.ts).
 */
function and(raws: Raw[]): Raw {
  if (raws.length === 1) return raws[0]!;
  let fewest = raws[0]!;
  for (const raw of raws) if (raw.size < fewest.size) fewest = raw;
  const combined: Raw = new Map();
  inAll: for (const docId of fewest.keys()) {
    for (const raw of raws) if (raw !== fewest && !raw.has(docId)) continue inAll;
    const first = raws[0]!.get(docId)!;
    let score = first.score;
    const terms = [...first.terms];
    const matched = [...first.matched];
    for (let i = 1; i < raws.length; i++) {
      const entry = raws[i]!.get(docId)!;
      score += entry.score;
      for (const term of entry.terms) if (!terms.includes(term)) terms.push(term);
      for (const term of entry.matched) if (!matched.includes(term)) matched.push(term);
    }
    combined.set(docId, { score, terms, matched });
  }
  return combined;
}
