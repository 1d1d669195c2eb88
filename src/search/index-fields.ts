import MiniSearch, { type Options } from 'minisearch';
import { tokenize } from '../text/tokenize.ts';
import type { SynonymGroups } from './synonyms.ts';

/**
 * The site's index: MiniSearch over four fields of every page, cut into terms by the tokenizer
 * queries are cut with (src/text/tokenize.ts: words, and Japanese bigrams). How a query matches
 * and ranks is query.ts. Content never changes while the service runs, so the index is built
 * once (at `npm run build`, see prebuilt-index.ts) and only read.
 */
export interface SearchIndex {
  documents: ContentDocument[];
  miniSearch: MiniSearch<IndexedDocument>;
  /** What a query word also finds (synonyms.ts). */
  synonyms: SynonymGroups;
}

/** One searchable page: `<CONTENT_DIR>/<contentType>/<fileSlug>.md`. */
export interface ContentDocument {
  /** `<contentType>/<fileSlug>` */
  id: string;
  /** `/<contentType>/<fileSlug>`, the page's URL path */
  slug: string;
  title: string;
  description: string;
  tags: string[];
  createdAt: string;
  /** The body as plain text (see markdown-text.ts). */
  body: string;
}

/** What MiniSearch indexes: a page and its position in `documents`, which is its id. */
export interface IndexedDocument {
  position: number;
  document: ContentDocument;
}

/** Seed: title highest, then description, then tags and the body ("excerpt") alike. */
export const FIELD_BOOSTS = { title: 4, description: 2, tags: 1, body: 1 } as const;
type Field = keyof typeof FIELD_BOOSTS;

/** How documents become terms: the same when an index is built and when one is loaded. */
export const INDEX_OPTIONS: Options<IndexedDocument> = {
  idField: 'position',
  fields: Object.keys(FIELD_BOOSTS),
  extractField: (indexed, field) => (field === 'position' ? indexed.position : fieldText(indexed.document, field as Field)),
  tokenize,
  // tokenize() normalises already (NFKC, lower case, katakana).
  processTerm: (term) => term,
  // Nothing is ever removed.
  autoVacuum: false,
};

function fieldText(document: ContentDocument, field: Field): string {
  return field === 'tags' ? document.tags.join(' ') : document[field];
}

export function buildSearchIndex(documents: ContentDocument[], synonyms: SynonymGroups = []): SearchIndex {
  const miniSearch = new MiniSearch(INDEX_OPTIONS);
  miniSearch.addAll(documents.map((document, position) => ({ position, document })));
  return { documents, miniSearch, synonyms };
}
