import { normalize } from '../text/normalize.ts';
import { bigrams, isJapaneseTerm, textRuns } from '../text/tokenize.ts';
import { compareTerms, type SearchIndex } from './search-index.ts';

/**
 * Matching and ranking. The query is normalised and cut into runs exactly as documents are
 * (src/text/tokenize.ts), and a document matches when it matches every run (AND, as in the catalog):
 * - a Japanese run of two or more characters: every one of its bigrams (so `シンセ` finds
 *   `モジュラーシンセ`, and `サイバー` does not find `サイドバー`, which lacks `イバ`);
 * - a Japanese run of one character: any term holding that character;
 * - a word: the word itself; a longer word it begins (prefix, from 2 characters on); or, from
 *   5 characters on, a word within floor(0.2 × length) edits (fuzzy 0.2: one typo from 5
 *   characters, two from 10), so short words such as `vco` never match a neighbour such as `vca`.
 * Japanese runs are never fuzzy: one character off is another word there.
 *
 * A document's score is the sum of its postings' BM25+ scores, prefix and fuzzy matches weighted
 * down as MiniSearch weighs them.
 */
export interface QueryMatch {
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

const MIN_PREFIX_LENGTH = 2;
const FUZZINESS = 0.2;
const PREFIX_WEIGHT = 0.375;
const FUZZY_WEIGHT = 0.45;

/** A set of terms any of which satisfies one part of the query, each with its weight. */
interface Conjunct {
  termIds: number[];
  weights: number[];
  /** Postings to walk: the conjuncts are evaluated cheapest first. */
  cost: number;
}

export function matchQuery(index: SearchIndex, query: string, limit: number): QueryMatch {
  const words = new Set<string>();
  const japanese: string[] = [];
  const conjuncts: Conjunct[] = [];
  for (const run of textRuns(normalize(query))) {
    if (run.kind === 'word') {
      const conjunct = wordConjunct(index, run.text);
      for (const id of conjunct.termIds) words.add(index.terms[id]!);
      conjuncts.push(conjunct);
    } else {
      japanese.push(run.text);
      const chars = Array.from(run.text);
      if (chars.length === 1) conjuncts.push(characterConjunct(index, run.text));
      else for (const gram of new Set(bigrams(run.text))) conjuncts.push(termConjunct(index, gram));
    }
  }
  const targets = { words, japanese };
  if (conjuncts.length === 0 || conjuncts.some((c) => c.termIds.length === 0)) return { total: 0, hits: [], targets };
  conjuncts.sort((a, b) => a.cost - b.cost);

  // satisfied[d] counts the conjuncts document d has met so far; a document that missed one is
  // never looked at again, so the cheapest conjunct bounds the work of all the others.
  const documentCount = index.documents.length;
  const satisfied = new Uint16Array(documentCount);
  const scores = new Float64Array(documentCount);
  const { offsets, postingDocuments, postingScores } = index;
  let candidates = 0;
  for (let c = 0; c < conjuncts.length; c++) {
    const { termIds, weights } = conjuncts[c]!;
    candidates = 0;
    for (let t = 0; t < termIds.length; t++) {
      const termId = termIds[t]!;
      const weight = weights[t]!;
      for (let p = offsets[termId]!, end = offsets[termId + 1]!; p < end; p++) {
        const document = postingDocuments[p]!;
        const met = satisfied[document]!;
        if (met === c) {
          satisfied[document] = c + 1;
          candidates++;
        } else if (met !== c + 1) {
          continue;
        }
        scores[document]! += weight * postingScores[p]!;
      }
    }
    if (candidates === 0) return { total: 0, hits: [], targets };
  }

  const matched: number[] = [];
  for (let d = 0; d < documentCount; d++) if (satisfied[d] === conjuncts.length) matched.push(d);
  const documents = index.documents;
  matched.sort(
    (a, b) => scores[b]! - scores[a]! || compareTerms(documents[b]!.createdAt, documents[a]!.createdAt) || compareTerms(documents[a]!.id, documents[b]!.id),
  );
  return {
    total: matched.length,
    hits: matched.slice(0, limit).map((document) => ({ document, score: scores[document]! })),
    targets,
  };
}

function termConjunct(index: SearchIndex, term: string): Conjunct {
  const id = index.termIds.get(term);
  return id === undefined ? { termIds: [], weights: [], cost: 0 } : { termIds: [id], weights: [1], cost: postingCount(index, id) };
}

/** One Japanese character: it may start a bigram, end one, or stand alone. */
function characterConjunct(index: SearchIndex, character: string): Conjunct {
  const termIds = termsContaining(index, character);
  return { termIds, weights: termIds.map(() => 1), cost: termIds.reduce((sum, id) => sum + postingCount(index, id), 0) };
}

const charactersIndexes = new WeakMap<SearchIndex, Map<string, number[]>>();

/** Japanese terms by the characters in them, built on the first one-character query. */
function termsContaining(index: SearchIndex, character: string): number[] {
  let byCharacter = charactersIndexes.get(index);
  if (!byCharacter) {
    byCharacter = new Map();
    index.terms.forEach((term, id) => {
      if (!isJapaneseTerm(term)) return;
      for (const char of new Set(term)) {
        const list = byCharacter!.get(char);
        if (list) list.push(id);
        else byCharacter!.set(char, [id]);
      }
    });
    charactersIndexes.set(index, byCharacter);
  }
  return byCharacter.get(character) ?? [];
}

function wordConjunct(index: SearchIndex, word: string): Conjunct {
  const weightById = new Map<number, number>();
  const exact = index.termIds.get(word);
  if (exact !== undefined) weightById.set(exact, 1);
  const { terms, wordIds } = index;
  if (word.length >= MIN_PREFIX_LENGTH) {
    for (let i = lowerBound(index, word); i < wordIds.length && terms[wordIds[i]!]!.startsWith(word); i++) {
      const id = wordIds[i]!;
      const extra = terms[id]!.length - word.length;
      if (extra > 0) weightById.set(id, (PREFIX_WEIGHT * terms[id]!.length) / (terms[id]!.length + 0.3 * extra));
    }
  }
  const maxDistance = Math.floor(word.length * FUZZINESS);
  if (maxDistance > 0) {
    for (const id of wordIds) {
      if (weightById.has(id)) continue;
      const term = terms[id]!;
      if (Math.abs(term.length - word.length) > maxDistance) continue;
      const distance = boundedEditDistance(word, term, maxDistance);
      if (distance <= maxDistance) weightById.set(id, (FUZZY_WEIGHT * term.length) / (term.length + distance));
    }
  }
  const termIds = [...weightById.keys()];
  return {
    termIds,
    weights: termIds.map((id) => weightById.get(id)!),
    cost: termIds.reduce((sum, id) => sum + postingCount(index, id), 0),
  };
}

function postingCount(index: SearchIndex, termId: number): number {
  return index.offsets[termId + 1]! - index.offsets[termId]!;
}

/** The first position in the sorted word list whose term is not below `word`. */
function lowerBound(index: SearchIndex, word: string): number {
  let low = 0;
  let high = index.wordIds.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (index.terms[index.wordIds[middle]!]! < word) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Levenshtein distance, or max + 1 as soon as it must exceed max. */
export function boundedEditDistance(a: string, b: string, max: number): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  let current = new Array<number>(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (current[j]! < rowMin) rowMin = current[j]!;
    }
    if (rowMin > max) return max + 1;
    [previous, current] = [current, previous];
  }
  return previous[b.length]!;
}
