import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, startTestApp, type TestApp } from './helpers/app.ts';

// GET /api/keyword-logs over real HTTP on both dialects (seed "GET /api/keyword-logs", SPEC §3).

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
      app = await startTestApp({ dialect });
      await app.services.keywordLogStore.append([...old, ...recent]);
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

    test('OPTIONS is the preflight; other methods get 405 with Allow', async () => {
      assert.equal((await app.request('/api/keyword-logs', { method: 'OPTIONS' })).status, 204);
      const response = await app.request('/api/keyword-logs', { method: 'POST', body: '{}' });
      assert.equal(response.status, 405);
      assert.equal(response.headers.get('allow'), 'GET, HEAD, OPTIONS');
    });
  });
}
