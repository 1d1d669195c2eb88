import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { createLogger } from '../log.ts';
import { deserializeSearchIndex } from './index-file-format.ts';
import { searchSite } from './search.ts';
import { deserialize, serialize } from 'node:v8';
import { deserializeHeapIndex } from './index-heap-file.ts';
import { buildIndexFile, heapIndexFile, heapIndexPath, loadSiteIndex } from './prebuilt-index.ts';

const silent = createLogger('silent');

test('a prebuilt index answers exactly as the index it was written from', async () => {
  const { index, file } = await buildIndexFile('content');
  const dir = mkdtempSync(join(tmpdir(), 'tenpo-index-'));
  writeFileSync(join(dir, 'index.json'), file);
  const logs: string[] = [];
  const log = createLogger('info', { write: (line: string) => logs.push(line) });
  const { index: loaded } = await loadSiteIndex('content', join(dir, 'index.json'), log);
  // Rejecting the file and building again would answer the same: only the log tells them apart.
  assert.doesNotMatch(logs.join(''), /no prebuilt search index/, 'the prebuilt file was used');
  assert.notEqual(loaded, index);
  for (const query of ['シンセ', 'vco', 'wavefoldng', '音', 'Eurorackケース']) {
    assert.deepEqual(searchSite(loaded, query, 120), searchSite(index, query, 120), query);
  }
});

test('the heap form a start reads answers exactly as the file it was made of, and only for its content and V8', async () => {
  const built = await buildIndexFile('content');
  const dir = mkdtempSync(join(tmpdir(), 'tenpo-index-'));
  const path = join(dir, 'index.json');
  writeFileSync(path, built.file);
  const heap = heapIndexFile(built);
  writeFileSync(heapIndexPath(path), heap);
  const fromHeap = deserializeHeapIndex(heap, built.fingerprint)!;
  const { index: loaded, file } = await loadSiteIndex('content', path, silent);
  assert.deepEqual(loaded, fromHeap, 'the start read the heap form');
  assert.ok(Buffer.from(file).equals(built.file), 'and serves the file');
  const fromFile = deserializeSearchIndex(built.file, built.fingerprint)!;
  assert.deepEqual(fromHeap.miniSearch, fromFile.miniSearch, 'the same maps, in the same order');
  for (const query of ['シンセ', 'vco', 'wavefoldng', '音', 'Eurorackケース', 'フィルター']) {
    assert.deepEqual(searchSite(fromHeap, query, 120), searchSite(fromFile, query, 120), query);
  }

  assert.equal(deserializeHeapIndex(heap, 'another fingerprint'), undefined);
  const otherV8 = serialize({ ...(deserialize(heap) as object), v8: '1.0.0' });
  assert.equal(deserializeHeapIndex(otherV8, built.fingerprint), undefined);
  assert.equal(deserializeHeapIndex(new TextEncoder().encode('not an index'), built.fingerprint), undefined);
  // Read from the file instead: the same answers.
  writeFileSync(heapIndexPath(path), otherV8);
  const { index: fromJson } = await loadSiteIndex('content', path, silent);
  assert.deepEqual(searchSite(fromJson, 'シンセ', 200), searchSite(fromHeap, 'シンセ', 200));
});

test('an index built from other content, or no index file, is not used', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tenpo-index-'));
  cpSync('content', join(dir, 'content'), { recursive: true });
  const { file } = await buildIndexFile(join(dir, 'content'));
  writeFileSync(join(dir, 'index.json'), file);
  appendFileSync(join(dir, 'content', 'guides', 'patch-cable-guide.md'), '\n追記：ケーブルホルダーもおすすめです。\n');

  const logs: string[] = [];
  const log = createLogger('info', { write: (line: string) => logs.push(line) });
  const { index } = await loadSiteIndex(join(dir, 'content'), join(dir, 'index.json'), log);
  assert.equal(searchSite(index, 'ケーブルホルダー', 200).totalResults, 1, 'the edit is searchable');
  assert.match(logs.join(''), /no prebuilt search index for this content/);

  assert.equal(deserializeSearchIndex(file, 'another fingerprint'), undefined);
  assert.equal(deserializeSearchIndex(new TextEncoder().encode('not an index'), 'x'), undefined);
  const { index: fromFiles } = await loadSiteIndex(join(dir, 'content'), join(dir, 'missing.bin'), silent);
  assert.equal(fromFiles.documents.length, index.documents.length);
});

test('an index built with other synonyms is not used', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tenpo-index-'));
  cpSync('content', join(dir, 'content'), { recursive: true });
  writeFileSync(join(dir, 'index.json'), (await buildIndexFile(join(dir, 'content'))).file);
  appendFileSync(join(dir, 'content', 'synonyms.yaml'), '- [ホルダー, holder]\n');

  const logs: string[] = [];
  const log = createLogger('info', { write: (line: string) => logs.push(line) });
  const { index } = await loadSiteIndex(join(dir, 'content'), join(dir, 'index.json'), log);
  assert.match(logs.join(''), /no prebuilt search index for this content/);
  assert.deepEqual(index.synonyms.at(-1), ['ホルダー', 'holder']);
});
