import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Hono } from 'hono';
import type { AppEnv } from './app-env.ts';
import { shopOrigins } from './cors.ts';
import { errorHandler } from './error-handler.ts';
import { mountRoutes } from './mount.ts';
import { replyJson } from './reply.ts';
import { defineRoute } from './route.ts';
import { createLogger } from '../log.ts';

// A route's `origins` (SPEC §10), for the service's own pages: `'shop-or-service'` also lets
// PUBLIC_BASE_URL's origin post, `'shop'` does not. (The storefront forms, `'shop'`, are tested
// over HTTP in test/helpers/public-form.ts.)

const SERVICE = 'https://shop.example.jp';

function appWith(origins: 'shop' | 'shop-or-service'): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.onError(errorHandler(createLogger('silent')));
  const route = defineRoute({
    method: 'POST', path: '/form', tag: 'Test', summary: 'A form', cors: 'none', origins,
    responses: {},
    handle: (c) => replyJson(c, 200, { success: true }),
  });
  mountRoutes(app, [route], { adminToken: 'x'.repeat(32), adminThrottle: (_c, authenticate) => authenticate(), isShopOrigin: shopOrigins({}), serviceOrigin: SERVICE });
  return app;
}

test("'shop-or-service' lets the service's own origin post, and the shop's; not another site", async () => {
  const post = (app: Hono<AppEnv>, origin?: string) => app.request('/form', { method: 'POST', headers: origin ? { origin } : {} });
  const withService = appWith('shop-or-service');
  for (const origin of [SERVICE, 'http://localhost:34434', undefined]) assert.equal((await post(withService, origin)).status, 200, String(origin));
  for (const origin of ['https://evil.example', `${SERVICE}.evil.example`, 'null']) {
    const response = await post(withService, origin);
    assert.equal(response.status, 403, origin);
    assert.deepEqual(await response.json(), { success: false, error: 'Origin not allowed' });
  }
  assert.equal((await post(appWith('shop'), SERVICE)).status, 403, "'shop' alone refuses the service's origin");
});
