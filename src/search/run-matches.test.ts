import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Query, SearchOptions } from 'minisearch';
import { normalize } from '../text/normalize.ts';
import { bigrams, isJapaneseTerm, textRuns, tokenize } from '../text/tokenize.ts';
import { readContentSources } from './content-sources.ts';
import { parseContent } from './content.ts';
import { buildSearchIndex, FIELD_BOOSTS } from './index-fields.ts';
import { matchAll, MAX_KEPT_MATCHES, type Compound, type Word } from './run-matches.ts';

// Keeping each word's matches must not move a score: matchAll against MiniSearch's own search of
// the whole query, on a copy of the index that keeps nothing, for queries asked in two orders (so
// a word is combined both fresh and kept, first and later in a query), Japanese words found whole
// or as the AND of their bigrams kept one by one.

// A bigram repeated in a word counts once, as the service's options have it (query.ts): a word then
// matches as the AND of its bigrams does, whichever of the two was kept under its key.
const OPTIONS: SearchOptions = {
  combineWith: 'AND',
  boost: FIELD_BOOSTS,
  tokenize: (text) => [...new Set(tokenize(text))],
  prefix: (term) => term.length >= 2,
  fuzzy: 0.2,
};

test('the matches of every word, kept or not, combine exactly as MiniSearch combines them', () => {
  const documents = parseContent(readContentSources('content'));
  const kept = buildSearchIndex(documents).miniSearch;
  const plain = buildSearchIndex(documents).miniSearch;
  // Words of the titles and descriptions, alone, in pairs, cut short (prefixes), with a typo, and
  // single characters of Japanese ones.
  const runs = documents.flatMap((d) => textRuns(normalize(`${d.title} ${d.description}`)).map((run) => run.text));
  const queries = runs.flatMap((run, i) => [
    run,
    `${run} ${runs[(i * 7) % runs.length]}`,
    run.slice(0, 3),
    run.length > 5 ? run.slice(0, 2) + run.slice(3) : run[0]!,
  ]);
  let matched = 0;
  for (const [n, query] of [...queries, ...queries.toReversed()].entries()) {
    const words = textRuns(normalize(query)).map((run) => run.text);
    // A Japanese word as one query, or (every other query) as the AND of its bigrams kept one by one.
    const asParts = (word: string): Word | Compound => {
      const parts = [...new Set(bigrams(word))];
      if (n % 2 === 0 || !isJapaneseTerm(word) || parts.length < 2) return { key: word, query: (): Query => word };
      return { key: word, parts: parts.map((part) => ({ key: part, query: (): Query => part })) };
    };
    const found = matchAll(kept, words.map(asParts), OPTIONS);
    const expected = plain.search({ queries: words }, OPTIONS);
    const byId = (a: { id: number }, b: { id: number }) => a.id - b.id;
    // The terms matched in any order: each is marked wherever it occurs (highlight.ts).
    assert.deepEqual(
      found.sort(byId).map(({ id, score, terms }) => ({ id, score, terms: [...terms].sort() })),
      expected.sort(byId).map(({ id, score, terms }) => ({ id, score, terms: [...terms].sort() })),
      query,
    );
    matched += found.length;
  }
  assert.ok(queries.length > 1000 && matched > 10_000, `${queries.length} queries, ${matched} matches compared`);
});

// Exact look-ups only: quick enough for 100,000 searches. Each test gets its own index, so nothing is kept
// from another's searches.
const EXACT: SearchOptions = { combineWith: 'AND', tokenize };

/** Searches for `key` on its own, counting in `asked` each time MiniSearch is asked for it. */
function searcher(asked: { count: number }) {
  const miniSearch = buildSearchIndex(parseContent(readContentSources('content'))).miniSearch;
  return (key: string, counted = false) => matchAll(miniSearch, [{ key, query: () => (counted && asked.count++, key) }], EXACT);
}

test('a word is kept from its second search; words that match nothing count one match each, so MAX_KEPT_MATCHES of them push out the oldest', () => {
  const asked = { count: 0 };
  const search = searcher(asked);
  for (let n = 0; n < 3; n++) search('qzxv0', true);
  assert.equal(asked.count, 2, 'found again on its second search, then kept');
  for (let n = 1; n <= MAX_KEPT_MATCHES; n++) {
    search(`qzxv${n}`);
    search(`qzxv${n}`);
  }
  search('qzxv0', true);
  assert.equal(asked.count, 3, 'forgotten after as many other words matching nothing were kept, and found again');
});

test('words searched once are not kept, however many', () => {
  const asked = { count: 0 };
  const search = searcher(asked);
  search('qzxw0', true);
  search('qzxw0', true);
  assert.equal(asked.count, 2, 'kept from its second search');
  // Words searched once each, as many as the kept words could hold: none is kept, so none pushes it out.
  for (let n = 1; n <= MAX_KEPT_MATCHES; n++) search(`qzxw${n}`);
  search('qzxw0', true);
  assert.equal(asked.count, 2, 'still kept');
});
