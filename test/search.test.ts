import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, startTestApp, type TestApp } from './helpers/app.ts';
import { startPostgres } from './helpers/postgres.ts';

// GET /api/search over real HTTP against the sample content: Japanese matching, excerpts and marks,
// headers, and the keyword log it feeds.

interface Result {
  id: string;
  title: string;
  excerpt: string;
  highlighted_title: string;
  highlighted_excerpt: string;
  score: number;
}
interface Body {
  results: Result[];
  query: string;
  totalResults: number;
}

const codePoints = (text: string) => Array.from(text).length;

for (const dialect of DIALECTS) {
  describe(`search on ${dialect}`, () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp({ dialect });
    });
    after(() => app.close());

    async function search(query: string, init?: RequestInit) {
      const response = await app.request(`/api/search${query}`, init);
      return { response, body: (await response.json()) as Body };
    }
    const ids = async (q: string) => (await search(`?q=${encodeURIComponent(q)}`)).body.results.map((r) => r.id);
    const logged = async () => {
      await app.services.keywordLog.flush();
      return app.services.database.db.selectFrom('keyword_logs').selectAll().orderBy('timestamp').execute();
    };

    test('answers with results by score, the normalised query and the total, cacheable by anyone', async () => {
      const { response, body } = await search(`?q=${encodeURIComponent('シンセ')}`);
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('cache-control'), 'public, max-age=300');
      assert.equal(response.headers.get('access-control-allow-origin'), '*');
      assert.match(response.headers.get('content-type')!, /^application\/json/);
      assert.deepEqual(Object.keys(body), ['results', 'query', 'totalResults']);
      assert.equal(body.query, 'シンセ');
      assert.equal(body.totalResults, body.results.length);
      assert.ok(body.results.length >= 4);
      const scores = body.results.map((r) => r.score);
      assert.deepEqual(
        scores,
        [...scores].sort((a, b) => b - a),
      );
      const first = body.results[0] as unknown as Record<string, unknown>;
      assert.deepEqual(Object.keys(first), [
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
      assert.equal(first.slug, `/${first.id}`);
    });

    test('Japanese: a part of a compound, in any width or kana, finds it', async () => {
      for (const q of ['シンセ', 'しんせ', 'ｼﾝｾ']) {
        const found = await ids(q);
        for (const id of [
          'guides/first-eurorack-case',
          'guides/budget-modular-setup',
          'articles/customer-faq-voices',
          'articles/hajimete-no-tsumami',
        ]) {
          assert.ok(found.includes(id), `${q} finds ${id}`);
        }
      }
      assert.ok((await ids('ＶＣＯ')).includes('articles/review-fennelwire-twin-reed-vco'), 'ＶＣＯ finds vco');
      assert.ok((await ids('vco')).includes('articles/vco-tuning-warmup'), 'vco finds ＶＣＯ');
      assert.deepEqual(await ids('サイバー'), [], 'サイバー does not find サイドバー');
      assert.deepEqual(await ids('サイドバー'), ['articles/site-renewal-sidebar']);
    });

    test('marks sit on the original text; a title match outranks the rest', async () => {
      const { body } = await search(`?q=${encodeURIComponent('しんせさいざー')}`);
      const faq = body.results.find((r) => r.id === 'articles/customer-faq-voices')!;
      assert.match(faq.highlighted_excerpt, /<mark>ｼﾝｾｻｲｻﾞｰ<\/mark>/);
      const { body: guides } = await search(`?q=${encodeURIComponent('モジュラーシンセ')}`);
      assert.deepEqual(
        guides.results
          .slice(0, 2)
          .map((r) => r.id)
          .sort(),
        ['guides/budget-modular-setup', 'guides/first-eurorack-case'],
      );
      assert.match(guides.results[0]!.highlighted_title, /<mark>モジュラーシンセ<\/mark>/);
    });

    test('the query is NFKC-normalised, trimmed, collapsed and cut to 200 characters', async () => {
      assert.equal((await search(`?q=${encodeURIComponent('  ＶＣＯ　 ｼﾝｾ\t ')}`)).body.query, 'VCO シンセ');
      const long = (await search(`?q=${encodeURIComponent('あ'.repeat(300))}`)).body;
      assert.equal(long.query, 'あ'.repeat(200));
      assert.equal(long.totalResults, 0);
      assert.equal((await search('?q=VCO&q=zzz')).body.query, 'VCO', 'a repeated q counts once');
    });

    test('excerpt_length is clamped into 50..500, and 200 when absent or not a number', async () => {
      const longest = async (query: string) => {
        const { body } = await search(`?q=${encodeURIComponent('モジュール')}${query}`);
        return Math.max(...body.results.map((r) => codePoints(r.excerpt.replaceAll('…', ''))));
      };
      assert.equal(await longest(''), 200);
      assert.equal(await longest('&excerpt_length=abc'), 200);
      assert.equal(await longest('&excerpt_length='), 200);
      assert.equal(await longest('&excerpt_length=10'), 50);
      assert.equal(await longest('&excerpt_length=-5'), 50);
      assert.equal(await longest('&excerpt_length=120'), 120);
      assert.equal(await longest('&excerpt_length=120.7'), 120);
      assert.ok((await longest('&excerpt_length=99999')) <= 500);
      const { body } = await search(`?q=${encodeURIComponent('モジュール')}&excerpt_length=50`);
      for (const result of body.results) {
        assert.ok(codePoints(result.excerpt.replace(/^…/, '').replace(/…$/, '')) <= 50, result.excerpt);
        assert.equal(
          result.highlighted_excerpt
            .replace(/<\/?mark>/g, '')
            .replaceAll('&amp;', '&')
            .replaceAll('&lt;', '<')
            .replaceAll('&gt;', '>')
            .replaceAll('&quot;', '"')
            .replaceAll('&#39;', "'"),
          result.excerpt,
        );
      }
    });

    test('an empty query answers nothing and logs nothing', async () => {
      const before = (await logged()).length;
      for (const query of ['', '?q=', '?q=%20%E3%80%80%20', '?excerpt_length=80']) {
        const { response, body } = await search(query);
        assert.equal(response.status, 200);
        assert.deepEqual(body, { results: [], query: '', totalResults: 0 });
        assert.equal(response.headers.get('cache-control'), 'public, max-age=300');
      }
      assert.equal((await logged()).length, before);
    });

    test('every search is logged with its normalised keyword and result count, zero results included', async () => {
      const before = (await logged()).length;
      const started = new Date().toISOString();
      const hit = (await search(`?q=${encodeURIComponent(' ＶＣＯ ')}`)).body;
      await search('?q=zzzqqqxx');
      await search('?q=zzzqqqxx'); // answered from the cache, logged all the same
      assert.equal((await app.request('/api/search?q=VCO', { method: 'HEAD' })).status, 200); // a HEAD is not a search
      const rows = (await logged()).slice(before);
      assert.deepEqual(
        rows.map((r) => [r.keyword, r.result_count]),
        [
          ['VCO', hit.totalResults],
          ['zzzqqqxx', 0],
          ['zzzqqqxx', 0],
        ],
      );
      for (const row of rows) assert.ok(row.timestamp >= started && row.timestamp.endsWith('Z'));
    });

    test('OPTIONS is the preflight; other methods get 405 with Allow', async () => {
      const preflight = await app.request('/api/search', { method: 'OPTIONS', headers: { origin: 'https://elsewhere.example' } });
      assert.equal(preflight.status, 204);
      assert.equal(preflight.headers.get('access-control-allow-origin'), '*');
      for (const method of ['POST', 'PUT', 'DELETE']) {
        const response = await app.request('/api/search?q=vco', { method });
        assert.equal(response.status, 405);
        assert.equal(response.headers.get('allow'), 'GET, HEAD, OPTIONS');
        assert.deepEqual(await response.json(), { success: false, error: 'Method not allowed', code: 'method_not_allowed' });
      }
    });
  });
}

