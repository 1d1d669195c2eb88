import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Hono } from 'hono';
import { z } from 'zod';
import { serializeJson } from '../serving/cached-json.ts';
import type { AppEnv } from './app-env.ts';
import { shopOrigins } from './cors.ts';
import { mountRoutes } from './mount.ts';
import { idempotencyKeyOf } from './idempotency-key.ts';
import { replyJson, sendCachedJson } from './reply.ts';
import { defineRoute, type Route } from './route.ts';
import { errorResponses } from './schemas.ts';
import { createLogger } from '../log.ts';

// A route's `origins`, for the service's own pages: `'shop-or-service'` also lets
// PUBLIC_BASE_URL's origin post, `'shop'` does not. (The storefront forms, `'shop'`, are tested
// over HTTP in test/helpers/public-form.ts.)

const SERVICE = 'https://shop.example.jp';

function appWith(origins: 'shop' | 'shop-or-service', idempotent = false): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const route = defineRoute({
    method: 'POST',
    path: '/form',
    tag: 'Test',
    summary: 'A form',
    cors: 'none',
    origins,
    idempotent,
    // A malformed Idempotency-Key is a 400.
    responses: idempotent ? errorResponses(400) : {},
    handle: (c) => replyJson(c, 200, { success: true, key: idempotencyKeyOf(c) ?? null }),
  });
  mounted(app, [route]);
  return app;
}

function mounted(app: Hono<AppEnv>, routes: Route[]): void {
  const clientAddress = () => '192.0.2.1';
  mountRoutes(app, routes, {
    adminToken: 'x'.repeat(32),
    adminThrottle: async (_c, authenticate) => authenticate('test'),
    sessions: { read: async () => undefined },
    isShopOrigin: shopOrigins({}),
    serviceOrigin: SERVICE,
    clientAddress,
    log: createLogger('silent'),
    metrics: { observeRequest: () => {} },
  });
}

test("'shop-or-service' lets the service's own origin post, and the shop's; not another site", async () => {
  const post = (app: Hono<AppEnv>, origin?: string) => app.request('/form', { method: 'POST', headers: origin ? { origin } : {} });
  const withService = appWith('shop-or-service');
  for (const origin of [SERVICE, 'http://localhost:34434', undefined])
    assert.equal((await post(withService, origin)).status, 200, String(origin));
  for (const origin of ['https://evil.example', `${SERVICE}.evil.example`, 'null']) {
    const response = await post(withService, origin);
    assert.equal(response.status, 403, origin);
    assert.deepEqual(await response.json(), { success: false, error: 'Origin not allowed', code: 'origin_not_allowed' });
  }
  assert.equal((await post(appWith('shop'), SERVICE)).status, 403, "'shop' alone refuses the service's origin");
});

// An idempotent route's Idempotency-Key: 1-255 visible ASCII characters, kept with the
// client's address; anything else is 400 before the handler runs. (Its effect is tested over HTTP
// in test/idempotency.test.ts.)
test('an Idempotency-Key of 1-255 visible ASCII characters reaches the handler with its client; any other is 400', async () => {
  const app = appWith('shop', true);
  const post = (key?: string) => app.request('/form', { method: 'POST', headers: key === undefined ? {} : { 'idempotency-key': key } });
  assert.deepEqual(await (await post()).json(), { success: true, key: null });
  const printable = Array.from({ length: 0x7e - 0x21 + 1 }, (_, i) => String.fromCharCode(0x21 + i)).join('');
  for (const key of ['a', printable, 'k'.repeat(255), '__proto__', '"quoted";,']) {
    assert.deepEqual(await (await post(key)).json(), { success: true, key: { client: '192.0.2.1', key } }, key);
  }
  // A header carries bytes: UTF-8 arrives as its bytes, read one character each (latin1).
  for (const key of ['k'.repeat(256), 'two words', 'tab\tinside', Buffer.from('キー').toString('latin1'), 'caf\u00e9']) {
    const response = await post(key);
    assert.equal(response.status, 400, key);
    assert.deepEqual(await response.json(), {
      success: false,
      error: 'Idempotency-Key must be 1 to 255 visible ASCII characters',
      code: 'invalid_idempotency_key',
    });
  }
  assert.equal(
    (await appWith('shop').request('/form', { method: 'POST', headers: { 'idempotency-key': 'two words' } })).status,
    200,
    'a route without the flag ignores the header',
  );
});

// A route kept by URL (catalog's pages): the JSON it answered a URL with answers that URL again,
// with its headers, ETag and 304s, and its handler is not called; another spelling is another URL.
test('a route kept by URL answers a URL it has answered from what it kept, its handler not called again', async () => {
  let handled = 0;
  const app = new Hono<AppEnv>();
  mounted(app, [
    defineRoute({
      method: 'GET',
      path: '/kept',
      tag: 'Test',
      summary: 'Depends on its URL alone',
      cors: 'any',
      query: z.object({ n: z.string().regex(/^\d+$/) }),
      keptByUrl: { entries: 10, bytes: 100_000 },
      responses: errorResponses(400),
      handle: (c, { query }) => {
        handled++;
        return sendCachedJson(c, serializeJson({ n: Number(query.n) }), { 'Cache-Control': 'no-cache' });
      },
    }),
  ]);
  const first = await app.request('/kept?n=1');
  assert.deepEqual(await first.json(), { n: 1 });
  const again = await app.request('/kept?n=1');
  assert.deepEqual(await again.json(), { n: 1 });
  for (const name of ['etag', 'cache-control', 'content-type', 'access-control-allow-origin'])
    assert.equal(again.headers.get(name), first.headers.get(name), name);
  assert.ok(again.headers.get('x-request-id'), 'every answer has its own request id');
  assert.notEqual(again.headers.get('x-request-id'), first.headers.get('x-request-id'));
  const held = await app.request('/kept?n=1', { headers: { 'If-None-Match': first.headers.get('etag')! } });
  assert.equal(held.status, 304);
  assert.equal(handled, 1);
  assert.deepEqual(await (await app.request('/kept?n=01')).json(), { n: 1 });
  assert.equal(handled, 2, 'another spelling of the same query is handled');
  assert.equal((await app.request('/kept?n=x')).status, 400);
  assert.equal((await app.request('/kept?n=x')).status, 400);
  assert.equal(handled, 2);
});

test('only a GET can be kept by URL', () => {
  const post = { method: 'POST' as const, path: '/kept', tag: 'Test', summary: 'A form', cors: 'none' as const, responses: {} };
  assert.throws(() => defineRoute({ ...post, keptByUrl: { entries: 1, bytes: 1 }, handle: (c) => replyJson(c, 200, {}) }), /kept by URL/);
});
