import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { createApp } from '../src/app.ts';
import { ADMIN_TOKEN, startTestApp, type TestApp } from './helpers/app.ts';

// A GET or HEAD of a path written exactly as mounted is answered by the direct lane
// (src/serving/direct-lane.ts), which calls the path's handler without Hono's router; the rest by
// the app, through the router, to the same handler. A client must not be able to tell: the same
// bytes as the app gives the same request (a percent-escaped path, which the lane leaves to the
// app), HEAD the same header lines as GET without the body, the caller's request id, CORS, 304s,
// the request metrics and the access line.

const SEARCH = '/api/search?q=%E3%82%B7%E3%83%B3%E3%82%BB&excerpt_length=80';
/** The same request, its path written so that only the app reads it as /api/search. */
const THROUGH_APP = '/api/%73earch?q=%E3%82%B7%E3%83%B3%E3%82%BB&excerpt_length=80';

/** Every header but those of the moment: the request id and the date. */
function lasting(response: Response): Record<string, string> {
  return Object.fromEntries([...response.headers].filter(([name]) => name !== 'x-request-id' && name !== 'date'));
}

describe('requests answered by the direct lane', () => {
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

  test('answer every exact path with the bytes the app gives, and a HEAD with its GET’s header lines', async () => {
    const port = new URL(app.url).port;
    const catalog = '/api/products?tag=vco&per_page=3';
    const exactPaths = [SEARCH, catalog, '/healthz', '/', '/api/search-index', '/openapi.json'];
    for (const path of exactPaths) {
      const [direct] = await exchangeRaw(port, `GET ${path} HTTP/1.1\r\nHost: shop.test\r\nOrigin: https://evil.example\r\n\r\n`);
      const escaped = path.replace(/^\/(.)/, (_, first: string) => `/%${first.charCodeAt(0).toString(16)}`);
      const [throughApp] = await exchangeRaw(port, `GET ${escaped} HTTP/1.1\r\nHost: shop.test\r\nOrigin: https://evil.example\r\n\r\n`);
      const [head] = await exchangeRaw(port, `HEAD ${path} HTTP/1.1\r\nHost: shop.test\r\nOrigin: https://evil.example\r\n\r\n`, 'head');
      assert.equal(direct!.status, 200, path);
      if (path !== '/') {
        // The front page is mounted at "/", which no other spelling reaches.
        assert.deepEqual(throughApp!.lines, direct!.lines, path);
        assert.equal(throughApp!.body, direct!.body, path);
      }
      assert.deepEqual(head!.lines, direct!.lines, `HEAD ${path}`);
      assert.equal(head!.body, '', `HEAD ${path}`);
    }
    // A path with parameters goes through the app's router, a HEAD as its GET.
    const asset = '/admin/assets/none.js';
    const [get] = await exchangeRaw(port, `GET ${asset} HTTP/1.1\r\nHost: shop.test\r\n\r\n`);
    const [head] = await exchangeRaw(port, `HEAD ${asset} HTTP/1.1\r\nHost: shop.test\r\n\r\n`, 'head');
    assert.equal(get!.status, 404);
    assert.deepEqual(head!.lines, get!.lines);
    assert.match(get!.lines.join('\n'), /^Content-Type: application\/json/m, 'header names as the app wrote them');
  });

  test('call, for each exact path, the handler the app’s router reaches for it', () => {
    const { app: built, exactPaths } = createApp(app.services);
    assert.ok(exactPaths.size > 40, `only ${exactPaths.size} exact paths`);
    for (const [path, handler] of exactPaths) {
      const [matched] = built.router.match('GET', path);
      assert.deepEqual(
        matched.map(([[reached]]) => reached),
        [handler],
        path,
      );
    }
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

  // The lane sends the answers of one turn of the event loop together, after the turn's requests.
  test('answer requests that arrive together each with its own answer, in order on a connection', { timeout: 20_000 }, async () => {
    const words = ['シンセ', 'VCO', 'フィルター', 'eurorack'];
    const alone = await Promise.all(words.map(async (word) => (await app.request(searchOf(word))).text()));
    const together = await Promise.all(words.map(async (word) => (await app.request(searchOf(word))).text()));
    assert.deepEqual(together, alone);

    const pipelined = [...words.map(searchOf), '/healthz', searchOf(words[0]!)];
    const answers = await exchange(
      new URL(app.url).port,
      pipelined.map((path) => `GET ${path} HTTP/1.1\r\nHost: shop.test\r\n\r\n`).join(''),
      pipelined.length,
    );
    assert.deepEqual(
      answers.map((answer) => answer.status),
      pipelined.map(() => 200),
    );
    assert.deepEqual(
      answers.slice(0, 4).map((answer) => answer.body),
      alone,
    );
    assert.equal(JSON.parse(answers[4]!.body).status, 'ok');
    assert.equal(answers[5]!.body, alone[0]);
  });

  test('go on answering after a client leaves before its answer is sent', { timeout: 20_000 }, async () => {
    const port = new URL(app.url).port;
    await new Promise<void>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.end(`GET ${searchOf('シンセ')} HTTP/1.1\r\nHost: shop.test\r\n\r\n`);
        socket.destroy();
        resolve();
      });
      socket.on('error', reject);
    });
    const response = await app.request(searchOf('シンセ'));
    assert.equal(response.status, 200);
    assert.ok(JSON.parse(await response.text()).totalResults > 0);
  });
});

