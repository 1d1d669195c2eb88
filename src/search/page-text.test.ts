import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ContentDocument } from './index-fields.ts';
import { MAX_KEPT_UNITS, pageText } from './page-text.ts';

// Pages' texts are kept for MAX_KEPT_UNITS characters at most: a page hit again and again stays,
// one not hit while the limit's worth of other pages are is forgotten, and a forgotten page's text
// is worked out again, the same.

const page = (n: number, length: number): ContentDocument => ({
  id: `articles/page-${n}`,
  slug: `/articles/page-${n}`,
  title: `ページ ${n}`,
  description: 'ＡＢＣ',
  tags: [],
  createdAt: '2026-01-01',
  body: `第${n}章 `.padEnd(length, 'モジュラーシンセ。'),
});

test('page texts are kept up to MAX_KEPT_UNITS characters: a page hit often stays, one not hit is forgotten', () => {
  // Each page is an eighth of the limit: twelve of them are more than it holds.
  const pages = Array.from({ length: 13 }, (_, n) => page(n, MAX_KEPT_UNITS / 8));
  const often = pageText(pages[0]!);
  const once = pageText(pages[1]!);
  for (const other of pages.slice(2)) {
    pageText(other);
    assert.equal(pageText(pages[0]!), often, 'the page hit between every other one is kept');
  }
  const again = pageText(pages[1]!);
  assert.notEqual(again, once, 'the page not hit since was forgotten and worked out again');
  assert.deepEqual(again, once);
});
