import assert from 'node:assert/strict';
import { test } from 'node:test';
import type MiniSearch from 'minisearch';
import { contentDocument } from '../../test/helpers/content-document.ts';
import { readContentSources } from './content-sources.ts';
import { parseContent } from './content.ts';
import { useFastLookups } from './term-lookups.ts';
import { buildSearchIndex } from './index-fields.ts';

// The fast lookups must give exactly what MiniSearch's tree gives (terms, data, distances and
// order), or scores would move: checked against a second copy of the index that keeps the tree's
// own. A character's fuzzy lookup leaves out the other lone characters, which the query drops
// (term-lookups.ts).

const dropped = (key: string, distance: number) => (entry: string) =>
  key.length === 1 && distance === 1 && entry.split(':')[0]!.length === 1 && !entry.startsWith(`${key}:`);

type Terms = MiniSearch['_index'];
const termsOf = (miniSearch: MiniSearch) => (miniSearch as unknown as { _index: Terms })._index;
const listed = (found: ReturnType<Terms['fuzzyGet']>) => [...found].map(([term, [, distance]]) => `${term}:${distance}`);

function lookups(documents: ReturnType<typeof parseContent>, keys: (terms: string[]) => [string, number][]) {
  const walked = termsOf(buildSearchIndex(documents).miniSearch);
  const fastIndex = buildSearchIndex(documents).miniSearch;
  useFastLookups(fastIndex);
  const fast = termsOf(fastIndex);
  const all = [...walked.keys()];
  const cases = keys(all);
  for (const [key, distance] of cases) {
    const expected = listed(walked.fuzzyGet(key, distance)).filter((entry) => !dropped(key, distance)(entry));
    assert.deepEqual(listed(fast.fuzzyGet(key, distance)), expected, `${key} within ${distance}`);
  }
  return cases.length;
}

test('over the sample content, every lookup query.ts makes answers as the walk does', () => {
  const count = lookups(parseContent(readContentSources('content')), (terms) => {
    const units = [...new Set(terms.flatMap((term) => term.split('')))].map((unit): [string, number] => [unit, 1]);
    const words = terms
      .filter((term) => /^[a-z0-9]{5,}$/.test(term))
      .flatMap((term): [string, number][] => {
        const distance = Math.floor(term.length * 0.2);
        // As typed, and with typos: a letter deleted and another changed, one inserted, one
        // deleted, one changed, two swapped (two edits, which one-edit lookups must not find).
        return [
          [term, distance],
          [`${term.slice(0, 2)}${term.slice(3, -1)}q`, distance],
          [`${term.slice(0, 3)}e${term.slice(3)}`, distance],
          [`${term.slice(0, 1)}${term.slice(2)}`, distance],
          [`${term.slice(0, -1)}a`, distance],
          [`${term.slice(1, 2)}${term.slice(0, 1)}${term.slice(2)}`, distance],
        ];
      });
    return [...units, ...words, ['ないもの', 1], ['zzzzz', 1], ['zzzzzzzzzz', 2]];
  });
  assert.ok(count > 1000, `${count} lookups`);
});

test('characters beyond the BMP, Japanese keys and distances as long as the key take the walk, alike', () => {
  const documents = [
    contentDocument('a/astral', { title: '𠮷野家の𠮷𠮷', body: '𝐀𝐁𝐂𝐃𝐄 letters 𝐀bcde and abcde, a ab abc シ シン ンシ' }),
    contentDocument('a/plain', { title: 'Delay', body: 'ディレイとエコー abcdf' }),
  ];
  lookups(documents, () => [
    ['𠮷', 1],
    ['𠮷𠮷', 1],
    ['\ud842', 1],
    ['𝐀bcde', 1],
    ['abcd𝐄', 1],
    ['abcde', 1],
    ['abc', 3],
    ['ab', 2],
    ['シ', 1],
    ['シ', 2],
    ['シン', 1],
    ['ディレ', 1],
  ]);
});

test('exact and prefix lookups answer as the tree does: every term, every prefix of one, and keys it lacks', () => {
  for (const documents of [
    parseContent(readContentSources('content')),
    [contentDocument('a/astral', { title: '𠮷野家の𠮷𠮷', body: '𝐀𝐁𝐂𝐃𝐄 letters 𝐀bcde and abcde, a ab abc シ シン ンシ' })],
    [contentDocument('a/one', { title: 'filter' })],
  ]) {
    const walked = termsOf(buildSearchIndex(documents).miniSearch);
    const fastIndex = buildSearchIndex(documents).miniSearch;
    useFastLookups(fastIndex);
    const fast = termsOf(fastIndex);
    const terms = [...walked.keys()];
    const keys = new Set(['', 'zzz', 'ないもの', '\ud842', 'filters', 'fx', 'f']);
    for (const term of terms) for (let end = 1; end <= term.length; end++) keys.add(term.slice(0, end));
    for (const term of terms.slice(0, 200)) keys.add(`${term}q`);
    for (const key of keys) {
      assert.deepEqual(fast.get(key), walked.get(key), `get ${key}`);
      assert.deepEqual([...fast.atPrefix(key)], [...walked.atPrefix(key)], `atPrefix ${key}`);
    }
    assert.ok(keys.size > terms.length);
  }
});
