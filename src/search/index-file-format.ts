import MiniSearch, { type AsPlainObject } from 'minisearch';
import type { ContentDocument } from './content.ts';
import { INDEX_OPTIONS, type SearchIndex } from './index-fields.ts';

/**
 * The index as one file, so a start can load it instead of parsing the content again (see
 * prebuilt-index.ts): a first line `TNPSRCH2 <fingerprint>`, then JSON holding the documents and
 * MiniSearch's own serialization of the index (toJSON, read back by MiniSearch.loadJS).
 */
const MAGIC = 'TNPSRCH2';

interface Body {
  documents: ContentDocument[];
  index: AsPlainObject;
}

export function serializeSearchIndex(index: SearchIndex, fingerprint: string): Buffer {
  return Buffer.from(`${MAGIC} ${fingerprint}\n${JSON.stringify({ documents: index.documents, index: index.miniSearch })}`);
}

/** The index in `file`, or undefined when the file is not one or was built from other content. */
export function deserializeSearchIndex(file: Buffer, fingerprint: string): SearchIndex | undefined {
  const header = Buffer.from(`${MAGIC} ${fingerprint}\n`);
  if (!file.subarray(0, header.length).equals(header)) return undefined;
  const { documents, index } = JSON.parse(file.toString('utf8', header.length)) as Body;
  return { documents, miniSearch: MiniSearch.loadJS(index, INDEX_OPTIONS) };
}
