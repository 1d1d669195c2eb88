import MiniSearch, { type AsPlainObject, type Options, type Query } from 'minisearch';
import type { ContentDocument } from '../../src/search/content.ts';
import type { QueryMatch } from '../../src/search/query.ts';
import { FIELD_BOOSTS, fieldText } from '../../src/search/search-index.ts';
import { normalize } from '../../src/text/normalize.ts';
import { isJapaneseTerm, textRuns, tokenize } from '../../src/text/tokenize.ts';

// Site search on MiniSearch, with the behaviour of the custom index in src/search (same tokenizer,
// same matching rules, same boosts), to compare the two on the same corpus and queries
// (bench/search-engines.ts). MiniSearch holds the index and does the matching and the BM25+
// scoring; the query tree is planned here:
// - words, and the runs of Japanese bigrams, AND together (`combineWith: 'AND'`);
// - a word of 2+ characters also matches longer words it begins (`prefix`), and from 5 characters
//   words within floor(0.2 × length) edits (`fuzzy`); MiniSearch ORs a word's expansions;
// - Japanese terms are never prefix nor fuzzy, except a one-character run (see characterQuery).

export interface MiniSearchIndex {
  documents: ContentDocument[];
  miniSearch: MiniSearch<Entry>;
}

/** What MiniSearch indexes: a document and its position in the site's list, which is its id. */
interface Entry {
  position: number;
  document: ContentDocument;
}

const MIN_PREFIX_LENGTH = 2;
const FUZZINESS = 0.2;

const OPTIONS: Options<Entry> = {
  idField: 'position',
  fields: Object.keys(FIELD_BOOSTS),
  extractField: (entry, field) => (field === 'position' ? entry.position : fieldText(entry.document, field as keyof typeof FIELD_BOOSTS)),
  // tokenize() normalises: the terms need no processing.
  tokenize,
  processTerm: (term) => term,
  autoVacuum: false,
  searchOptions: {
    combineWith: 'AND',
    boost: FIELD_BOOSTS,
    // A bigram repeated in a query (ドンドン) is one condition, not two.
    tokenize: (text) => [...new Set(tokenize(text))],
    prefix: (term) => term.length >= MIN_PREFIX_LENGTH && !isJapaneseTerm(term),
    // A whole number is an edit distance to MiniSearch; 0 (words under 5 characters) is none.
    fuzzy: (term) => !isJapaneseTerm(term) && Math.floor(term.length * FUZZINESS),
  },
};

export function buildMiniSearchIndex(documents: ContentDocument[]): MiniSearchIndex {
  const miniSearch = new MiniSearch(OPTIONS);
  miniSearch.addAll(documents.map((document, position) => ({ position, document })));
  return { documents, miniSearch };
}

export function serializeMiniSearchIndex(index: MiniSearchIndex): string {
  return JSON.stringify({ documents: index.documents, index: index.miniSearch });
}

export function loadMiniSearchIndex(file: string): MiniSearchIndex {
  const { documents, index } = JSON.parse(file) as { documents: ContentDocument[]; index: AsPlainObject };
  return { documents, miniSearch: MiniSearch.loadJS(index, OPTIONS) };
}

export function matchMiniSearch(index: MiniSearchIndex, query: string, limit: number): QueryMatch {
  const japanese: string[] = [];
  const queries: Query[] = [];
  for (const run of textRuns(normalize(query))) {
    if (run.kind === 'japanese') japanese.push(run.text);
    queries.push(run.kind === 'japanese' && Array.from(run.text).length === 1 ? characterQuery(run.text) : run.text);
  }
  if (queries.length === 0) return { total: 0, hits: [], targets: { words: new Set(), japanese } };
  const { documents } = index;
  const results = index.miniSearch.search({ combineWith: 'AND', queries });
  results.sort(
    (a, b) => b.score - a.score || compare(documents[b.id]!.createdAt, documents[a.id]!.createdAt) || compare(documents[a.id]!.id, documents[b.id]!.id),
  );
  const hits = results.slice(0, limit);
  const words = new Set<string>();
  for (const hit of hits) for (const term of hit.terms) if (!isJapaneseTerm(term)) words.add(term);
  return { total: results.length, hits: hits.map((hit) => ({ document: hit.id as number, score: hit.score })), targets: { words, japanese } };
}

/**
 * One Japanese character finds every term holding it: itself, the bigrams it begins (`prefix`) and
 * those it ends (one edit away: `fuzzy: 1`). boostDocument drops the other terms one edit away
 * (other lone characters, short words). The weights make each such bigram count as the character
 * itself (MiniSearch weighs a prefix match w·len/(len + 0.3·extra), a fuzzy one w·len/(len + edits)).
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
