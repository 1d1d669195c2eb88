import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { allRoutes } from '../src/app.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';

// The rules every route keeps, checked on every route the app serves.

let app: TestApp;
before(async () => {
  app = await startTestApp();
});
after(() => app.close());

describe('methods', () => {
  test('every path answers OPTIONS with 204 and an Allow header listing exactly what it serves', async () => {
    for (const [path, routes] of Map.groupBy(allRoutes(app.services), (r) => r.path)) {
      const methods = routes.map((r) => r.method);
      const expected = [...methods, ...(methods.includes('GET') ? ['HEAD'] : []), 'OPTIONS'].join(', ');
      const preflight = await app.request(path, { method: 'OPTIONS' });
      assert.equal(preflight.status, 204, path);
      assert.equal(preflight.headers.get('allow'), expected, path);
      for (const method of [
        'PUT',
        'DELETE',
        'PATCH',
        ...(methods.includes('POST') ? [] : ['POST']),
        ...(methods.includes('GET') ? [] : ['GET']),
      ]) {
        const response = await app.request(path, { method });
        assert.equal(response.status, 405, `${method} ${path}`);
        assert.equal(response.headers.get('allow'), expected, `${method} ${path}`);
        assert.deepEqual(await response.json(), { success: false, error: 'Method not allowed', code: 'method_not_allowed' });
      }
    }
  });

  test('HEAD on a GET path answers like GET without a body', async () => {
    const response = await app.request('/healthz', { method: 'HEAD' });
    assert.equal(response.status, 200);
    assert.equal(await response.text(), '');
  });

  test('an unknown route is a JSON 404 whatever the method', async () => {
    for (const method of ['GET', 'POST', 'DELETE']) {
      const response = await app.request('/api/nothing-here', { method });
      assert.equal(response.status, 404);
      assert.deepEqual(await response.json(), { success: false, error: 'Not found', code: 'not_found' });
    }
  });
});

describe('request ids', () => {
  test('every response carries one, and the failure lines in the log carry the same', async () => {
    for (const [path, init] of [
      ['/healthz', {}],
      ['/nowhere', {}],
      ['/api/products?page=x', {}],
      ['/api/products', { method: 'DELETE' }],
    ] as const) {
      const response = await app.request(path, init);
      const id = response.headers.get('x-request-id');
      assert.match(id ?? '', /^[0-9a-f-]{36}$/, path);
      if (response.status >= 400) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        assert.ok(
          app.logs.some((line) => line.reqId === id && line.status === response.status),
          `${path} logged with ${id}`,
        );
      }
    }
  });

  test("a caller's plain id is kept; anything else is replaced", async () => {
    const kept = await app.request('/healthz', { headers: { 'x-request-id': 'lb-1234.abc' } });
    assert.equal(kept.headers.get('x-request-id'), 'lb-1234.abc');
    const replaced = await app.request('/healthz', { headers: { 'x-request-id': 'has spaces <and> markup' } });
    assert.match(replaced.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
  });
});

describe('bodies', () => {
  const big = JSON.stringify({ name: 'x'.repeat(70 * 1024), email: 'a@example.jp', productSlug: 'kumo-vco-2' });

  test('a body over 64 KiB is refused with 413, whether its length is declared or streamed', async () => {
    const declared = await app.request('/api/reservation', { method: 'POST', body: big, headers: { 'content-type': 'application/json' } });
    assert.equal(declared.status, 413);
    assert.deepEqual(await declared.json(), { success: false, error: 'Payload too large', code: 'payload_too_large' });
    const streamed = await chunkedPost(app.url, '/api/reservation', big);
    assert.equal(streamed.status, 413);
    assert.deepEqual(JSON.parse(streamed.body), { success: false, error: 'Payload too large', code: 'payload_too_large' });
  });

  test('an admin route checks the token before reading the body', async () => {
    const response = await app.request('/api/admin-reservations-list', { method: 'POST', body: big });
    assert.equal(response.status, 401);
  });

  test('JSON is parsed whatever the Content-Type says', async () => {
    const response = await app.request('/api/admin-reservations-list', {
      method: 'POST',
      headers: { authorization: `Bearer ${app.env.PREORDER_API_TOKEN}`, 'content-type': 'text/plain' },
      body: '{}',
    });
    assert.equal(response.status, 200);
  });
});

describe('unexpected failures', () => {
  test('answer 500 with the route message, no stack or internals, and are logged with the request id', async () => {
    Object.defineProperty(app.services.catalog, 'entries', {
      get() {
        throw new Error('disk on fire at /srv/secret/path');
      },
    });
    const response = await app.request('/api/products?q=never-asked-before');
    assert.equal(response.status, 500);
    const text = await response.text();
    assert.deepEqual(JSON.parse(text), {
      success: false,
      error: 'サーバーエラーが発生しました。しばらくしてから再度お試しください',
      code: 'internal_error',
    });
    assert.ok(!text.includes('disk on fire') && !text.includes('at '));
    const id = response.headers.get('x-request-id');
    await new Promise((resolve) => setTimeout(resolve, 20));
    const logged = app.logs.find((line) => line.reqId === id && line.level === 50) as { err?: { message: string } } | undefined;
    assert.match(logged?.err?.message ?? '', /disk on fire/);
  });
});

/** A POST whose body is sent in chunks without a Content-Length. */
function chunkedPost(base: string, path: string, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(base + path, { method: 'POST', headers: { 'transfer-encoding': 'chunked' } }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    for (let i = 0; i < body.length; i += 8192) req.write(body.slice(i, i + 8192));
    req.end();
  });
}
