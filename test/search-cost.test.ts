import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from './helpers/app.ts';

// Search cost is bounded: a query's words beyond the first 10 are ignored, and the answer's `query` still shows the
// whole normalised text. (That no query costs more than 20 ms is proven by `npm run bench search`.)

interface Body {
  results: { id: string; highlighted_excerpt: string }[];
  query: string;
  totalResults: number;
}

const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet'];
const KANJI = ['音', '色', '波', '形', '声', '鍵', '盤', '線', '板', '箱'];

describe('a query of more than 10 words', () => {
  let app: TestApp;
  before(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tenpo-content-'));
    mkdirSync(join(dir, 'articles'));
    const page = (slug: string, body: string) =>
      writeFileSync(
        join(dir, 'articles', `${slug}.md`),
        `---\ntitle: "${slug}"\ndescription: "d"\ntags: []\ncreatedAt: "2025-01-01"\n---\n\n${body}\n`,
      );
    page('words', `${WORDS.join(' ')} kilo`);
    page('kanji', `${KANJI.join('、')}。`);
    app = await startTestApp({ env: { CONTENT_DIR: dir } });
  });
  after(() => app.close());

  const search = async (q: string): Promise<Body> => (await (await app.request(`/api/search?q=${encodeURIComponent(q)}`)).json()) as Body;
  const ids = async (q: string) => (await search(q)).results.map((r) => r.id);

  test('is matched on its first 10 words; the query shows them all', async () => {
    const eleven = `${WORDS.join(' ')} zzzz`;
    const body = await search(`  ${eleven.toUpperCase()}  `);
    assert.equal(body.query, eleven.toUpperCase());
    assert.deepEqual(
      body.results.map((r) => r.id),
      ['articles/words'],
    );
    assert.deepEqual(await ids(`${WORDS.join(' ')} zzzz qqqq yyyy`), ['articles/words']);
  });

  test('a word within the first 10 still has to match', async () => {
    assert.deepEqual(await ids(`${WORDS.slice(0, 9).join(' ')} zzzz ${WORDS[9]}`), []);
    assert.deepEqual(await ids(WORDS.join(' ')), ['articles/words']);
  });

  test('an ignored word is not marked', async () => {
    const [result] = (await search(`${WORDS.join(' ')} kilo`)).results;
    assert.match(result!.highlighted_excerpt, /<mark>juliet<\/mark> kilo/);
  });

  test('words are counted as the search cuts them: by script and punctuation too, not only spaces', async () => {
    assert.deepEqual(await ids(`${WORDS.join('・')}・zzzz`), ['articles/words']);
    assert.deepEqual(await ids(`${KANJI.join(' ')} 山 川`), ['articles/kanji']);
    assert.deepEqual(await ids(`${KANJI.slice(0, 9).join(' ')} 山 ${KANJI[9]}`), []);
  });
});
