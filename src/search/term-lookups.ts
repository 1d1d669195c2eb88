import type MiniSearch from 'minisearch';
import SearchableMap from 'minisearch/SearchableMap';
import { JAPANESE } from '../text/tokenize.ts';

/**
 * MiniSearch finds a term by scanning a radix tree's children one by one (thousands at the root, one
 * per kanji and kana) and its near misses with a Levenshtein walk: most of an uncached search's cost.
 * These lookups answer from tables built once, on the first search (the index never changes while
 * the service runs), with exactly the tree's answers in the tree's order, since scores are float sums:
 * `get` from a hash map; `atPrefix` from the root child of the first UTF-16 unit; `fuzzyGet` of a word
 * among the terms not all Japanese (any other is too far), one edit away through the forms with one
 * character deleted; `fuzzyGet` of a lone Japanese character among the two-unit terms holding it
 * (characterQuery drops the others). Any other fuzzy lookup takes the walk. docs/search.md says more.
 */ type Terms = MiniSearch['_index'];
type Fuzzy = ReturnType<Terms['fuzzyGet']>;
type TermData = Fuzzy extends Map<string, [infer Data, number]> ? Data : never;
type Node = Map<string, unknown>;

const prepared = new WeakSet<Terms>();

export function useFastLookups(miniSearch: MiniSearch): void {
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
  let oneEdit: Map<string, string[]> | undefined;

  terms.get = (key) => order.get(key);

  // Views made with the index's own class (minisearch/SearchableMap is another copy of it).
  const View = terms.constructor as new (tree?: Node, prefix?: string) => Terms;
  const root = terms._tree as Node;
  const childByUnit = new Map<string, string>();
  for (const key of root.keys()) if (key !== '') childByUnit.set(key[0]!, key);
  terms.atPrefix = (prefix) => {
    const key = prefix === '' ? undefined : childByUnit.get(prefix[0]!);
    if (key === undefined) return prefix === '' ? terms : new View(undefined, prefix);
    const child = root.get(key) as Node;
    // As the tree's own atPrefix: below the child, or the child alone under a key the prefix begins.
    if (prefix.startsWith(key)) return new View(child, key).atPrefix(prefix);
    if (key.startsWith(prefix)) return new View(new Map([[key.slice(prefix.length), child]]), prefix);
    return new View(undefined, prefix);
  };

  terms.fuzzyGet = (key, maxDistance): Fuzzy => {
    if (key.length === 1 && maxDistance === 1) {
      // A fresh Map each time: MiniSearch deletes from it.
      return new Map((short.get(key) ?? []).map(([term, data]) => [term, [data, term === key ? 0 : 1]]));
    }
    if (maxDistance < key.length && !SURROGATE.test(key) && !JAPANESE_CHARACTER.test(key)) {
      if (maxDistance === 1 && key.length >= MIN_ONE_EDIT_KEY) {
        oneEdit ??= deletionNeighbours(words.keys());
        const found: [string, [TermData, number]][] = [];
        const seen = new Set<string>();
        for (const form of withOneDeleted(key)) {
          for (const term of oneEdit.get(form) ?? []) {
            if (seen.has(term)) continue;
            seen.add(term);
            const distance = term === key ? 0 : oneEditApart(term, key) ? 1 : 2;
            if (distance <= 1) found.push([term, [order.get(term)!, distance]]);
          }
        }
        return new Map(found.sort(byRank));
      }
      return new Map([...words.fuzzyGet(key, maxDistance)].sort(byRank));
    }
    return walk(key, maxDistance);
  };
}

/**
 * Keys from this length on are looked up one edit away through deletionNeighbours (shorter ones are
 * not fuzzy at all in query.ts), so a term within one edit of them has at least one character less.
 */
const MIN_ONE_EDIT_KEY = 5;

/**
 * Each form of the terms (of MIN_ONE_EDIT_KEY - 1 characters or more) with one character deleted,
 * and the term itself, to the terms it is made from. Two strings are at most one edit apart only
 * when they share such a form (a substitution deletes the same position from both, an insertion
 * is the other's deletion), so these are every term one edit away, and some that are not.
 */
function deletionNeighbours(terms: Iterable<string>): Map<string, string[]> {
  const neighbours = new Map<string, string[]>();
  for (const term of terms) {
    if (term.length < MIN_ONE_EDIT_KEY - 1) continue;
    for (const form of withOneDeleted(term)) {
      const list = neighbours.get(form);
      if (list) list.push(term);
      else neighbours.set(form, [term]);
    }
  }
  return neighbours;
}

/** The word itself, and each distinct form of it with one UTF-16 unit deleted. */
function withOneDeleted(word: string): Set<string> {
  const forms = new Set([word]);
  for (let i = 0; i < word.length; i++) forms.add(word.slice(0, i) + word.slice(i + 1));
  return forms;
}

/** Whether two different strings are one substitution, insertion or deletion apart (in UTF-16 units). */
function oneEditApart(a: string, b: string): boolean {
  if (a.length === b.length) {
    let differences = 0;
    for (let i = 0; i < a.length; i++) if (a.charCodeAt(i) !== b.charCodeAt(i) && ++differences > 1) return false;
    return differences === 1;
  }
  const [longer, shorter] = a.length > b.length ? [a, b] : [b, a];
  if (longer.length !== shorter.length + 1) return false;
  let i = 0;
  while (i < shorter.length && longer.charCodeAt(i) === shorter.charCodeAt(i)) i++;
  return longer.slice(i + 1) === shorter.slice(i);
}

/** Every term with its data, in the order MiniSearch's fuzzy walk visits them (its tree's key order). */
function walkOrder(terms: Terms): Map<string, TermData> {
  const order = new Map<string, TermData>();
  const visit = (node: Node, prefix: string) => {
    for (const [key, child] of node) {
      if (key === '') order.set(prefix, child as TermData);
      else visit(child as Node, prefix + key);
    }
  };
  visit(terms._tree as Node, '');
  return order;
}

const ALL_JAPANESE = new RegExp(`^[${JAPANESE}]+$`, 'v');
const JAPANESE_CHARACTER = new RegExp(`[${JAPANESE}]`, 'v');
// Without the u or v flag a class matches UTF-16 units, so this finds either half of any pair.
const SURROGATE = /[\ud800-\udfff]/;
