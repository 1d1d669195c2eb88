import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { Hono } from 'hono';
import { allRoutes } from '../src/app.ts';
import { openApiPath } from '../src/api-reference/openapi-document.ts';
import type { AppEnv } from '../src/http/app-env.ts';
import { AppError } from '../src/http/app-error.ts';
import { shopOrigins } from '../src/http/cors.ts';
import { ERROR_CODES, type AnswerCode } from '../src/http/error-codes.ts';
import { mountRoutes } from '../src/http/mount.ts';
import { defineRoute } from '../src/http/route.ts';
import { errorResponses } from '../src/http/schemas.ts';
import { createLogger } from '../src/log.ts';
import { ADMIN_TOKEN, DIALECTS, startTestApp, type TestApp } from './helpers/app.ts';
import { loadContract, type Contract, type JsonSchema } from './helpers/openapi-contract.ts';

// Every error answer carries a stable code (src/http/error-codes.ts). Each route's codes are
// gathered from its declaration (its own errors, its validation's, and what being an admin route,
// taking a body, a rate limit or an Idempotency-Key implies), the OpenAPI document lists them per
// status, and a route that answers a code it did not declare answers a logged 500 instead, so any
// test reaching such an answer fails. Below: the document lists every code every route can answer;
// the guard holds; representative errors of every family carry their code on both databases; and
// docs/endpoints.md lists the table as it is.

test('codes are snake_case, answers have an error status, and item-only codes none', () => {
  for (const [code, entry] of Object.entries(ERROR_CODES)) {
    assert.match(code, /^[a-z]+(?:_[a-z]+)*$/, code);
    if ('status' in entry) assert.ok(entry.status >= 400 && entry.status <= 599, code);
    assert.ok(entry.meaning.length > 10, code);
  }
});

test('docs/endpoints.md lists every code with its status, and nothing else', () => {
  const doc = readFileSync(new URL('../docs/endpoints.md', import.meta.url), 'utf8');
  const listed = [...doc.matchAll(/^\| `([a-z_]+)` \| (\d{3}|item) \|/gm)].map(([, code, status]) => `${code} ${status}`);
  const table = Object.entries(ERROR_CODES).map(([code, entry]) => `${code} ${'status' in entry ? entry.status : 'item'}`);
  assert.deepEqual(listed.sort(), table.sort());
});

describe('the OpenAPI document', () => {
  let app: TestApp;
  let contract: Contract;
  before(async () => {
    app = await startTestApp({ env: { APP_ENV: 'development' } });
    contract = await loadContract(app.url);
  });
  after(() => app.close());

  test('lists, for every route, every code it can answer under that code’s status', () => {
    let checked = 0;
    for (const route of allRoutes(app.services)) {
      const operation = contract.document.paths[openApiPath(route.path)]?.[route.method.toLowerCase()];
      assert.ok(operation, `${route.method} ${route.path}`);
      for (const code of route.codes) {
        const status: number = ERROR_CODES[code].status;
        const documented: (typeof operation.responses)[string] | undefined = operation.responses[String(status)];
        // Every path answers these; a route documents them where it documents their status.
        if (!documented && (code === 'internal_error' || code === 'method_not_allowed')) continue;
        assert.ok(documented, `${route.method} ${route.path} can answer ${code} but documents no ${status}`);
        const schema: JsonSchema | undefined = documented.content?.['application/json']?.schema;
        // A page (the customer's reservation page, the unsubscribe page) is not an envelope.
        if (!schema?.allOf) continue;
        const listed: unknown[] = schema.allOf[0]?.properties?.code?.enum ?? [];
        assert.ok(listed.includes(code), `${route.method} ${route.path} ${status} does not list ${code}`);
        checked++;
      }
    }
    assert.ok(checked > 300, `only ${checked} codes checked`);
  });
});

