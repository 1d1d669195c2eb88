import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { createRequire } from 'node:module';
import type { Logger } from '../log.ts';
import { readContentSources, readSynonymsSource, type ContentSource } from './content-sources.ts';
import { deserializeHeapIndex, serializeHeapIndex } from './index-heap-file.ts';
import { deserializeSearchIndex, isIndexFile, serializeSearchIndex } from './index-file-format.ts';
import { buildSearchIndex, type SearchIndex } from './index-fields.ts';

/**
 * The site's index, as the service starts with it. Parsing the markdown and front matter of the
 * sample alone took the cold start past 500 ms (bench/catalog.ts), so `npm install`/`npm run build`
 * writes the index to a file (scripts/build-search-index.ts) and a start loads that file when it was
 * built from this very content by this very code (from its heap form beside it, heapIndexPath, when
 * that was written by this Node.js); otherwise (content edited since, a different CONTENT_DIR, no
 * build) the start parses and builds, slower but never stale.
 */
export async function loadSiteIndex(contentDir: string, indexPath: string, log: Logger): Promise<IndexWithFile> {
  const sources = readSources(contentDir);
  const fingerprint = indexFingerprint(sources);
  const file = readIndexFile(indexPath);
  if (file && isIndexFile(file, fingerprint)) {
    const heap = readIndexFile(heapIndexPath(indexPath));
    const prebuilt = (heap && deserializeHeapIndex(heap, fingerprint)) || deserializeSearchIndex(file, fingerprint);
    if (prebuilt) return { index: prebuilt, file, fingerprint };
  }
  log.info({ contentDir, documents: sources.pages.length }, 'no prebuilt search index for this content; building it');
  return buildWithFile(sources, fingerprint);
}

/** What an index is built from: the pages, and the synonyms when there are any. */
interface Sources {
  pages: ContentSource[];
  synonyms?: { path: string; text: string };
}

function readSources(contentDir: string): Sources {
  return { pages: readContentSources(contentDir), synonyms: readSynonymsSource(contentDir) };
}

/** The index and its file (index-file-format.ts), which GET /api/search-index sends as it is. */
export interface IndexWithFile {
  index: SearchIndex;
  file: Uint8Array;
  fingerprint: string;
}

/** Builds the index from the content, with the file loadSiteIndex looks for. */
export async function buildIndexFile(contentDir: string): Promise<IndexWithFile> {
  const sources = readSources(contentDir);
  return buildWithFile(sources, indexFingerprint(sources));
}

/** Where the index's heap form (index-heap-file.ts) is written beside its file. */
export function heapIndexPath(indexPath: string): string {
  return `${indexPath}.v8`;
}

/**
 * The heap form of a built index: of the index as a start reads it from its file, since MiniSearch
 * orders its tree by the order terms were inserted in, and scores are summed in the tree's order.
 */
export function heapIndexFile({ file, fingerprint }: IndexWithFile): Buffer {
  return serializeHeapIndex(deserializeSearchIndex(file, fingerprint)!, fingerprint);
}

async function buildWithFile(sources: Sources, fingerprint: string): Promise<IndexWithFile> {
  const index = await buildFromSources(sources);
  return { index, file: serializeSearchIndex(index, fingerprint), fingerprint };
}

async function buildFromSources({ pages, synonyms }: Sources): Promise<SearchIndex> {
  // Loaded only here: the markdown and YAML parsers cost the fast path ~25 ms of imports.
  const [{ parseContent }, { parseSynonyms }] = await Promise.all([import('./content.ts'), import('./synonyms-file.ts')]);
  return buildSearchIndex(parseContent(pages), synonyms ? parseSynonyms(synonyms.text, synonyms.path) : []);
}

function readIndexFile(path: string): Uint8Array | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/** The folders whose code decides what the index holds: the normaliser, tokenizer, parsers, index. */
const INDEX_CODE = [import.meta.dirname, join(import.meta.dirname, '..', 'text')];

/** The files of INDEX_CODE, in the order they are hashed. */
export function indexCodeFiles(): string[] {
  return INDEX_CODE.flatMap((dir) =>
    readdirSync(dir)
      .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
      .sort()
      .map((name) => join(dir, name)),
  );
}

/** The hash of the index's code, as the service's bundle holds it (see indexCodeHash). */
declare const __TENPO_INDEX_CODE_HASH__: string | undefined;

/**
 * The hash of the code that decides what the index holds. The service's bundle has it written in at
 * its build (scripts/service-bundle.ts), since a release holds the bundle and not these sources;
 * from the sources it is read from the files.
 */
export function indexCodeHash(): string {
  if (typeof __TENPO_INDEX_CODE_HASH__ === 'string') return __TENPO_INDEX_CODE_HASH__;
  const hash = createHash('sha256');
  for (const file of indexCodeFiles())
    hash
      .update(`${basename(file)}\0`)
      .update(readFileSync(file))
      .update('\0');
  return hash.digest('base64url');
}

/**
 * MiniSearch, which writes and reads the index: another version may not read this one's. Its entry
 * as `require` finds it (the bundle is a CommonJS script, which has no `import.meta.resolve`), which
 * changes with its version as the one `import` finds does.
 */
const MINISEARCH_CODE = createRequire(import.meta.filename).resolve('minisearch');

/** Identifies the content and the code an index was built from: any change to either misses. */
function indexFingerprint({ pages, synonyms }: Sources): string {
  const hash = createHash('sha256').update(indexCodeHash()).update('\0');
  hash.update(readFileSync(MINISEARCH_CODE)).update('\0');
  for (const source of pages) hash.update(`${source.contentType}/${source.fileSlug}\0${source.text}\0`);
  hash.update(`synonyms\0${synonyms?.text ?? ''}\0`);
  return hash.digest('base64url');
}
