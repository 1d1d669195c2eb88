import type { ContentDocument } from './content.ts';
import type { SearchIndex } from './search-index.ts';

/**
 * The index as one file, so a start can load it instead of parsing the content again (see
 * site-index.ts). Layout: `TNPSRCH1`, the byte length of a JSON header, the header (fingerprint,
 * documents, terms), then the typed arrays back to back, each 4-byte aligned.
 */
const MAGIC = 'TNPSRCH1';

interface Header {
  fingerprint: string;
  documents: ContentDocument[];
  terms: string[];
  postings: number;
  words: number;
}

export function serializeSearchIndex(index: SearchIndex, fingerprint: string): Buffer {
  const header: Header = {
    fingerprint,
    documents: index.documents,
    terms: index.terms,
    postings: index.postingDocuments.length,
    words: index.wordIds.length,
  };
  const json = Buffer.from(JSON.stringify(header));
  const arraysAt = align(MAGIC.length + 4 + json.length);
  const arrays = [index.offsets, index.postingDocuments, index.postingScores, index.wordIds];
  const file = Buffer.alloc(arraysAt + arrays.reduce((sum, array) => sum + array.byteLength, 0));
  file.write(MAGIC, 0, 'latin1');
  file.writeUInt32LE(json.length, MAGIC.length);
  json.copy(file, MAGIC.length + 4);
  let at = arraysAt;
  for (const array of arrays) {
    file.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), at);
    at += array.byteLength;
  }
  return file;
}

/** The index in `file`, or undefined when the file is not one or was built from other content. */
export function deserializeSearchIndex(file: Buffer, fingerprint: string): SearchIndex | undefined {
  if (file.length < MAGIC.length + 4 || file.toString('latin1', 0, MAGIC.length) !== MAGIC) return undefined;
  const jsonLength = file.readUInt32LE(MAGIC.length);
  const header = JSON.parse(file.toString('utf8', MAGIC.length + 4, MAGIC.length + 4 + jsonLength)) as Header;
  if (header.fingerprint !== fingerprint) return undefined;
  let at = align(MAGIC.length + 4 + jsonLength);
  // Copied out of the file's buffer: typed arrays need their own alignment, and a copy is cheap.
  const take = <T>(Kind: new (buffer: ArrayBuffer) => T, count: number): T => {
    const bytes = count * 4;
    const array = new Kind(file.buffer.slice(file.byteOffset + at, file.byteOffset + at + bytes) as ArrayBuffer);
    at += bytes;
    return array;
  };
  const offsets = take(Uint32Array, header.terms.length + 1);
  const postingDocuments = take(Uint32Array, header.postings);
  const postingScores = take(Float32Array, header.postings);
  const wordIds = take(Uint32Array, header.words);
  const termIds = new Map(header.terms.map((term, id) => [term, id]));
  return { documents: header.documents, terms: header.terms, termIds, offsets, postingDocuments, postingScores, wordIds };
}

function align(offset: number): number {
  return Math.ceil(offset / 4) * 4;
}
