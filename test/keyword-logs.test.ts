import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createKeywordLogStore } from '../src/keyword-log/store.ts';
import { openDatabase } from '../src/db/database.ts';
import { createLogger } from '../src/log.ts';
import { DIALECTS, startTestApp, type TestApp } from './helpers/app.ts';
import { freshTarget } from './helpers/dialects.ts';
import { waitUntil } from './helpers/wait.ts';

// GET /api/keyword-logs over real HTTP on both dialects: the window, its limits and errors, masked
// contact details, and the retention that keeps the log bounded.

const DAY = 86_400_000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

for (const dialect of DIALECTS) {
  describe(`keyword logs on ${dialect}`, () => {
    let app: TestApp;
    // Newest first, as the endpoint answers.
    const recent = [
      { keyword: 'シンセ', timestamp: ago(60_000), resultCount: 8 },
      { keyword: 'vco', timestamp: ago(3 * 3_600_000), resultCount: 14 },
      { keyword: 'zzz', timestamp: ago(2 * DAY), resultCount: 0 },
      { keyword: 'ケース', timestamp: ago(29 * DAY), resultCount: 5 },
    ];
    const old = [
      { keyword: 'old', timestamp: ago(31 * DAY), resultCount: 1 },
      { keyword: 'older', timestamp: '2025-01-01T00:00:00.000Z', resultCount: 2 },
    ];
    before(async () => {
      // Some entries are almost two years old: the longest retention keeps them.
      app = await startTestApp({ dialect, env: { KEYWORD_LOG_RETENTION_DAYS: '3650' } });
      await app.services.keywordLogStore.append([...old, ...recent].map((entry) => ({ ...entry, client: '192.0.2.1' })));
    });
    after(() => app.close());

    async function logs(query = '') {
      const response = await app.request(`/api/keyword-logs${query}`);
      return { response, body: (await response.json()) as { logs: typeof recent; total: number } & Record<string, unknown> };
    }

    test('by default: the last 30 days, newest first, with the total, never cached, readable by anyone', async () => {
      const { response, body } = await logs();
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('cache-control'), 'no-cache');
      assert.equal(response.headers.get('access-control-allow-origin'), '*');
      assert.deepEqual(body, { logs: recent, total: recent.length });
    });

    test('total counts the window before the limit', async () => {
      const { body } = await logs('?limit=2');
      assert.deepEqual(body, { logs: recent.slice(0, 2), total: recent.length });
      assert.equal((await logs('?limit=1')).body.logs.length, 1);
      assert.deepEqual((await logs('?limit=999999')).body, { logs: recent, total: recent.length }, 'over 5000 reads as 5000');
    });

    test('from and to choose the window, both ends included, with or without a time and offset', async () => {
      const everything = await logs('?from=2000-01-01');
      assert.deepEqual(
        everything.body.logs.map((l) => l.keyword),
        [...recent, ...old].map((l) => l.keyword),
      );
      assert.equal(everything.body.total, 6);
      assert.deepEqual((await logs('?from=2024-12-31&to=2025-01-01')).body, { logs: [old[1]], total: 1 });
      assert.deepEqual((await logs(`?from=${encodeURIComponent('2025-01-01T09:00:00+09:00')}&to=2025-01-01T00:00`)).body.total, 1);
      const edge = recent[2]!.timestamp;
      assert.deepEqual((await logs(`?from=${edge}&to=${edge}`)).body.logs, [recent[2]]);
      assert.equal((await logs(`?to=${ago(DAY)}`)).body.total, 2, 'from defaults to 30 days before now');
    });

    test('a search shows in the log at once', async () => {
      await app.request(`/api/search?q=${encodeURIComponent('ディレイ')}`);
      const { body } = await logs('?limit=1');
      assert.equal(body.logs[0]!.keyword, 'ディレイ');
      assert.ok(body.logs[0]!.resultCount > 0);
      assert.equal(body.total, recent.length + 1);
    });

    test('bad parameters are 400 with every field at fault', async () => {
      const cases: [string, { field: string; message: string }[]][] = [
        ['?from=yesterday', [{ field: 'from', message: 'from must be an ISO 8601 date or date-time' }]],
        ['?to=2026-02-30', [{ field: 'to', message: 'to must be an ISO 8601 date or date-time' }]],
        [
          '?from=x&to=y&limit=0',
          [
            { field: 'from', message: 'from must be an ISO 8601 date or date-time' },
            { field: 'to', message: 'to must be an ISO 8601 date or date-time' },
            { field: 'limit', message: 'limit must be between 1 and 5000' },
          ],
        ],
        ['?from=2026-03-02&to=2026-03-01', [{ field: 'from', message: 'from must not be after to' }]],
        [`?from=${ago(-DAY)}`, [{ field: 'from', message: 'from must not be after to' }]],
        ['?from=2026-01-01&from=2026-02-01', [{ field: 'from', message: 'from must be given once' }]],
      ];
      for (const limit of ['0', '-1', '1.5', 'abc', '', '1e3'])
        cases.push([`?limit=${limit}`, [{ field: 'limit', message: 'limit must be between 1 and 5000' }]]);
      for (const [query, details] of cases) {
        const { response, body } = await logs(query);
        assert.equal(response.status, 400, query);
        assert.deepEqual(body, { success: false, error: 'Invalid parameters', code: 'invalid_parameters', details }, query);
      }
    });

    test('an email address or a phone number pasted into search is masked in the public log', async () => {
      for (const q of ['taro@example.com 090-1234-5678', 'vco ＴＡＲＯ＠ＥＸＡＭＰＬＥ．ＣＯＭ', '電話 +81 90 1234 5678'])
        await app.request(`/api/search?q=${encodeURIComponent(q)}`);
      await app.services.keywordLog.flush();
      const { body } = await logs('?limit=3');
      assert.deepEqual(
        body.logs.map((entry: { keyword: string }) => entry.keyword),
        ['電話 ＊', 'vco ＊', '＊ ＊'],
      );
      assert.doesNotMatch(JSON.stringify(await (await app.admin('/api/admin-dashboard-stats', {})).json()), /taro|1234/i);
    });

    test('OPTIONS is the preflight; other methods get 405 with Allow', async () => {
      assert.equal((await app.request('/api/keyword-logs', { method: 'OPTIONS' })).status, 204);
      const response = await app.request('/api/keyword-logs', { method: 'POST', body: '{}' });
      assert.equal(response.status, 405);
      assert.equal(response.headers.get('allow'), 'GET, HEAD, OPTIONS');
    });
  });
}

