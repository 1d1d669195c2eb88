import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readContentSources } from './content-sources.ts';
import { parseContent } from './content.ts';
import { excerptBody, makeExcerpt } from './excerpt.ts';

// A body's cuts are kept once found (excerpt.ts): every excerpt cut from a kept body must be the
// one cut afresh, whatever was asked of the body before.

test('excerpts from a body whose cuts are kept are those cut afresh, for matches anywhere and every length', () => {
  const bodies = parseContent(readContentSources('content'))
    .map((page) => page.body)
    .filter((body) => body.length > 600)
    .slice(0, 6);
  let compared = 0;
  for (const body of bodies) {
    const kept = excerptBody(body);
    for (const round of [1, 2]) {
      // Every position of a stretch, so many excerpts start at one place with different limits.
      for (let at = 200; at < 400; at += round) {
        for (const length of [50, 57, 64, 71, 90, 200, 500]) {
          const matches = [{ start: at, end: at + 1 + (at % 4) }];
          assert.deepEqual(makeExcerpt(kept, matches, length), makeExcerpt(body, matches, length), `${at}/${length}`);
          compared++;
        }
      }
    }
    assert.ok(kept.cuts.size > 0);
  }
  assert.ok(compared > 5000, `${compared} excerpts`);
});
