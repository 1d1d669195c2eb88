import MiniSearch, { type AsPlainObject } from 'minisearch';
import { INDEX_OPTIONS, type ContentDocument, type SearchIndex } from './index-fields.ts';

/**
 * The index as one JSON file: what a start loads instead of parsing the content again
 * (prebuilt-index.ts), and what GET /api/search-index sends to browsers (site-search.ts). It holds
 * the documents and MiniSearch's own serialization of the index (toJSON, read back by loadJS).
 * Its first two members are the format and the fingerprint of the content and code it was built
 * from, so a start tells from the first bytes, without parsing, whether the file is usable.
 * No Node.js API here: browsers read it too.
 */
export const INDEX_FILE_FORMAT = 'tenpo-search-index/4';

interface IndexFile {
  format: typeof INDEX_FILE_FORMAT;
  fingerprint: string;
  documents: ContentDocument[];
  synonyms: string[][];
  index: AsPlainObject;
}

export function serializeSearchIndex(index: SearchIndex, fingerprint: string): Uint8Array {
  const file = { format: INDEX_FILE_FORMAT, fingerprint, documents: index.documents, synonyms: index.synonyms, index: index.miniSearch };
  return new TextEncoder().encode(JSON.stringify(file));
}

/**
 * The index in `file`, or undefined when the file is not one, or (when a fingerprint is given)
 * was built from other content or code.
 */
export function deserializeSearchIndex(file: Uint8Array, fingerprint?: string): SearchIndex | undefined {
  if (!isIndexFile(file, fingerprint)) return undefined;
  const { documents, synonyms, index } = JSON.parse(new TextDecoder().decode(file)) as IndexFile;
  return { documents, miniSearch: MiniSearch.loadJS(index, INDEX_OPTIONS), synonyms };
}

/** Whether `file` is an index file (built with `fingerprint`, when one is given), told from its first bytes. */
export function isIndexFile(file: Uint8Array, fingerprint?: string): boolean {
  const expected = new TextEncoder().encode(fingerprint === undefined ? head() : `${head()}"fingerprint":${JSON.stringify(fingerprint)},`);
  return file.length >= expected.length && expected.every((byte, i) => file[i] === byte);
}

function head(): string {
  return `{"format":${JSON.stringify(INDEX_FILE_FORMAT)},`;
}
