import type MiniSearch from 'minisearch';
import SearchableMap from 'minisearch/SearchableMap';
import { JAPANESE } from '../text/tokenize.ts';

/**
 * MiniSearch finds a query word's near misses by walking its whole term tree with a Levenshtein
 * matrix (SearchableMap.fuzzyGet). On the site's index most of that tree is Japanese bigrams, which
 * a word can never be near, and the walk was the largest cost of an uncached search (bench/search.ts).
 * This swaps the index's fuzzyGet for one that answers the two kinds of fuzzy lookup query.ts makes
 * from smaller tables, with exactly the walk's answer: the same terms, data and distances, in the
 * walk's order (scores are sums of floats, so even the order must not change):
 * - a word (no Japanese character, no surrogate): the walk over the terms that are not all
 *   Japanese. A term made only of Japanese characters shares no UTF-16 unit with such a word, so
 *   its distance is at least the word's length, always beyond the fuzziness query.ts allows;
 * - one UTF-16 unit at distance 1 (a lone Japanese character, see query.ts characterQuery): the
 *   terms of two units that hold it, and itself. The walk also finds every other term of one unit
 *   (one substitution away); characterQuery's boostDocument drops those, as they do not hold the
 *   character, so they are left out here: they were a quarter of the cost of such a query.
 * Any other lookup takes the walk. The index is never changed while the service runs (see
 * index-fields.ts), so the tables are built once, on the first search.
 */
type Terms = MiniSearch['_index'];
type Fuzzy = ReturnType<Terms['fuzzyGet']>;
type TermData = Fuzzy extends Map<string, [infer Data, number]> ? Data : never;

const prepared = new WeakSet<Terms>();

export function useFastFuzzy(miniSearch: MiniSearch): void {
  const terms = (miniSearch as unknown as { _index: Terms })._index;
  if (prepared.has(terms)) return;
  prepared.add(terms);

  const walk = terms.fuzzyGet.bind(terms);
  const order = walkOrder(terms);
  const words = new SearchableMap<TermData>();
  const short = new Map<string, [string, TermData][]>();
  for (const [term, data] of order) {
    if (!ALL_JAPANESE.test(term)) words.set(term, data);
    if (term.length <= 2) {
      for (const unit of new Set(term)) (short.get(unit) ?? short.set(unit, []).get(unit)!).push([term, data]);
    }
  }
  const rank = new Map([...order.keys()].map((term, position) => [term, position]));
  const byRank = (a: [string, unknown], b: [string, unknown]) => rank.get(a[0])! - rank.get(b[0])!;

  terms.fuzzyGet = (key, maxDistance): Fuzzy => {
    if (key.length === 1 && maxDistance === 1) {
      // A fresh Map each time: MiniSearch deletes from it.
      return new Map((short.get(key) ?? []).map(([term, data]) => [term, [data, term === key ? 0 : 1]]));
    }
    if (maxDistance < key.length && !SURROGATE.test(key) && !JAPANESE_CHARACTER.test(key)) {
      return new Map([...words.fuzzyGet(key, maxDistance)].sort(byRank));
    }
    return walk(key, maxDistance);
  };
}

/** Every term with its data, in the order MiniSearch's fuzzy walk visits them (its tree's key order). */
function walkOrder(terms: Terms): Map<string, TermData> {
  const order = new Map<string, TermData>();
  const visit = (node: Map<string, unknown>, prefix: string) => {
    for (const [key, child] of node) {
      if (key === '') order.set(prefix, child as TermData);
      else visit(child as Map<string, unknown>, prefix + key);
    }
  };
  visit(terms._tree as Map<string, unknown>, '');
  return order;
}

const ALL_JAPANESE = new RegExp(`^[${JAPANESE}]+$`, 'v');
const JAPANESE_CHARACTER = new RegExp(`[${JAPANESE}]`, 'v');
// Without the u or v flag a class matches UTF-16 units, so this finds either half of any pair.
const SURROGATE = /[\ud800-\udfff]/;
