import assert from 'node:assert/strict';
import { test } from 'node:test';
import { makeExcerpt } from './excerpt.ts';
import { buildSearchIndex } from './index-fields.ts';
import { normalizeQuery, searchSite } from './search.ts';
import { contentDocument } from '../../test/helpers/content-document.ts';

const doc = contentDocument;

const codePoints = (text: string) => Array.from(text).length;

test('the query is NFKC-normalised, trimmed, collapsed and cut to 200 code points', () => {
  assert.equal(normalizeQuery('  ＶＣＯ　 ｼﾝｾ\n\tケース  '), 'VCO シンセ ケース');
  assert.equal(normalizeQuery('\u3000 '), '');
  assert.equal(normalizeQuery('𠮷'.repeat(250)), '𠮷'.repeat(200));
  assert.equal(normalizeQuery(`${'a'.repeat(199)} b`), 'a'.repeat(199));
});

test('marks wrap the matched spans of the original text, in any width', () => {
  const index = buildSearchIndex([doc('a/faq', { title: 'ｼﾝｾｻｲｻﾞｰ と ＶＣＯ', body: '手持ちの鍵盤ｼﾝｾｻｲｻﾞｰとモジュール。' })]);
  const [result] = searchSite(index, 'しんせ', 200).results;
  assert.equal(result!.highlighted_title, '<mark>ｼﾝｾ</mark>ｻｲｻﾞｰ と ＶＣＯ');
  assert.equal(result!.highlighted_excerpt, '手持ちの鍵盤<mark>ｼﾝｾ</mark>ｻｲｻﾞｰとモジュール。');
  assert.equal(result!.excerpt, '手持ちの鍵盤ｼﾝｾｻｲｻﾞｰとモジュール。');
  assert.equal(searchSite(index, 'vco', 200).results[0]!.highlighted_title, 'ｼﾝｾｻｲｻﾞｰ と <mark>ＶＣＯ</mark>');
});

test('a prefix or a near miss marks the whole word it matched', () => {
  const index = buildSearchIndex([doc('g/wave', { title: 'Wavefolding explained', body: 'A wavefolder folds.' })]);
  assert.equal(searchSite(index, 'wavefold', 200).results[0]!.highlighted_title, '<mark>Wavefolding</mark> explained');
  assert.equal(searchSite(index, 'wavefoldng', 200).results[0]!.highlighted_title, '<mark>Wavefolding</mark> explained');
  assert.equal(searchSite(index, 'wavefolder', 200).results[0]!.highlighted_excerpt, 'A <mark>wavefolder</mark> folds.');
});

test('markup in titles and bodies is escaped, never interpreted', () => {
  const index = buildSearchIndex([
    doc('a/x', {
      title: '<script>alert("シンセ")</script>',
      description: '<b>説明</b>',
      body: 'シンセ <img src=x onerror=alert(1)> & "quotes" \'too\'',
    }),
  ]);
  const [result] = searchSite(index, 'シンセ', 200).results;
  assert.equal(result!.title, '<script>alert("シンセ")</script>');
  assert.equal(result!.description, '<b>説明</b>');
  assert.equal(result!.highlighted_title, '&lt;script&gt;alert(&quot;<mark>シンセ</mark>&quot;)&lt;/script&gt;');
  assert.equal(
    result!.highlighted_excerpt,
    '<mark>シンセ</mark> &lt;img src=x onerror=alert(1)&gt; &amp; &quot;quotes&quot; &#39;too&#39;',
  );
});

test('a Japanese word found only through scattered bigrams shows those bigrams', () => {
  const index = buildSearchIndex([doc('a/x', { title: 'シンク', body: 'ンセとシンが離れている。' })]);
  assert.equal(searchSite(index, 'シンセ', 200).results[0]!.highlighted_excerpt, '<mark>ンセ</mark>と<mark>シン</mark>が離れている。');
});

const LONG_BODY =
  'モジュラーシンセを始めるとき、最初に悩むのはケースです。横幅はHPという単位で表し、電源の容量も確かめます。' +
  'オシレーターとフィルターとエンベロープを入れると、それだけで四十HPほど使います。' +
  'ディレイやリバーブを足すと、モジュラーだけで曲が完結するようになります。' +
  '中古品は電源ケーブルの有無と動作確認を必ずチェックしてください。自作キットははんだ付けに慣れてからにしましょう。';

test('the excerpt is centred on the first match, at most excerpt_length code points plus …', () => {
  for (const length of [50, 60, 80]) {
    const excerpt = makeExcerpt(LONG_BODY, [{ start: LONG_BODY.indexOf('ディレイ'), end: LONG_BODY.indexOf('ディレイ') + 4 }], length);
    assert.ok(excerpt.text.startsWith('…') && excerpt.text.endsWith('…'), excerpt.text);
    assert.ok(codePoints(excerpt.text) <= length + 2, `${codePoints(excerpt.text)} > ${length} + 2`);
    assert.ok(codePoints(excerpt.text) >= length * 0.6, 'cuts move to word boundaries, not far');
    const at = excerpt.text.indexOf('ディレイ');
    assert.ok(Math.abs(at - (codePoints(excerpt.text) - at - 4)) <= length * 0.5, `centred: ${excerpt.text}`);
    assert.ok(excerpt.html.includes('<mark>ディレイ</mark>'));
  }
});

test('with no match in the body the excerpt is its start; a short body is whole', () => {
  const start = makeExcerpt(LONG_BODY, [], 50);
  assert.ok(LONG_BODY.startsWith(start.text.slice(0, -1)) && start.text.endsWith('…'));
  assert.equal(makeExcerpt('短い本文。', [], 50).text, '短い本文。');
  assert.equal(makeExcerpt('短い本文。', [], 50).html, '短い本文。');
});

test('code points are counted, not UTF-16 units', () => {
  const body = '𠮷'.repeat(120);
  const excerpt = makeExcerpt(body, [{ start: 100, end: 102 }], 50);
  assert.equal(codePoints(excerpt.text.replaceAll('…', '')), 50);
  assert.ok(!excerpt.text.includes('\ufffd'));
  assert.equal(makeExcerpt('𠮷'.repeat(50), [], 50).text, '𠮷'.repeat(50));
});

test('results hold their fields, in the documented order', () => {
  const index = buildSearchIndex([doc('guides/x', { title: 'VCO', description: 'd', tags: ['vco'], createdAt: '2025-04-12', body: 'b' })]);
  const response = searchSite(index, 'vco', 200);
  assert.deepEqual(Object.keys(response), ['results', 'query', 'totalResults']);
  assert.deepEqual(Object.keys(response.results[0]!), [
    'id',
    'slug',
    'title',
    'description',
    'tags',
    'createdAt',
    'excerpt',
    'highlighted_title',
    'highlighted_excerpt',
    'score',
  ]);
  assert.deepEqual(searchSite(index, '', 200), { results: [], query: '', totalResults: 0 });
});
