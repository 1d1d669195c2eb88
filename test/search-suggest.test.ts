import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, startTestApp, type TestApp } from './helpers/app.ts';

// GET /api/search/suggest over real HTTP on both stores: completions of the last word from titles,
// tags and keywords shoppers searched with results in the last 30 days. A keyword is offered only
// when at least three different clients searched it with results, it is at most 3 words and 30
// characters, every word of it is in the site's index, and it holds no URL, `@` or `＊`: so one
// visitor cannot put words of their own in every shopper's suggestions. Shoppers are told apart by
// their address (here X-Forwarded-For through a trusted proxy, as the rate limit tells them apart).

interface Body {
  success: boolean;
  suggestions: { text: string; kind: 'title' | 'tag' | 'keyword' }[];
}

const DAY = 24 * 60 * 60 * 1000;
const POISON = 'vco ×10 【公式】在庫処分90%OFF→ https://evil.example/sale';

for (const dialect of DIALECTS) {
  describe(`search suggestions on ${dialect}`, () => {
    let app: TestApp;
    const totals = new Map<string, number>();
    const searchAs = async (client: string, q: string) => {
      const response = await app.request(`/api/search?q=${encodeURIComponent(q)}`, { headers: { 'x-forwarded-for': client } });
      totals.set(q, ((await response.json()) as { totalResults: number }).totalResults);
    };
    const shoppers = ['198.51.100.1', '198.51.100.2', '198.51.100.3'];
    before(async () => {
      app = await startTestApp({ dialect, env: { TRUST_PROXY: 'true' } });
      // Three shoppers search; パッチケーブル is searched most.
      for (const client of shoppers)
        for (const q of ['パッチケーブル', 'パッチケーブル', 'パッチング', 'パッチワーク刺繍', 'vco tuning', POISON])
          await searchAs(client, q);
      // One visitor alone, however often: never a suggestion.
      for (let i = 0; i < 20; i++) await searchAs('203.0.113.9', 'パッチ ケーブル');
      // Three shoppers 40 days ago: outside the window. And an advertisement with a link that found
      // pages (on a site whose pages hold its words), searched by three clients.
      await app.services.keywordLogStore.append([
        ...shoppers.map((client) => ({
          keyword: 'パッチ',
          timestamp: new Date(Date.now() - 40 * DAY).toISOString(),
          resultCount: 5,
          client,
        })),
        ...shoppers.map((client) => ({ keyword: POISON, timestamp: new Date().toISOString(), resultCount: 5, client })),
      ]);
      await app.services.keywordLog.flush();
    });
    after(() => app?.close());

    const suggest = async (q: string) => {
      const response = await app.request(`/api/search/suggest?q=${encodeURIComponent(q)}`);
      assert.equal(response.status, 200);
      return { response, body: (await response.json()) as Body };
    };
    const texts = (body: Body) => body.suggestions.map((s) => `${s.kind}:${s.text}`);

    test('completes the last word: keywords three shoppers searched with results first, most searched first; never one that found nothing, one searched by one visitor, or one from before the window', async () => {
      assert.ok(
        totals.get('パッチケーブル')! > 0 && totals.get('パッチング')! > 0 && totals.get('パッチ ケーブル')! > 0,
        'these find pages',
      );
      assert.equal(totals.get('パッチワーク刺繍'), 0, 'this finds nothing');
      const { response, body } = await suggest('パッチ');
      assert.equal(body.success, true);
      assert.equal(response.headers.get('cache-control'), 'public, max-age=60');
      assert.equal(response.headers.get('access-control-allow-origin'), '*');
      const seen = texts(body);
      assert.deepEqual(seen.slice(0, 2), ['keyword:パッチケーブル', 'keyword:パッチング']);
      assert.ok(seen.length <= 8 && seen.length > 2, seen.join(', '));
      for (const never of ['パッチワーク刺繍', 'パッチ ケーブル', 'パッチ']) assert.ok(!seen.some((s) => s === `keyword:${never}`), never);
      // The same text is offered once, even when it is also a title or a tag.
      assert.equal(new Set(body.suggestions.map((s) => s.text.toLowerCase())).size, body.suggestions.length);
    });

    test('a search carrying a link and an advertisement never becomes a suggestion, even when three clients make it', async () => {
      for (const q of ['https', '在庫', 'vco', 'evil', '【公式'])
        assert.ok(!texts((await suggest(q)).body).some((s) => s.includes('evil') || s.includes('在庫処分')), q);
    });

    test('titles and tags complete the word where it begins them or one of their words, normalised as search is', async () => {
      const { body } = await suggest('ｖｃ');
      const seen = texts(body);
      assert.ok(seen.includes('tag:vco'), seen.join(', '));
      assert.ok(seen.includes('keyword:vco tuning'), seen.join(', '));
      assert.ok(
        body.suggestions.some((s) => s.kind === 'title' && /VCO/i.test(s.text)),
        seen.join(', '),
      );
      // Those beginning with the word come before those where a later word begins with it.
      const firstInner = body.suggestions.findIndex((s) => !s.text.toLowerCase().startsWith('vc'));
      if (firstInner !== -1)
        assert.ok(
          body.suggestions.slice(firstInner).every((s) => !s.text.toLowerCase().startsWith('vc')),
          seen.join(', '),
        );
      // Hiragana is katakana; only the last word is completed.
      assert.deepEqual(texts((await suggest('モジュラー　ぱっちけ')).body), [
        'keyword:パッチケーブル',
        ...texts((await suggest('パッチケ')).body).slice(1),
      ]);
    });

    test('an empty query, or one nothing completes, gets no suggestions; any input is answered', async () => {
      for (const q of ['', '   ', 'zzzzqqqq'])
        assert.deepEqual((await suggest(q)).body, { success: true, suggestions: [] }, JSON.stringify(q));
      assert.deepEqual((await (await app.request('/api/search/suggest')).json()) as Body, { success: true, suggestions: [] });
      for (const q of ['x'.repeat(500), '<script>', '%', '\u0000', '𠮷']) assert.equal((await suggest(q)).body.success, true);
      const twice = (await (await app.request('/api/search/suggest?q=vc&q=パッチ')).json()) as Body;
      assert.deepEqual(twice, (await suggest('vc')).body, 'a name given twice counts once');
    });

    test('suggestions are not searches: nothing is logged', async () => {
      await app.services.keywordLog.flush();
      const count = async () =>
        (
          await app.services.database.db
            .selectFrom('keyword_logs')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n;
      const before = Number(await count());
      await suggest('パッチ');
      await suggest('シンセ');
      await app.services.keywordLog.flush();
      assert.equal(Number(await count()), before);
    });

    test('HEAD answers, other methods are refused', async () => {
      assert.equal((await app.request('/api/search/suggest?q=vc', { method: 'HEAD' })).status, 200);
      const post = await app.request('/api/search/suggest', { method: 'POST' });
      assert.equal(post.status, 405);
      assert.equal(post.headers.get('allow'), 'GET, HEAD, OPTIONS');
    });
  });
}
