import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildSearchIndex, type ContentDocument } from './index-fields.ts';
import { suggestibleKeyword } from './suggestible.ts';

const page = (id: string, title: string, body: string): ContentDocument => ({
  id: `guides/${id}`,
  slug: `/guides/${id}`,
  title,
  description: '',
  tags: ['vco'],
  createdAt: '2026-01-01',
  body,
});

const suggestible = suggestibleKeyword(
  buildSearchIndex([
    page('a', 'モジュラーシンセ入門', 'VCO と VCF の基本。在庫のあるケース'),
    page('b', 'Wavefolder guide', 'folding a sine wave'),
  ]),
);

test('short searches made of words the site holds may be suggested', () => {
  for (const keyword of ['vco', 'シンセ', 'モジュラーシンセ', 'vco vcf', 'wavefolder guide', 'sine wave', '在庫'])
    assert.equal(suggestible(keyword), true, keyword);
});

test('a word the site does not hold, a link, an address, a masked detail, more than 3 words or 30 characters: never', () => {
  for (const keyword of [
    'vco ×10 【公式】在庫処分90%off→ https://evil.example/sale',
    'https://evil.example',
    'www.example.com',
    'vco @evil',
    '＊',
    'vco ＊',
    'asdfgh',
    'vco vcf sine wave',
    'wave'.repeat(8),
    '',
  ])
    assert.equal(suggestible(keyword), false, keyword);
});