for (const dialect of DIALECTS) {
  test(`retention (${dialect}): a start deletes entries older than KEYWORD_LOG_RETENTION_DAYS, with their hourly counts, in batches; newer ones stay`, async () => {
    const target = await freshTarget(dialect);
    const seeded = await openDatabase(target, createLogger('silent'));
    const store = createKeywordLogStore(seeded, { clientSecret: 'test', suggestible: () => true });
    const entry = (keyword: string, days: number, client = '192.0.2.1') => ({
      keyword,
      timestamp: ago(days * DAY),
      resultCount: 1,
      client,
    });
    for (let batch = 0; batch < 5; batch++)
      await store.append(Array.from({ length: 500 }, (_, i) => entry(`old-${batch}-${i % 50}`, 40 + batch + i / 1000)));
    await store.append([entry('kept', 34), entry('kept', 1, '192.0.2.2'), entry('kept', 1, '192.0.2.3'), entry('fresh', 0)]);
    await seeded.close();
    const app = await startTestApp({
      dialect,
      env: { DATABASE_URL: target.dialect === 'sqlite' ? `sqlite:${target.path}` : target.url, KEYWORD_LOG_RETENTION_DAYS: '35' },
    });
    try {
      const everything = `/api/keyword-logs?from=2000-01-01T00:00:00Z&to=${encodeURIComponent(ago(-DAY))}&limit=5000`;
      const left = await waitUntil(
        async () => {
          const body = (await (await app.request(everything)).json()) as { total: number; logs: { keyword: string }[] };
          return body.total === 4 && body.logs.length === 4 ? body.logs : undefined;
        },
        { what: 'the purge at start' },
      );
      assert.deepEqual(left.map((l) => l.keyword).sort(), ['fresh', 'kept', 'kept', 'kept']);
      const { db } = app.services.database;
      const counted = async () =>
        (await db.selectFrom('keyword_hours').select('keyword').distinct().execute()).map((row) => row.keyword).sort();
      await waitUntil(async () => (await counted()).length === 2, { what: 'the hourly counts of the deleted entries gone too' });
      assert.deepEqual(await counted(), ['fresh', 'kept']);
      // A client whose last search of a keyword is older than the 30 days suggestions look at no longer counts.
      await waitUntil(
        async () => (await db.selectFrom('keyword_clients').select('client').where('keyword', '=', 'kept').execute()).length === 2,
        {
          what: 'the 34-day-old client forgotten',
        },
      );
      const kept = await db.selectFrom('keyword_suggestions').selectAll().where('keyword', '=', 'kept').executeTakeFirstOrThrow();
      assert.equal(kept.clients, 2);
      assert.equal(
        await db.selectFrom('keyword_suggestions').select('keyword').where('keyword', 'like', 'old-%').executeTakeFirst(),
        undefined,
      );
    } finally {
      await app.close();
    }
  });
}
