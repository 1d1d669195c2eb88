import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ContentDocument } from '../src/search/content.ts';
import { deserializeSearchIndex, serializeSearchIndex } from '../src/search/index-file.ts';
import { matchQuery, type QueryMatch } from '../src/search/query.ts';
import { buildSearchIndex } from '../src/search/search-index.ts';
import { normalizeQuery } from '../src/search/search.ts';
import { buildMiniSearchIndex, loadMiniSearchIndex, matchMiniSearch, serializeMiniSearchIndex } from './lib/minisearch-engine.ts';
import { makeQueries } from './lib/search-corpus.ts';

// The search engine in service (the custom index of src/search) against MiniSearch
// (bench/lib/minisearch-engine.ts), on the same documents with the same queries: the engine alone,
// in this process, no HTTP, no excerpts. Build time (from parsed documents), serialized size,
// load time and heap after loading (in a fresh process, as a start loads it), per-query p50/p99 (each engine's median over alternating rounds,
// every round after 50 other queries), whether both find the same documents, recall@3 over the
// relevance set and the must-hold cases of issue 3.

const ROUNDS = 5;
const RESULTS = 50;

export interface Engine<Index> {
  name: string;
  build(documents: ContentDocument[]): Index;
  serialize(index: Index): Buffer;
  load(file: Buffer): Index;
  match(index: Index, query: string, limit: number): QueryMatch;
  documents(index: Index): ContentDocument[];
}

const custom: Engine<ReturnType<typeof buildSearchIndex>> = {
  name: 'custom index',
  build: buildSearchIndex,
  serialize: (index) => serializeSearchIndex(index, 'bench'),
  load: (file) => deserializeSearchIndex(file, 'bench')!,
  match: matchQuery,
  documents: (index) => index.documents,
};

const miniSearch: Engine<ReturnType<typeof buildMiniSearchIndex>> = {
  name: 'MiniSearch 7',
  build: buildMiniSearchIndex,
  serialize: (index) => Buffer.from(serializeMiniSearchIndex(index)),
  load: (file) => loadMiniSearchIndex(file.toString('utf8')),
  match: matchMiniSearch,
  documents: (index) => index.documents,
};

/** By the name bench/lib/load-search-index.ts is given. */
export const ENGINES = { custom, minisearch: miniSearch } as const;
export type EngineName = keyof typeof ENGINES;

export interface EngineRow extends Record<string, string | number> {
  content: string;
  engine: string;
}

/** An engine with its index of the documents loaded, measured on the way. */
interface Loaded {
  name: string;
  buildMs: number;
  loadMs: number;
  fileBytes: number;
  heapBytes: number;
  /** The ids of the matching documents, best first, and the total. */
  search(query: string, limit: number): { total: number; ids: string[] };
  /** The same engine over other documents. */
  searchOther(documents: ContentDocument[]): (query: string) => string[];
}

function load<Index>(name: EngineName, engine: Engine<Index>, documents: ContentDocument[], dir: string): Loaded {
  const { file, buildMs } = buildFile(engine, documents);
  const path = join(dir, `${name}.index`);
  writeFileSync(path, file);
  const { loadMs, heapBytes } = JSON.parse(
    execFileSync(process.execPath, ['--expose-gc', 'bench/lib/load-search-index.ts', name, path], { encoding: 'utf8' }),
  ) as { loadMs: number; heapBytes: number };
  const index = engine.load(file);
  const searchIn = (within: Index, query: string, limit: number) => {
    const match = engine.match(within, query, limit);
    return { total: match.total, ids: match.hits.map((hit) => engine.documents(within)[hit.document]!.id) };
  };
  return {
    name: engine.name,
    buildMs,
    loadMs,
    fileBytes: file.length,
    heapBytes,
    search: (query, limit) => searchIn(index, query, limit),
    searchOther: (others) => {
      const other = engine.build(others);
      return (query) => searchIn(other, query, RESULTS).ids;
    },
  };
}

/** Builds the index and serializes it; the built index is garbage once this returns. */
function buildFile<Index>(engine: Engine<Index>, documents: ContentDocument[]): { file: Buffer; buildMs: number } {
  const started = performance.now();
  const built = engine.build(documents);
  const buildMs = performance.now() - started;
  return { file: engine.serialize(built), buildMs };
}

