import type MiniSearch from 'minisearch';
import type { Query, SearchOptions } from 'minisearch';

/**
 * A query's matches, as MiniSearch's `search({queries: [one per word]}, options)` finds them, with
 * each word's own matches worked out once and kept. A query is an AND of its words (runs, see
 * query.ts), and most of the cost of an uncached search was MiniSearch finding and scoring each
 * word's terms in every page (bench/search.ts); a shop's queries, new as they may be, are made of
 * words asked before, and what a word matches depends on the index alone, which never changes
 * while the service runs. The words' matches are combined by MiniSearch's own code, in the same
 * order as its search does, so scores (sums of floats) come out exactly the same.
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
  combineResults(results: Raw[], combineWith: string): Raw;
  _documentIds: Map<number, number>;
}

/**
 * Documents matched and kept, summed over every word kept; past it the words used least recently
 * are forgotten. A word matches at most every page, so this holds a few hundred words of a large
 * site (a common word of 5,000 pages), or thousands of the sample's.
 */
const MAX_KEPT_MATCHES = 200_000;

interface Kept {
  words: Map<string, Raw>;
  matches: number;
}

const keptByIndex = new WeakMap<MiniSearch, Kept>();

/**
 * The documents matching every one of `words`: each is a query MiniSearch runs with `options`
 * (combineWith AND), under a key that names it (equal keys must mean equal queries).
 */
export function matchAll(miniSearch: MiniSearch, words: { key: string; query: () => Query }[], options: SearchOptions): Match[] {
  const internals = miniSearch as unknown as Internals;
  let kept = keptByIndex.get(miniSearch);
  if (!kept) keptByIndex.set(miniSearch, (kept = { words: new Map(), matches: 0 }));
  // The combination changes the first word's entries in place (MiniSearch's AND keeps them), so it
  // gets a copy; the others are only read.
  const raws = words.map(({ key, query }, i) => {
    const raw = wordMatches(kept, key, () => internals.executeQuery(query(), options));
    return i === 0 ? copy(raw) : raw;
  });
  const combined = raws.length === 0 ? new Map() : internals.combineResults(raws, 'AND');
  // As MiniSearch's search() makes its results of the combination.
  const matches: Match[] = [];
  for (const [docId, { score, terms, match }] of combined) {
    matches.push({ id: internals._documentIds.get(docId)!, score: score * (terms.length || 1), terms: Object.keys(match) });
  }
  return matches;
}

function wordMatches(kept: Kept, key: string, find: () => Raw): Raw {
  let raw = kept.words.get(key);
  if (raw) {
    kept.words.delete(key);
  } else {
    raw = find();
    kept.matches += raw.size;
    for (const [oldest, old] of kept.words) {
      if (kept.matches <= MAX_KEPT_MATCHES) break;
      kept.words.delete(oldest);
      kept.matches -= old.size;
    }
  }
  kept.words.set(key, raw);
  return raw;
}

function copy(raw: Raw): Raw {
  const copied: Raw = new Map();
  for (const [docId, { score, terms, match }] of raw) copied.set(docId, { score, terms: [...terms], match: { ...match } });
  return copied;
}
