import { deserialize, serialize } from 'node:v8';
import MiniSearch from 'minisearch';
import { INDEX_OPTIONS, type ContentDocument, type SearchIndex } from './index-fields.ts';
import type { SynonymGroups } from './synonyms.ts';

/**
 * The index as the service's start reads it: the very maps MiniSearch holds, in V8's serialization
 * (node:v8), written beside the JSON file at `npm run build`. Reading the JSON file made a start
 * parse it and insert every term into MiniSearch's tree again (MiniSearch.loadJS), which was the
 * largest part of a start after loading the code; these maps are read as they are, about four times
 * faster. Browsers keep the JSON file (index-file-format.ts), which this says nothing about.
 * The format is V8's: a file written by another V8 (another Node.js) is not read, and the start
 * reads the JSON file instead.
 */
interface HeapFile {
  fingerprint: string;
  v8: string;
  documents: ContentDocument[];
  synonyms: SynonymGroups;
  miniSearch: MiniSearchState;
}

/** MiniSearch's own fields (as its loadJS sets them), kept in the file under their own names. */
const STATE_FIELDS = [
  '_documentCount',
  '_nextId',
  '_fieldIds',
  '_avgFieldLength',
  '_dirtCount',
  '_documentIds',
  '_idToShortId',
  '_fieldLength',
  '_storedFields',
] as const;

/** The fields, and the tree of terms apart from the class that holds it. */
type MiniSearchState = Pick<Internals, (typeof STATE_FIELDS)[number]> & { tree: Map<string, unknown> };

interface Internals {
  _documentCount: number;
  _nextId: number;
  _fieldIds: Record<string, number>;
  _avgFieldLength: number[];
  _dirtCount: number;
  _documentIds: Map<number, unknown>;
  _idToShortId: Map<unknown, number>;
  _fieldLength: Map<number, number[]>;
  _storedFields: Map<number, unknown>;
  _index: { _tree: Map<string, unknown>; constructor: new (tree: Map<string, unknown>) => unknown };
}

export function serializeHeapIndex(index: SearchIndex, fingerprint: string): Buffer {
  const m = index.miniSearch as unknown as Internals;
  const fields = Object.fromEntries(STATE_FIELDS.map((name) => [name, m[name]])) as Pick<Internals, (typeof STATE_FIELDS)[number]>;
  const file: HeapFile = {
    fingerprint,
    v8: process.versions.v8,
    documents: index.documents,
    synonyms: index.synonyms,
    miniSearch: { ...fields, tree: m._index._tree },
  };
  return serialize(file);
}

/** The index in `file`, or undefined when it was built from other content or code, or by another V8. */
export function deserializeHeapIndex(file: Uint8Array, fingerprint: string): SearchIndex | undefined {
  let read: HeapFile;
  try {
    read = deserialize(file) as HeapFile;
  } catch {
    return undefined;
  }
  if (read.fingerprint !== fingerprint || read.v8 !== process.versions.v8) return undefined;
  const state = read.miniSearch;
  // An empty index of this version's making, then its fields as the file holds them.
  const miniSearch = MiniSearch.loadJS(
    {
      documentCount: state._documentCount,
      nextId: state._nextId,
      fieldIds: state._fieldIds,
      averageFieldLength: state._avgFieldLength,
      dirtCount: state._dirtCount,
      documentIds: {},
      fieldLength: {},
      storedFields: {},
      index: [],
      serializationVersion: 2,
    },
    INDEX_OPTIONS,
  );
  const m = miniSearch as unknown as Internals;
  for (const name of STATE_FIELDS) Object.assign(m, { [name]: state[name] });
  m._index = new m._index.constructor(state.tree) as Internals['_index'];
  return { documents: read.documents, miniSearch, synonyms: read.synonyms };
}