describe('content that carries markup', () => {
  let app: TestApp;
  before(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tenpo-content-'));
    mkdirSync(join(dir, 'articles'));
    writeFileSync(
      join(dir, 'articles', 'xss.md'),
      [
        '---',
        'title: "<script>alert(\'シンセ\')</script> & <b>bold</b>"',
        'description: "<img src=x onerror=alert(1)>"',
        'tags: ["test"]',
        'createdAt: "2025-01-01"',
        '---',
        '',
        'シンセ &lt;script&gt;alert(1)&lt;/script&gt; and `<iframe src="x">` "quoted" \'single\'',
      ].join('\n'),
    );
    app = await startTestApp({ env: { CONTENT_DIR: dir } });
  });
  after(() => app.close());

  test('titles and bodies are escaped, only <mark> is markup', async () => {
    const response = await app.request(`/api/search?q=${encodeURIComponent('シンセ')}`);
    const [result] = ((await response.json()) as Body).results as (Result & { description: string })[];
    assert.equal(result!.title, "<script>alert('シンセ')</script> & <b>bold</b>");
    assert.equal(result!.description, '<img src=x onerror=alert(1)>');
    assert.equal(
      result!.highlighted_title,
      '&lt;script&gt;alert(&#39;<mark>シンセ</mark>&#39;)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;',
    );
    assert.equal(
      result!.highlighted_excerpt,
      '<mark>シンセ</mark> &lt;script&gt;alert(1)&lt;/script&gt; and &lt;iframe src=&quot;x&quot;&gt; &quot;quoted&quot; &#39;single&#39;',
    );
    for (const html of [result!.highlighted_title, result!.highlighted_excerpt]) {
      assert.deepEqual(html.match(/<[^>]*>/g)?.filter((tag) => tag !== '<mark>' && tag !== '</mark>') ?? [], []);
    }
  });
});

