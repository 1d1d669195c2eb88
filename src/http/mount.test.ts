import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Hono } from 'hono';
import type { AppEnv } from './app-env.ts';
import { shopOrigins } from './cors.ts';
import { errorHandler } from './error-handler.ts';
import { mountRoutes } from './mount.ts';
import { idempotencyKeyOf } from './idempotency-key.ts';
import { replyJson } from './reply.ts';
import { defineRoute } from './route.ts';
import { errorResponses } from './schemas.ts';
import { createLogger } from '../log.ts';

// A route's `origins`, for the service's own pages: `'shop-or-service'` also lets
// PUBLIC_BASE_URL's origin post, `'shop'` does not. (The storefront forms, `'shop'`, are tested
// over HTTP in test/helpers/public-form.ts.)

const SERVICE = 'https://shop.example.jp';

function appWith(origins: 'shop' | 'shop-or-service', idempotent = false): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.onError(errorHandler(createLogger('silent')));
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
  const clientAddress = () => '192.0.2.1';
  mountRoutes(app, [route], {
    adminToken: 'x'.repeat(32),
    adminThrottle: async (_c, authenticate) => authenticate('test'),
    sessions: { read: async () => undefined },
    isShopOrigin: shopOrigins({}),
    serviceOrigin: SERVICE,
    clientAddress,
  });
  return app;
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