function searchOf(word: string): string {
  return `/api/search?q=${encodeURIComponent(word)}&excerpt_length=60`;
}

/** One answer as sent: its status, its header lines but those of the moment (request id, date), its body. */
interface RawAnswer {
  status: number;
  lines: string[];
  body: string;
}

/** Sends one raw request and reads its answer whole (a HEAD's has no body, whatever its Content-Length). */
async function exchangeRaw(port: string, request: string, method: 'get' | 'head' = 'get'): Promise<RawAnswer[]> {
  const socket = connect(Number(port), '127.0.0.1');
  socket.write(request);
  let received = Buffer.alloc(0);
  for await (const chunk of socket) {
    received = Buffer.concat([received, chunk as Buffer]);
    const headEnd = received.indexOf('\r\n\r\n');
    if (headEnd === -1) continue;
    const [statusLine, ...lines] = received.subarray(0, headEnd).toString('latin1').split('\r\n');
    const length = method === 'head' ? 0 : Number(/^content-length: *(\d+)$/im.exec(lines.join('\n'))?.[1] ?? 0);
    if (received.length < headEnd + 4 + length) continue;
    socket.destroy();
    return [
      {
        status: Number(statusLine!.split(' ')[1]),
        lines: lines.filter((line) => !/^(x-request-id|date):/i.test(line)),
        body: received.subarray(headEnd + 4, headEnd + 4 + length).toString('utf8'),
      },
    ];
  }
  throw new Error(`no answer to ${request.split('\r\n')[0]}`);
}

/** Sends raw bytes on one connection and reads `count` answers (each with a Content-Length). */
async function exchange(port: string, bytes: string, count: number): Promise<{ status: number; body: string }[]> {
  const socket = connect(Number(port), '127.0.0.1');
  socket.write(bytes);
  let received = Buffer.alloc(0);
  const answers: { status: number; body: string }[] = [];
  for await (const chunk of socket) {
    received = Buffer.concat([received, chunk as Buffer]);
    for (;;) {
      const headEnd = received.indexOf('\r\n\r\n');
      if (headEnd === -1) break;
      const head = received.subarray(0, headEnd).toString('latin1');
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
      if (received.length < headEnd + 4 + length) break;
      answers.push({ status: Number(head.split(' ')[1]), body: received.subarray(headEnd + 4, headEnd + 4 + length).toString('utf8') });
      received = received.subarray(headEnd + 4 + length);
    }
    if (answers.length === count) break;
  }
  socket.destroy();
  return answers;
}
