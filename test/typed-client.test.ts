import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ApiError, createTenpoClient, ENDPOINTS } from 'tenpo/client';
import { allRoutes } from '../src/app.ts';
import { ADMIN_TOKEN, startTestApp, type TestApp } from './helpers/app.ts';
import { freePort } from './helpers/ports.ts';

// The typed client (package export `tenpo/client`): it covers the whole JSON API, sends the token
// to admin endpoints only, and turns every failure into an ApiError the console can word.

let app: TestApp;
before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '0' } });
});
after(() => app.close());

describe('the typed client', () => {
  test('knows every JSON endpoint the service serves, with its method, whether it needs the token and whether it takes an Idempotency-Key', () => {
    const json = allRoutes(app.services).filter((route) => !route.responses[200]?.contentType);
    const idempotent = (flag: boolean | undefined) => (flag ? ' idempotent' : '');
    assert.deepEqual(
      json.map((route) => `${route.method} ${route.path} ${route.admin ? 'admin' : 'public'}${idempotent(route.idempotent)}`).sort(),
      Object.entries(ENDPOINTS)
        .map(
          ([path, endpoint]) => `${endpoint.method} ${path} ${endpoint.admin ? 'admin' : 'public'}${idempotent('idempotent' in endpoint)}`,
        )
        .sort(),
    );
  });

  test('sends an Idempotency-Key when given one: a retry with it answers the first reservation again', async () => {
    const keys: (string | null)[] = [];
    const client = createTenpoClient({
      baseUrl: app.url,
      fetch: (input, init) => {
        keys.push(new Headers(init?.headers).get('idempotency-key'));
        return fetch(input, init);
      },
    });
    const order = { name: '山田 太郎', email: 'client-key@example.com', productSlug: 'kumo-vco-2' };
    const key = crypto.randomUUID();
    const first = await client.call('/api/reservation', order, { idempotencyKey: key });
    const retry = await client.call('/api/reservation', order, { idempotencyKey: key });
    assert.equal(retry.reservationId, first.reservationId);
    const other = await client.send('/api/notify', { email: 'client-key@example.com', productSlug: 'kumo-vco-2' }, { idempotencyKey: key });
    assert.deepEqual(
      [other.status, other.body],
      [422, { success: false, error: 'Idempotency-Key reused with a different request', code: 'idempotency_key_reused' }],
    );
    await client.call('/api/reservation', order);
    assert.deepEqual(keys, [key, key, key, null]);
  });

  test('sends the bearer token to admin endpoints only, and queries with repeated names', async () => {
    const seen: { url: string; authorization: string | null; body: string | undefined }[] = [];
    const client = createTenpoClient({
      baseUrl: app.url,
      token: () => ADMIN_TOKEN,
      fetch: (input, init) => {
        seen.push({
          url: String(input),
          authorization: new Headers(init?.headers).get('authorization'),
          body: init?.body as string | undefined,
        });
        return fetch(input, init);
      },
    });
    const products = await client.call('/api/products', { tag: ['vco', 'vcf'], per_page: '2' });
    assert.ok(products.products.every((p) => p.tags.includes('vco') || p.tags.includes('vcf')));
    await client.call('/api/admin-reservations-list', {});
    assert.equal(seen[0]!.url, `${app.url}/api/products?tag=vco&tag=vcf&per_page=2`);
    assert.equal(seen[0]!.authorization, null);
    assert.equal(seen[1]!.authorization, `Bearer ${ADMIN_TOKEN}`);
    assert.equal(seen[1]!.body, '{}');
  });

  test('a refused token is an ApiError with status 401, and a wrong input one with the field errors', async () => {
    const wrong = createTenpoClient({ baseUrl: app.url, token: () => 'not-the-token' });
    await assert.rejects(
      wrong.call('/api/admin-dashboard-stats', {}),
      (error) => error instanceof ApiError && error.status === 401 && error.code === 'unauthorized' && error.message === 'Unauthorized',
    );
    const noToken = createTenpoClient({ baseUrl: app.url });
    await assert.rejects(noToken.call('/api/admin-notify-list', {}), (error) => error instanceof ApiError && error.status === 401);

    const client = createTenpoClient({ baseUrl: app.url });
    await assert.rejects(client.call('/api/reservation', { name: '', email: 'x', productSlug: 'kumo-vco-2' }), (error) => {
      assert.ok(error instanceof ApiError);
      assert.equal(error.status, 400);
      assert.equal(error.code, 'invalid_input');
      assert.deepEqual(error.details.map((d) => d.field).sort(), ['email', 'name']);
      assert.match(error.requestId ?? '', /^[0-9a-f-]{36}$/);
      return true;
    });
    const reply = await client.send('/api/products', { page: 'x' });
    assert.deepEqual(
      { ok: reply.ok, status: reply.status, error: !reply.ok && reply.body.error, code: !reply.ok && reply.body.code },
      { ok: false, status: 400, error: 'Invalid parameters', code: 'invalid_parameters' },
    );
  });

  test('no answer at all (nothing listening) is an ApiError with status 0', async () => {
    const client = createTenpoClient({ baseUrl: `http://127.0.0.1:${await freePort()}` });
    await assert.rejects(client.call('/healthz'), (error) => error instanceof ApiError && error.status === 0 && error.code === undefined);
  });

  test('an answer that is not the envelope (a proxy’s error page) still becomes an ApiError', async () => {
    const client = createTenpoClient({ baseUrl: app.url, fetch: async () => new Response('<h1>Bad gateway</h1>', { status: 502 }) });
    await assert.rejects(
      client.call('/api/admin-notify-list', {}),
      (error) => error instanceof ApiError && error.status === 502 && error.message === 'HTTP 502' && error.code === undefined,
    );
  });
});