describe('a route answering a code it does not declare', () => {
  const lines: Record<string, unknown>[] = [];
  const log = createLogger(
    'error',
    new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    }),
  );
  const app = new Hono<AppEnv>();
  const route = (path: string, thrown: AnswerCode) =>
    defineRoute({
      method: 'GET',
      path,
      tag: 'Test',
      summary: 'Throws',
      cors: 'none',
      errors: ['not_found'],
      responses: errorResponses(404, 500),
      handle: () => {
        throw new AppError(thrown, 'Thrown');
      },
    });
  mountRoutes(app, [route('/declared', 'not_found'), route('/undeclared', 'reservation_not_found')], {
    adminToken: ADMIN_TOKEN,
    adminThrottle: async (_c, authenticate) => authenticate('test'),
    sessions: { read: async () => undefined },
    isShopOrigin: shopOrigins({}),
    serviceOrigin: 'http://localhost',
    clientAddress: () => '192.0.2.1',
    log,
    metrics: { observeRequest: () => {} },
  });

  test('is answered as the bug it is: a logged 500; a declared one as thrown', async () => {
    const declared = await app.request('/declared');
    assert.deepEqual([declared.status, await declared.json()], [404, { success: false, error: 'Thrown', code: 'not_found' }]);
    const undeclared = await app.request('/undeclared');
    assert.deepEqual(
      [undeclared.status, await undeclared.json()],
      [500, { success: false, error: 'Internal server error', code: 'internal_error' }],
    );
    assert.match(JSON.stringify(lines), /GET \/undeclared answered the undeclared error code reservation_not_found/);
  });

  test('is refused when declared without its status documented', () => {
    assert.throws(
      () =>
        defineRoute({
          method: 'GET',
          path: '/x',
          tag: 'Test',
          summary: 'x',
          cors: 'none',
          errors: ['preorder_full'],
          responses: {},
          handle: () => new Response(),
        }),
      /GET \/x can answer preorder_full but documents no 409/,
    );
  });
});