test('bad front matter stops the start, naming the file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tenpo-content-'));
  mkdirSync(join(dir, 'guides'));
  writeFileSync(
    join(dir, 'guides', 'broken.md'),
    '---\ntitle: "ok"\ndescription: "d"\ntags: "not-a-list"\ncreatedAt: "2025-01-01"\n---\nbody',
  );
  await assert.rejects(
    startTestApp({ env: { CONTENT_DIR: dir } }),
    /content .*guides\/broken\.md: front matter field "tags" must be a list of strings/,
  );
});

test('with the store down, search still answers 200; the log skips and counts, then resumes', async () => {
  const cluster = await startPostgres();
  const app = await startTestApp({ dialect: 'postgres', env: { DATABASE_URL: cluster.url } });
  try {
    const writer = app.services.keywordLog;
    assert.equal((await app.request('/api/search?q=vco')).status, 200);
    await writer.flush();
    assert.deepEqual(writer.counts(), { queued: 1, written: 1, skipped: 0 });

    await cluster.pause();
    const started = performance.now();
    const response = await app.request(`/api/search?q=${encodeURIComponent('ディレイ')}`);
    assert.equal(response.status, 200);
    assert.ok(((await response.json()) as Body).totalResults > 0);
    assert.ok(performance.now() - started < 1000, 'the answer does not wait for the store');
    await writer.flush();
    assert.deepEqual(writer.counts(), { queued: 2, written: 1, skipped: 1 });
    assert.ok(app.logs.some((line) => line.msg === 'keyword log store failed; entries are skipped until it answers'));

    await cluster.resume();
    await app.request('/api/search?q=vca');
    await writer.flush();
    assert.deepEqual(writer.counts(), { queued: 3, written: 2, skipped: 1 });
    // (The throwaway cluster runs without fsync, so what it held before the crash may be gone.)
    const keywords = (await app.services.database.db.selectFrom('keyword_logs').select('keyword').execute()).map((row) => row.keyword);
    assert.ok(keywords.includes('vca') && !keywords.includes('ディレイ'), keywords.join());
  } finally {
    await app.close();
    cluster.stop();
  }
});
