import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from './helpers/app.ts';

// Synonyms from <CONTENT_DIR>/synonyms.yaml over real HTTP: a query word in a group also
// finds the pages with the group's other words, ranked below the pages with the word itself; a
// query without synonyms answers exactly as without the file.

interface Body {
  results: { id: string; score: number; highlighted_title: string; highlighted_excerpt: string }[];
  query: string;
  totalResults: number;
}

const PAGES: Record<string, { title: string; body: string; createdAt?: string }> = {
  // The synonym where it weighs most (the title, boosted 4×), the word itself only in a body.
  'guides/vcf-title': { title: 'VCF の選び方', body: 'レゾナンスを上げると VCF が自己発振します。VCF は音色の要です。' },
  'guides/filter-body': { title: '音作りの基本', body: 'A low-pass filter removes the highs. パッチの話。' },
  'guides/katakana': { title: 'ローパスの話', body: 'フィルターのカットオフを動かします。' },
  'guides/unrelated': { title: 'ケーブルの話', body: 'パッチケーブルの長さを選びます。' },
  'guides/hiragana-group': { title: 'エンベロープ入門', body: 'ADSR の四つの段階。' },
};
const SYNONYMS = `# test groups
- [filter, フィルター, VCF]
- [えんべろーぷ, ADSR]
`;

function writeContent(dir: string, synonyms: string | undefined): string {
  const content = join(dir, 'content');
  mkdirSync(join(content, 'guides'), { recursive: true });
  for (const [id, page] of Object.entries(PAGES)) {
    const frontMatter = [
      `title: ${JSON.stringify(page.title)}`,
      'description: ""',
      'tags: []',
      `createdAt: "${page.createdAt ?? '2025-01-01'}"`,
    ];
    writeFileSync(join(content, `${id}.md`), `---\n${frontMatter.join('\n')}\n---\n\n${page.body}\n`);
  }
  if (synonyms !== undefined) writeFileSync(join(content, 'synonyms.yaml'), synonyms);
  return content;
}

describe('synonyms', () => {
  let dir: string;
  let withSynonyms: TestApp;
  let without: TestApp;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tenpo-synonyms-'));
    const env = (name: string, synonyms: string | undefined) => ({
      CONTENT_DIR: writeContent(join(dir, name), synonyms),
      SEARCH_INDEX_PATH: join(dir, name, 'no-prebuilt-index.json'),
    });
    [withSynonyms, without] = await Promise.all([
      startTestApp({ env: env('with', SYNONYMS) }),
      startTestApp({ env: env('without', undefined) }),
    ]);
  });
  after(async () => {
    await Promise.all([withSynonyms?.close(), without?.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  const search = async (app: TestApp, q: string) => (await (await app.request(`/api/search?q=${encodeURIComponent(q)}`)).json()) as Body;
  const ids = (body: Body) => body.results.map((result) => result.id);
  /** The first page, then the rest in any order (among themselves they rank by their own scores). */
  const firstThen = (body: Body) => [body.results[0]?.id, ids(body).slice(1).sort()];

  test('a word also finds its synonyms, ranked below every page with the word itself', async () => {
    const body = await search(withSynonyms, 'filter');
    assert.deepEqual(firstThen(body), ['guides/filter-body', ['guides/katakana', 'guides/vcf-title']]);
    assert.equal(body.totalResults, 3);
    const scores = body.results.map((result) => result.score);
    assert.deepEqual(
      scores,
      [...scores].sort((a, b) => b - a),
      'scores agree with the order',
    );
    assert.deepEqual(ids(await search(without, 'filter')), ['guides/filter-body'], 'without the file, the word alone');
    // The synonyms found are marked where they stand.
    const byId = new Map(body.results.map((result) => [result.id, result]));
    assert.match(byId.get('guides/vcf-title')!.highlighted_title, /<mark>VCF<\/mark>/);
    assert.match(byId.get('guides/katakana')!.highlighted_excerpt, /<mark>フィルター<\/mark>/);
  });

  test('every word of a group finds the others; the typed word ranks first whatever the fields', async () => {
    assert.deepEqual(firstThen(await search(withSynonyms, 'VCF')), ['guides/vcf-title', ['guides/filter-body', 'guides/katakana']]);
    assert.deepEqual(firstThen(await search(withSynonyms, 'フィルター')), ['guides/katakana', ['guides/filter-body', 'guides/vcf-title']]);
    assert.deepEqual(
      firstThen(await search(withSynonyms, 'ふぃるたー')),
      ['guides/katakana', ['guides/filter-body', 'guides/vcf-title']],
      'hiragana is katakana',
    );
    assert.deepEqual(
      firstThen(await search(withSynonyms, 'ＶＣＦ')),
      ['guides/vcf-title', ['guides/filter-body', 'guides/katakana']],
      'full width is half width',
    );
    // The file's hiragana entry matches the katakana a page writes.
    assert.deepEqual(ids(await search(withSynonyms, 'adsr')), ['guides/hiragana-group']);
    assert.equal((await search(without, 'エンベロープ')).totalResults, 1);
    assert.equal((await search(withSynonyms, 'エンベロープ')).totalResults, 1);
  });

  test('each word of a query may be itself or a synonym; all must match', async () => {
    assert.deepEqual(ids(await search(withSynonyms, 'VCF 自己発振')), ['guides/vcf-title']);
    assert.deepEqual(ids(await search(withSynonyms, 'filter カットオフ')), ['guides/katakana'], 'through the synonym only');
    assert.equal((await search(withSynonyms, 'filter ケーブル')).totalResults, 0);
  });

  test('a word is a synonym only whole: a prefix or a typo of it finds what it finds without the file', async () => {
    for (const q of ['filt', 'filtr', 'vc', 'パッチ', 'ケーブル', 'レゾナンス', 'ローパス']) {
      assert.deepEqual(await search(withSynonyms, q), await search(without, q), q);
    }
  });

  test('a bad synonyms file stops the start, naming the file and the group', async () => {
    for (const [text, message] of [
      ['- [filter]\n', /synonyms .*synonyms\.yaml: group 1 must be a list of at least two words/],
      ['- [filter, VCF]\n- [low pass, ローパス]\n', /group 2: "low pass" must be one word/],
      ['filter: VCF\n', /must be a list of groups/],
      ['- [filter, [VCF]\n', /not valid YAML/],
    ] as const) {
      const name = `bad-${Math.random().toString(36).slice(2)}`;
      await assert.rejects(
        startTestApp({ env: { CONTENT_DIR: writeContent(join(dir, name), text), SEARCH_INDEX_PATH: join(dir, name, 'none.json') } }),
        message,
      );
    }
  });
});
