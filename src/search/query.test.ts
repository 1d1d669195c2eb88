import assert from 'node:assert/strict';
import { test } from 'node:test';
import { matchQuery } from './query.ts';
import { buildSearchIndex } from './index-fields.ts';
import { contentDocument } from '../../test/helpers/content-document.ts';

const doc = contentDocument;

const index = buildSearchIndex([
  doc('a/modular', { title: 'モジュラーシンセ入門', body: 'ケースと電源の選び方。' }),
  doc('a/faq', { title: 'よくある質問', body: '鍵盤ｼﾝｾｻｲｻﾞｰとつなげますか？' }),
  doc('a/vco', { title: 'Analog VCO review', body: 'A warm oscillator with a sequencer input.' }),
  doc('a/vca', { title: 'Quad VCA', body: 'Four channels of amplification.' }),
  doc('a/sidebar', { title: 'サイドバーから絞り込み', body: 'サイトを新しくしました。' }),
  doc('a/case', { title: 'Eurorackケースの選び方', description: 'ディレイの話はしません', body: '104HPのケース。' }),
  doc('a/delay-description', { title: 'Effects', description: 'テープ風ディレイの質感', body: 'エコーの話。' }),
  doc('a/delay-title', { title: 'ディレイの基本', body: 'エコーの話。' }),
]);

const ids = (query: string) => matchQuery(index, query, 50).hits.map((hit) => index.documents[hit.document]!.id);

test('a part of a Japanese compound finds it, in any width or kana', () => {
  for (const query of ['シンセ', 'しんせ', 'ｼﾝｾ', 'シンセ']) {
    assert.deepEqual(ids(query).sort(), ['a/faq', 'a/modular'], query);
  }
  assert.deepEqual(ids('しんせさいざー'), ['a/faq']);
});

test('every bigram of a Japanese word must match', () => {
  assert.deepEqual(ids('サイバー'), []);
  assert.deepEqual(ids('サイドバー'), ['a/sidebar']);
});

test('full-width Latin finds its ASCII form, case-insensitively', () => {
  assert.deepEqual(ids('ＶＣＯ'), ['a/vco']);
  assert.deepEqual(ids('Vco'), ['a/vco']);
});

test('short words are not fuzzy: vco never finds vca', () => {
  assert.deepEqual(ids('vca'), ['a/vca']);
});

test('words match as prefixes from two characters, and with a typo from five', () => {
  assert.deepEqual(ids('osc'), ['a/vco']);
  assert.deepEqual(ids('oscilator'), ['a/vco']);
  assert.deepEqual(ids('sequncer'), ['a/vco']);
  assert.deepEqual(ids('o'), [], 'one letter matches only the word itself');
  assert.deepEqual(ids('a'), ['a/vco'], '"A warm oscillator"');
});

test('one Japanese character finds it wherever it stands in a run', () => {
  assert.deepEqual(ids('質'), ['a/faq', 'a/delay-description']);
  assert.deepEqual(ids('絞'), ['a/sidebar']);
});

test('every word must match, across scripts', () => {
  assert.deepEqual(ids('Eurorackケース'), ['a/case']);
  assert.deepEqual(ids('eurorack ケース'), ['a/case']);
  assert.deepEqual(ids('eurorack サイドバー'), []);
});

test('a title match outranks a description-only match', () => {
  const [first, ...rest] = ids('ディレイ');
  assert.equal(first, 'a/delay-title');
  assert.deepEqual(rest.sort(), ['a/case', 'a/delay-description']);
});

test('nothing to match finds nothing', () => {
  assert.deepEqual(ids('!?'), []);
  assert.equal(matchQuery(index, 'zzzz', 10).total, 0);
});

test('the total counts every match; hits stop at the limit', () => {
  const match = matchQuery(index, 'の', 2);
  assert.equal(match.hits.length, 2);
  assert.ok(match.total > 2);
});
