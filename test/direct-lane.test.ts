import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ADMIN_TOKEN, startTestApp, type TestApp } from './helpers/app.ts';

// GET /api/search is answered by Node's server directly (src/http/direct-lane.ts), the rest by the
// app. A search must not be able to tell: the same body and headers as the app gives the same
// request (a percent-escaped path, which the lane leaves to the app, and a HEAD), the caller's
// request id, CORS, 304s, the request metrics and the access line.

const SEARCH = '/api/search?q=%E3%82%B7%E3%83%B3%E3%82%BB&excerpt_length=80';
/** The same request, its path written so that only the app reads it as /api/search. */
const THROUGH_APP = '/api/%73earch?q=%E3%82%B7%E3%83%B3%E3%82%BB&excerpt_length=80';

/** Every header but those of the moment: the request id and the date. */
function lasting(response: Response): Record<string, string> {
  return Object.fromEntries([...response.headers].filter(([name]) => name !== 'x-request-id' && name !== 'date'));
}

describe('searches answered before the app', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ env: { LOG_LEVEL: 'debug' } });
  });
  after(() => app.close());

  test('answer with the body and headers the app gives the same search', async () => {
    const direct = await app.request(SEARCH);
    const throughApp = await app.request(THROUGH_APP);
    assert.equal(direct.status, 200);
    assert.equal(throughApp.status, 200);
    const body = await direct.text();
    assert.equal(body, await throughApp.text());
    assert.ok(JSON.parse(body).totalResults > 0);
    assert.deepEqual(lasting(direct), lasting(throughApp));
    assert.deepEqual(Object.keys(lasting(direct)).sort(), [
      'access-control-allow-origin',
      'access-control-expose-headers',
      'cache-control',
      'connection',
      'content-length',
      'content-type',
      'etag',
      'keep-alive',
      'x-content-type-options',
    ]);
    assert.equal(direct.headers.get('content-length'), String(Buffer.byteLength(body)));
    const head = await app.request(SEARCH, { method: 'HEAD' });
    assert.equal(head.headers.get('etag'), direct.headers.get('etag'));
  });

  test('give each answer a request id, the caller’s own when it is plain', async () => {
    const given = await app.request(SEARCH, { headers: { 'X-Request-Id': 'lb-7f3a.1' } });
    assert.equal(given.headers.get('x-request-id'), 'lb-7f3a.1');
    const unfit = await app.request(SEARCH, { headers: { 'X-Request-Id': 'has spaces' } });
    assert.match(unfit.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
  });

  test('answer 304 to a client holding the answer, as the app does', async () => {
    const etag = (await app.request(SEARCH)).headers.get('etag')!;
    for (const path of [SEARCH, THROUGH_APP]) {
      const response = await app.request(path, { headers: { 'If-None-Match': `W/"other", ${etag}` } });
      assert.equal(response.status, 304, path);
      assert.equal(response.headers.get('etag'), etag);
      assert.equal(await response.text(), '');
    }
  });

  test('are counted in the request metrics and logged at debug, under the route, the path without its query', async () => {
    const count = async () => {
      const text = await (await app.request('/metrics', { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).text();
      const line = text
        .split('\n')
        .find(
          (l) =>
            l.startsWith('tenpo_http_request_duration_seconds_count{') &&
            l.includes('route="/api/search"') &&
            l.includes('status="200"') &&
            l.includes('method="GET"'),
        );
      return Number(line?.split(' ').at(-1) ?? 0);
    };
    const before = await count();
    const reqId = `lane-${Date.now()}`;
    await app.request(SEARCH, { headers: { 'X-Request-Id': reqId } });
    assert.equal(await count(), before + 1);
    const line = app.logs.find((entry) => entry.reqId === reqId);
    assert.deepEqual(
      { ...line, time: undefined, ms: undefined, pid: undefined, hostname: undefined },
      {
        ...line,
        time: undefined,
        ms: undefined,
        pid: undefined,
        hostname: undefined,
        level: 20,
        method: 'GET',
        path: '/api/search',
        status: 200,
        msg: 'request',
      },
    );
  });

  test('are written to the keyword log, once each', async () => {
    const word = `lane${Date.now().toString(36)}`;
    await app.request(`/api/search?q=${word}`);
    await app.request(`/api/search?q=${word}`, { method: 'HEAD' });
    await app.services.keywordLog.flush();
    const rows = await app.services.database.db.selectFrom('keyword_logs').select('keyword').where('keyword', '=', word).execute();
    assert.equal(rows.length, 1);
  });
});