for (const dialect of DIALECTS) {
  describe(`error codes on representative errors of every family (${dialect})`, () => {
    let app: TestApp;
    let contract: Contract;
    before(async () => {
      app = await startTestApp({ dialect, env: { RATE_LIMIT_PER_MINUTE: '0', APP_ENV: 'development' } });
      contract = await loadContract(app.url);
    });
    after(() => app.close());

    /** The answer's code, after checking it is an envelope the document lists for that route and status. */
    async function codeOf(response: Response, method: string, path: string, status: number): Promise<string> {
      assert.equal(response.status, status, `${method} ${path}`);
      const body = (await response.json()) as { success: boolean; error: string; code: string };
      contract.check(method, path, status, body);
      return body.code;
    }
    const admin = async (path: string, body: unknown, status: number) => codeOf(await app.admin(path, body), 'POST', path, status);
    const post = (body: string, headers: Record<string, string> = {}) => ({
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });

    test('the HTTP layer: path, method, body, token, origin, Idempotency-Key', async () => {
      const notFound = await app.request('/api/nothing-here');
      assert.deepEqual(await notFound.json(), { success: false, error: 'Not found', code: 'not_found' });
      const wrongMethod = await app.request('/api/products', { method: 'DELETE' });
      assert.deepEqual(await wrongMethod.json(), { success: false, error: 'Method not allowed', code: 'method_not_allowed' });
      const notJson = await app.request('/api/admin-dashboard-stats', post('[1]', { authorization: `Bearer ${ADMIN_TOKEN}` }));
      assert.equal(await codeOf(notJson, 'POST', '/api/admin-dashboard-stats', 400), 'invalid_json_body');
      const huge = await app.admin('/api/admin-notify-list', { q: 'x'.repeat(70_000) });
      assert.equal(await codeOf(huge, 'POST', '/api/admin-notify-list', 413), 'payload_too_large');
      const noToken = await app.request('/api/admin-dashboard-stats', post('{}'));
      assert.equal(await codeOf(noToken, 'POST', '/api/admin-dashboard-stats', 401), 'unauthorized');
      const metrics = await app.request('/metrics', { headers: { authorization: 'Bearer wrong' } });
      assert.equal(await codeOf(metrics, 'GET', '/metrics', 401), 'unauthorized');
      const form = JSON.stringify({ email: 'a@example.com', productSlug: 'kumo-vco-2' });
      const crossSite = await app.request('/api/notify', post(form, { origin: 'https://evil.example' }));
      assert.equal(await codeOf(crossSite, 'POST', '/api/notify', 403), 'origin_not_allowed');
      const badKey = await app.request('/api/notify', post(form, { 'idempotency-key': 'two words' }));
      assert.equal(await codeOf(badKey, 'POST', '/api/notify', 400), 'invalid_idempotency_key');
      assert.equal((await app.request('/api/notify', post(form, { 'idempotency-key': 'k1' }))).status, 200);
      const reused = await app.request(
        '/api/notify',
        post(JSON.stringify({ email: 'b@example.com', productSlug: 'kumo-vco-2' }), { 'idempotency-key': 'k1' }),
      );
      assert.equal(await codeOf(reused, 'POST', '/api/notify', 422), 'idempotency_key_reused');
    });

    test('catalog, search log and the public forms', async () => {
      assert.equal(await codeOf(await app.request('/api/products?page=abc'), 'GET', '/api/products', 400), 'invalid_parameters');
      assert.equal(await codeOf(await app.request('/api/keyword-logs?limit=0'), 'GET', '/api/keyword-logs', 400), 'invalid_parameters');
      const reserve = (body: unknown) => app.request('/api/reservation', post(JSON.stringify(body)));
      assert.equal(
        await codeOf(await reserve({ name: '', email: 'x', productSlug: 'kumo-vco-2' }), 'POST', '/api/reservation', 400),
        'invalid_input',
      );
      assert.equal(await codeOf(await app.request('/api/reservation', post('"text"')), 'POST', '/api/reservation', 400), 'invalid_input');
      const unknown = await reserve({ name: '太郎', email: 'taro@example.com', productSlug: 'no-such-module' });
      assert.equal(await codeOf(unknown, 'POST', '/api/reservation', 400), 'product_not_found');
      (await app.call('/api/admin/preorders/upsert', { productSlug: 'kumo-vco-2', capacity: 1 })).success();
      await reserve({ name: '太郎', email: 'taro@example.com', productSlug: 'kumo-vco-2' });
      const soldOut = await reserve({ name: '花子', email: 'hanako@example.com', productSlug: 'kumo-vco-2' });
      assert.equal(await codeOf(soldOut, 'POST', '/api/reservation', 409), 'preorder_sold_out');
    });

    test('reservations and subscriptions: fields, records, moves, bulk items', async () => {
      const reserved = await app.request(
        '/api/reservation',
        post(JSON.stringify({ name: '太郎', email: 't@example.com', productSlug: 'tsuki-dual-lfo' })),
      );
      const { reservationId: id } = (await reserved.json()) as { reservationId: string };
      const reservation = { id, productSlug: 'tsuki-dual-lfo' };
      const status = '/api/admin-reservations-status';
      assert.equal(await admin(status, { id }, 400), 'missing_required_fields');
      assert.equal(await admin(status, { ...reservation, status: 'lost' }, 400), 'invalid_status');
      assert.equal(await admin(status, { ...reservation, status: 'pending', notes: 1 }, 400), 'invalid_parameters');
      assert.equal(await admin(status, { ...reservation, id: 'res_none', status: 'confirmed' }, 404), 'reservation_not_found');
      assert.equal(await admin(status, { ...reservation, status: 'fulfilled' }, 409), 'invalid_status_transition');
      const stale = { ...reservation, status: 'confirmed', expectedUpdatedAt: '2000-01-01T00:00:00.000Z' };
      assert.equal(await admin(status, stale, 409), 'changed_by_someone_else');
      assert.equal(await admin('/api/admin/reservations/get', { id: 'res_none' }, 404), 'reservation_not_found');
      assert.equal(await admin('/api/admin-reservations-list', { status: 'lost' }, 400), 'invalid_status');
      assert.equal(await admin('/api/admin/reservations/export', { archived: 'yes' }, 400), 'invalid_parameters');

      const archive = await app.call('/api/admin/reservations/archive', {
        ids: [reservation, reservation, { id: 'res_none', productSlug: 'x' }, 7],
      });
      assert.deepEqual(
        archive.success().errors?.map((e) => e.code),
        ['already_archived', 'reservation_not_found', 'invalid_item'],
      );
      assert.equal(await admin(status, { ...reservation, status: 'confirmed' }, 409), 'reservation_archived');
      assert.equal(await admin('/api/admin/reservations/archive', { ids: [] }, 400), 'invalid_parameters');
      const unarchive = await app.call('/api/admin/reservations/unarchive', { ids: [reservation, reservation] });
      assert.deepEqual(
        unarchive.success().errors?.map((e) => e.code),
        ['not_archived'],
      );
      assert.equal(await admin('/api/admin-reservations-delete', { ...reservation, id: 'res_none' }, 404), 'reservation_not_found');

      const signup = async (email: string) => {
        const answer = await app.request('/api/notify', post(JSON.stringify({ email, productSlug: 'kumo-vco-2' })));
        return ((await answer.json()) as { subscriptionId: string }).subscriptionId;
      };
      const first = { id: await signup('s@example.com'), productSlug: 'kumo-vco-2' };
      (await app.call('/api/admin-notify-status', { ...first, status: 'unsubscribed' })).success();
      await signup('s@example.com');
      assert.equal(await admin('/api/admin-notify-status', { ...first, status: 'pending' }, 409), 'another_pending_subscription');
      assert.equal(await admin('/api/admin-notify-status', { ...first, id: 'ntf_none', status: 'pending' }, 404), 'subscription_not_found');
      await app.call('/api/admin/notify/archive', { ids: [first] });
      assert.equal(await admin('/api/admin-notify-status', { ...first, status: 'notified' }, 409), 'subscription_archived');
      assert.equal(await admin('/api/admin/notify/send', { productSlug: 'no-such-module' }, 404), 'unknown_product');
    });

    test('preorders, templates, the message log, personal data, the customer’s page', async () => {
      assert.equal(await admin('/api/admin/preorders/upsert', { productSlug: 'no-such-module' }, 404), 'unknown_product');
      assert.equal(await admin('/api/admin/preorders/delete', { productSlug: 'tsuki-dual-lfo' }, 404), 'preorder_not_found');
      assert.equal(await admin('/api/admin/email-templates/update', { kind: 'nope' }, 404), 'template_not_found');
      assert.equal(await admin('/api/admin/email-templates/revert', { kind: 'restock-available', version: 99 }, 404), 'version_not_found');
      assert.equal(
        await admin('/api/admin/email-templates/preview', { kind: 'restock-available', body: 'no link' }, 400),
        'invalid_template',
      );
      assert.equal(await admin('/api/admin/messages/list', { channel: 'fax' }, 400), 'invalid_channel');
      const retry = await app.call('/api/admin/messages/retry', { ids: ['msg_none', 3] });
      assert.deepEqual(
        retry.success().errors?.map((e) => e.code),
        ['message_not_found', 'invalid_item'],
      );
      assert.equal(await admin('/api/admin/personal-data/export', { email: 'not an address' }, 400), 'invalid_parameters');
      const page = await app.request('/reservations/manage', post(JSON.stringify({ token: 'forged' })));
      assert.equal(page.status, 400, 'a bad link is a page, not an envelope');
    });
  });
}
