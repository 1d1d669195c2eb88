import { isJapaneseTerm, tokenize } from '../text/tokenize.ts';
import type { ContentDocument } from './content.ts';

/**
 * The site's inverted index. Content never changes while the service runs, so everything a query
 * needs is computed once here: each posting holds its document and its finished BM25+ score over
 * the four fields (with their boosts), and a query only adds up postings (see query.ts).
 *
 * Typed arrays rather than objects per posting: a 5,000-page site has millions of postings, and a
 * query may walk tens of thousands of them (bench/search.ts).
 */
export interface SearchIndex {
  documents: ContentDocument[];
  /** Every term, by id. */
  terms: string[];
  termIds: Map<string, number>;
  /** The postings of term t are entries offsets[t]..offsets[t+1]-1, in document order. */
  offsets: Uint32Array;
  postingDocuments: Uint32Array;
  postingScores: Float32Array;
  /** Ids of the word (non-Japanese) terms, sorted by term, for prefix and fuzzy look-ups. */
  wordIds: Uint32Array;
}

/** Seed: title highest, then description, then tags and the body ("excerpt") alike. */
export const FIELD_BOOSTS = { title: 4, description: 2, tags: 1, body: 1 } as const;
type Field = keyof typeof FIELD_BOOSTS;
const FIELDS = Object.keys(FIELD_BOOSTS) as Field[];
const BOOSTS = FIELDS.map((field) => FIELD_BOOSTS[field]);

/** BM25+ parameters (MiniSearch's defaults). */
const K1 = 1.2;
const B = 0.7;
const DELTA = 0.5;

export function fieldText(document: ContentDocument, field: Field): string {
  return field === 'tags' ? document.tags.join(' ') : document[field];
}

export function buildSearchIndex(documents: ContentDocument[]): SearchIndex {
  const fieldCount = FIELDS.length;
  const termIds = new Map<string, number>();
  const terms: string[] = [];
  const documentFrequency: number[] = [];
  const fieldLengths = new Uint32Array(documents.length * fieldCount);
  // Postings in the order they are found (document by document): term, document, and one term
  // frequency per field.
  let postingTerms = new Uint32Array(1 << 16);
  let postingDocuments = new Uint32Array(1 << 16);
  let postingFrequencies = new Uint16Array((1 << 16) * fieldCount);
  let postingCount = 0;

  documents.forEach((document, documentId) => {
    const slots = new Map<number, number>();
    const frequencies: number[] = [];
    FIELDS.forEach((field, f) => {
      const fieldTerms = tokenize(fieldText(document, field));
      fieldLengths[documentId * fieldCount + f] = fieldTerms.length;
      for (const term of fieldTerms) {
        let termId = termIds.get(term);
        if (termId === undefined) {
          termId = terms.push(term) - 1;
          termIds.set(term, termId);
          documentFrequency.push(0);
        }
        let slot = slots.get(termId);
        if (slot === undefined) {
          slot = slots.size;
          slots.set(termId, slot);
          for (let i = 0; i < fieldCount; i++) frequencies.push(0);
        }
        frequencies[slot * fieldCount + f]! += 1;
      }
    });
    if (postingCount + slots.size > postingTerms.length) {
      const size = Math.max(postingTerms.length * 2, postingCount + slots.size);
      postingTerms = grow(postingTerms, size);
      postingDocuments = grow(postingDocuments, size);
      postingFrequencies = grow(postingFrequencies, size * fieldCount);
    }
    for (const [termId, slot] of slots) {
      postingTerms[postingCount] = termId;
      postingDocuments[postingCount] = documentId;
      for (let f = 0; f < fieldCount; f++) {
        postingFrequencies[postingCount * fieldCount + f] = Math.min(frequencies[slot * fieldCount + f]!, 0xffff);
      }
      postingCount++;
      documentFrequency[termId]! += 1;
    }
  });

  const averageLengths = FIELDS.map((_, f) => {
    let total = 0;
    for (let d = 0; d < documents.length; d++) total += fieldLengths[d * fieldCount + f]!;
    return Math.max(total / Math.max(documents.length, 1), 1);
  });

  // Group the postings by term (a counting sort, stable, so each list stays in document order)
  // and turn each into its score.
  const offsets = new Uint32Array(terms.length + 1);
  for (let t = 0; t < terms.length; t++) offsets[t + 1] = offsets[t]! + documentFrequency[t]!;
  const next = offsets.slice(0, terms.length);
  const documentsByTerm = new Uint32Array(postingCount);
  const scores = new Float32Array(postingCount);
  for (let p = 0; p < postingCount; p++) {
    const termId = postingTerms[p]!;
    const documentId = postingDocuments[p]!;
    const df = documentFrequency[termId]!;
    const idf = Math.log(1 + (documents.length - df + 0.5) / (df + 0.5));
    let score = 0;
    for (let f = 0; f < fieldCount; f++) {
      const tf = postingFrequencies[p * fieldCount + f]!;
      if (tf === 0) continue;
      const lengthRatio = fieldLengths[documentId * fieldCount + f]! / averageLengths[f]!;
      score += BOOSTS[f]! * ((tf * (K1 + 1)) / (tf + K1 * (1 - B + B * lengthRatio)) + DELTA);
    }
    const at = next[termId]!++;
    documentsByTerm[at] = documentId;
    scores[at] = idf * score;
  }

  const wordIds = Uint32Array.from(
    terms.flatMap((term, id) => (isJapaneseTerm(term) ? [] : [id])).sort((a, b) => compareTerms(terms[a]!, terms[b]!)),
  );
  return { documents, terms, termIds, offsets, postingDocuments: documentsByTerm, postingScores: scores, wordIds };
}

/** Plain code-unit order, the order prefix look-ups binary-search in. */
export function compareTerms(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function grow<T extends Uint32Array | Uint16Array>(array: T, size: number): T {
  const bigger = new (array.constructor as new (size: number) => T)(size);
  bigger.set(array);
  return bigger;
}
