import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildCatalog } from './catalog.ts';
import { ProductSchema } from './product.ts';
import { queryProducts, queryWords } from './query.ts';

const product = (slug: string, fields: Record<string, unknown>) =>
  ProductSchema.parse({ slug, name: slug, brand: 'b', description: '', imgSrc: '/x.webp', tags: [], spec: {}, ...fields });

const catalog = buildCatalog([
  product('analog-vco', { name: 'Analog VCO', brand: 'kumo', tags: ['vco'] }),
  product('wave', { name: 'ウェーブフォルダー', subtitle: 'あたたかい倍音', tags: ['effect'] }),
  product('case', { name: 'Eurorackケース', description: 'サイドバー付き', tags: ['case', 'accessory'] }),
]);

const slugs = (words: string, tags: string[] = []) =>
  queryProducts(catalog, { words: queryWords(words), tags, page: 1, perPage: 50 }).products.map((p) => p.slug);

test('a word must occur inside one field, not across two', () => {
  assert.deepEqual(slugs('vco'), ['analog-vco']);
  // "vco" ends the name and "kumo" is the brand: together they span two fields.
  assert.deepEqual(slugs('vcokumo'), []);
  assert.deepEqual(slugs('vco kumo'), ['analog-vco']);
});

test('matching ignores width, case and kana form', () => {
  assert.deepEqual(slugs('ＥＵＲＯＲＡＣＫ'), ['case']);
  assert.deepEqual(slugs('うぇーぶ'), ['wave']);
  assert.deepEqual(slugs('ｳｪｰﾌﾞ'), ['wave']);
  assert.deepEqual(slugs('アタタカイ'), ['wave']);
  assert.deepEqual(slugs('サイバー'), []);
});

test('tags are OR and combine with words by AND', () => {
  assert.deepEqual(slugs('', ['vco', 'case']), ['analog-vco', 'case']);
  assert.deepEqual(slugs('ケース', ['vco', 'case']), ['case']);
  assert.deepEqual(slugs('ケース', ['vco']), []);
});

test('paging reports totals independent of the page', () => {
  const page = queryProducts(catalog, { words: [], tags: [], page: 2, perPage: 2 });
  assert.deepEqual([page.products.map((p) => p.slug), page.total, page.totalPages], [['case'], 3, 2]);
  assert.deepEqual(page.availableTags, ['accessory', 'case', 'effect', 'vco']);
});
