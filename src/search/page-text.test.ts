import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ContentDocument } from './index-fields.ts';
import { MAX_KEPT_UNITS, pageText } from './page-text.ts';

// Pages' texts are kept for MAX_KEPT_UNITS characters at most, those hit least recently forgotten
// first, and a forgotten page's text is worked out again, the same.

const page = (n: number, length: number): ContentDocument => ({
  id: `articles/page-${n}`,
  slug: `/articles/page-${n}`,
  title: `ページ ${n}`,
  description: 'ＡＢＣ',
  tags: [],
  createdAt: '2026-01-01',
  body: `第${n}章 `.padEnd(length, 'モジュラーシンセ。'),
});

test('page texts are kept up to MAX_KEPT_UNITS characters, the least recently hit forgotten first', () => {
  // Four pages hold a little more than the limit together.
  const pages = [0, 1, 2, 3].map((n) => page(n, MAX_KEPT_UNITS / 4));
  const texts = pages.slice(0, 3).map((p) => pageText(p));
  assert.equal(pageText(pages[0]!), texts[0], 'kept');
  pageText(pages[3]!); // past the limit: page 1, hit least recently, is forgotten
  assert.equal(pageText(pages[0]!), texts[0], 'page 0, hit again before, is still kept');
  assert.equal(pageText(pages[2]!), texts[2], 'page 2 is still kept');
  const again = pageText(pages[1]!);
  assert.notEqual(again, texts[1], 'page 1 was forgotten and worked out again');
  assert.deepEqual(again, texts[1]);
});