/** One row per engine for these documents; `withRelevance` (the sample) adds the relevance set and the must-hold cases. */
export function compareEngines(label: string, documents: ContentDocument[], sample: ContentDocument[], withRelevance: boolean): EngineRow[] {
  const queries = makeQueries(sample, 200).map(normalizeQuery);
  const warmUp = makeQueries(sample, 60, 99).map(normalizeQuery).filter((q) => !queries.includes(q)).slice(0, 50);
  const dir = mkdtempSync(join(tmpdir(), 'tenpo-bench-engines-'));
  let engines: Loaded[];
  try {
    engines = [load('custom', custom, documents, dir), load('minisearch', miniSearch, documents, dir)];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const times = engines.map(() => ({ p50: [] as number[], p99: [] as number[] }));

  for (let round = 0; round < ROUNDS; round++) {
    for (const e of round % 2 === 0 ? [0, 1] : [1, 0]) {
      const engine = engines[e]!;
      for (const query of warmUp) engine.search(query, RESULTS);
      const each = queries.map((query) => {
        const started = performance.now();
        engine.search(query, RESULTS);
        return performance.now() - started;
      });
      times[e]!.p50.push(percentile(each, 0.5));
      times[e]!.p99.push(percentile(each, 0.99));
    }
  }

  const everything = (engine: Loaded, query: string) => {
    const { total, ids } = engine.search(query, documents.length);
    return `${total}:${ids.sort().join()}`;
  };
  return engines.map((engine, e) => {
    const same = queries.filter((query) => everything(engine, query) === everything(engines[0]!, query)).length;
    const row: EngineRow = {
      content: label,
      engine: engine.name,
      'build ms': Math.round(engine.buildMs),
      'file MB': engine.fileBytes / 1e6,
      'load ms': Math.round(engine.loadMs),
      'heap MB': engine.heapBytes / 1e6,
      'p50 ms': median(times[e]!.p50),
      'p99 ms': median(times[e]!.p99),
      'same matches': `${same}/${queries.length}`,
    };
    if (withRelevance) {
      const ids = (query: string) => engine.search(normalizeQuery(query), RESULTS).ids;
      row['recall@3'] = recallAt3(ids).toFixed(3);
      const failed = mustHold(ids, engine.searchOther, documents);
      row['must-hold'] = failed.length === 0 ? 'all hold' : `failed: ${failed.join('; ')}`;
    }
    return row;
  });
}

/** test/fixtures/search-relevance.json, scored as test/search-relevance.test.ts scores it. */
function recallAt3(ids: (query: string) => string[]): number {
  const { queries } = JSON.parse(readFileSync('test/fixtures/search-relevance.json', 'utf8')) as { queries: { q: string; expected: string[] }[] };
  let found = 0;
  let expected = 0;
  for (const c of queries) {
    const top = ids(c.q).slice(0, 3);
    found += c.expected.filter((id) => top.includes(id)).length;
    expected += c.expected.length;
  }
  return found / expected;
}

/** Issue 3's must-hold cases, on the sample and, for the last one, on two pages made for it. */
function mustHold(ids: (query: string) => string[], searchOther: Loaded['searchOther'], sample: ContentDocument[]): string[] {
  const failed: string[] = [];
  const check = (name: string, ok: boolean) => ok || failed.push(name);
  const compounds = ['guides/first-eurorack-case', 'guides/budget-modular-setup', 'articles/customer-faq-voices', 'articles/hajimete-no-tsumami'];
  for (const q of ['シンセ', 'しんせ', 'ｼﾝｾ']) check(`${q} finds モジュラーシンセ and ｼﾝｾｻｲｻﾞｰ`, compounds.every((id) => ids(q).includes(id)));
  check('ＶＣＯ finds vco', ids('ＶＣＯ').includes('articles/review-fennelwire-twin-reed-vco'));
  check('サイバー does not find サイドバー', ids('サイバー').length === 0 && ids('サイドバー').includes('articles/site-renewal-sidebar'));
  const page = (id: string, title: string, description: string): ContentDocument => ({ id, slug: `/${id}`, title, description, tags: [], createdAt: '2025-01-01', body: 'エコーの話。' });
  const small = searchOther([...sample.filter((d) => !`${d.title}${d.description}${d.body}`.includes('ディレイ')).slice(0, 5), page('a/description', 'Effects', 'テープ風ディレイの質感'), page('a/title', 'ディレイの基本', '')]);
  check('a title match outranks a description-only match', small('ディレイ')[0] === 'a/title');
  return failed;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
}

function median(values: number[]): number {
  return Math.round(percentile(values, 0.5) * 100) / 100;
}

