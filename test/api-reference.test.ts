import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTenpoClient, ENDPOINTS, type EndpointPath, type Reply, type TenpoClient } from 'tenpo/client';
import { createApp } from '../src/app.ts';
import { ADMIN_TOKEN, DIALECTS, startTestApp, type TestApp } from './helpers/app.ts';
import { launchBrowser, recordPage, screenshot } from './helpers/browser.ts';
import { loadContract, OpenApiDocument, type Contract } from './helpers/openapi-contract.ts';
import { RECORD_LISTS } from './helpers/record-lists.ts';

// GET /openapi.json: a valid OpenAPI 3.1 document listing exactly the routes the app serves, whose
// schemas match what the service really answers (a whole admin workflow, errors included, on both
// dialects); and the reference page at /docs with its assets, served by the service itself.

for (const dialect of DIALECTS) {
  describe(`the OpenAPI document (${dialect})`, () => {
    let app: TestApp;
    let contract: Contract;
    let api: TenpoClient;
    before(async () => {
      app = await startTestApp({ dialect, env: { RATE_LIMIT_PER_MINUTE: '0', PUBLIC_BASE_URL: 'https://shop.example/' } });
      contract = await loadContract(app.url);
      api = createTenpoClient({ baseUrl: app.url, token: () => ADMIN_TOKEN });
    });
    after(() => app.close());

    test('lists the same (method, path) pairs the app serves', async () => {
      const served = new Set<string>();
      // Every path mounted on the app, but the request-context middleware's catch-all.
      const paths = new Set(
        createApp(app.services)
          .app.routes.map((route) => route.path)
          .filter((path) => path !== '/*'),
      );
      for (const path of paths) {
        const response = await app.request(path.replace(/:\w+/g, 'probe'), { method: 'OPTIONS' });
        assert.equal(response.status, 204, path);
        for (const method of response.headers.get('allow')!.split(', '))
          if (method !== 'HEAD' && method !== 'OPTIONS') served.add(`${method} ${path}`);
      }
      const documented = new Set(
        Object.entries(contract.document.paths).flatMap(([path, operations]) =>
          Object.keys(operations).map((method) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
        ),
      );
      assert.deepEqual([...documented].sort(), [...served].sort());
      for (const expected of [
        'POST /api/admin/notify/send',
        'POST /api/admin-dashboard-stats',
        'GET /openapi.json',
        'GET /docs',
        'GET /admin',
      ])
        assert.ok(served.has(expected), expected);
    });

    test('marks every admin operation with the bearer scheme or the session cookie and its 401, and only those', () => {
      const operations = Object.entries(contract.document.paths).flatMap(([path, ops]) =>
        Object.entries(ops).map(([method, op]) => ({ path, method, op })),
      );
      assert.deepEqual(contract.document.components.securitySchemes.adminToken, {
        type: 'http',
        scheme: 'bearer',
        description: contract.document.components.securitySchemes.adminToken?.description,
      });
      assert.deepEqual(contract.document.components.securitySchemes.staffSession, {
        type: 'apiKey',
        in: 'cookie',
        name: 'tenpo_session',
        description: contract.document.components.securitySchemes.staffSession?.description,
      });
      for (const { path, method, op } of operations) {
        // Signing in is what an admin route needs first.
        const admin = (path.startsWith('/api/admin') && path !== '/api/admin/session') || path === '/metrics';
        assert.equal(Boolean(op.security), admin, `${method} ${path} security`);
        if (admin) {
          assert.deepEqual(op.security, [{ adminToken: [] }, { staffSession: [] }]);
          assert.ok(op.responses['401'], `${method} ${path} documents 401`);
        }
        assert.ok(
          Object.keys(op.responses).some((status) => status.startsWith('2')),
          `${method} ${path} documents a success`,
        );
        assert.ok(op.summary, `${method} ${path} has a summary`);
      }
      const ids = operations.map(({ op }) => op.operationId);
      assert.equal(new Set(ids).size, ids.length, 'operation ids are unique');
    });

    test('describes request bodies from the input side and answers from the output side', () => {
      const { paths, components } = contract.document;
      assert.deepEqual(paths['/api/reservation']?.post?.requestBody?.content['application/json']?.schema?.required, [
        'name',
        'email',
        'productSlug',
      ]);
      const products = paths['/api/products']?.get;
      const perPage = products?.parameters?.find((p) => p.name === 'per_page');
      assert.deepEqual(
        { in: perPage?.in, required: perPage?.required, type: perPage?.schema.type },
        { in: 'query', required: false, type: 'string' },
      );
      assert.deepEqual(products?.responses['200']?.content?.['application/json']?.schema?.properties?.products?.items, {
        $ref: '#/components/schemas/Product',
      });
      const product = components.schemas.Product;
      assert.ok(product?.required?.includes('subtitle'), 'defaults are filled in answers, so the field is always there');
      // An error is the envelope, narrowed to the codes that status can carry on that route.
      const archive400 = paths['/api/admin/reservations/archive']?.post?.responses['400'];
      assert.deepEqual(archive400?.content?.['application/json']?.schema, {
        allOf: [
          { type: 'object', properties: { code: { enum: ['invalid_json_body', 'request_body_incomplete', 'invalid_parameters'] } } },
          { $ref: '#/components/schemas/ErrorBody' },
        ],
      });
      assert.equal(archive400?.description, 'Invalid input: `invalid_json_body`, `request_body_incomplete`, `invalid_parameters`');
    });

    test('documents the Idempotency-Key header and its 422 on the two public forms, and on no other operation', () => {
      for (const [path, operations] of Object.entries(contract.document.paths)) {
        for (const [method, op] of Object.entries(operations)) {
          const header = op.parameters?.find((p) => p.name === 'Idempotency-Key');
          const form = method === 'post' && (path === '/api/reservation' || path === '/api/notify');
          assert.equal(Boolean(header), form, `${method} ${path}`);
          assert.equal(Boolean(op.responses['422']), form, `${method} ${path} 422`);
          if (!header) continue;
          assert.deepEqual(
            { in: header.in, required: header.required, schema: header.schema },
            { in: 'header', required: false, schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[!-~]+$' } },
          );
          assert.equal(op.responses['422']?.description, 'Idempotency-Key reused with a different request: `idempotency_key_reused`');
        }
      }
    });

    test('names the shared shapes as components, refers to them wherever they appear, and names its server', () => {
      const { paths, components, servers } = contract.document;
      assert.deepEqual(servers, [{ url: 'https://shop.example' }], 'PUBLIC_BASE_URL, without its trailing slash');
      const answer = (path: string, method: string, status = '200') =>
        paths[path]?.[method]?.responses[status]?.content?.['application/json']?.schema;
      const itemsOf = (path: string, method: string, list: string) => answer(path, method)?.properties?.[list]?.items;
      const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
      assert.deepEqual(itemsOf('/api/products', 'get', 'products'), ref('Product'));
      assert.deepEqual(itemsOf('/api/search', 'get', 'results'), ref('SearchResult'));
      assert.deepEqual(itemsOf('/api/keyword-logs', 'get', 'logs'), ref('KeywordLogEntry'));
      assert.deepEqual(itemsOf('/api/admin-reservations-list', 'post', 'reservations'), ref('Reservation'));
      assert.deepEqual(answer('/api/admin-reservations-status', 'post')?.properties?.reservation, ref('Reservation'));
      assert.deepEqual(itemsOf('/api/admin/reservations/archives/list', 'post', 'reservations'), ref('ArchivedReservation'));
      assert.deepEqual(itemsOf('/api/admin-notify-list', 'post', 'subscriptions'), ref('Subscription'));
      assert.deepEqual(itemsOf('/api/admin/notify/archives/list', 'post', 'subscriptions'), ref('ArchivedSubscription'));
      assert.deepEqual(answer('/healthz', 'get', '503'), ref('Health'));
      assert.deepEqual(answer('/api/reservation', 'post', '400')?.allOf?.[1], ref('ErrorBody'));
      assert.deepEqual(components.schemas.ErrorBody?.properties?.details?.items, ref('ErrorDetail'));
      // A stored status is a current one or, on records of the previous system, a legacy one.
      const [current, legacy] = components.schemas.Reservation?.properties?.status?.anyOf ?? [];
      assert.deepEqual(current?.enum, ['pending', 'confirmed', 'fulfilled', 'cancelled']);
      assert.deepEqual(legacy, {
        type: 'string',
        description: "A legacy status of the previous system's records, such as reserved or responded",
      });

      // Every reference leads to a component, and every component is referred to.
      const refs = new Set([...JSON.stringify({ paths, components }).matchAll(/"\$ref":"([^"]+)"/g)].map(([, target]) => target!));
      const named = Object.keys(components.schemas).map((name) => `#/components/schemas/${name}`);
      assert.deepEqual([...refs].sort(), named.sort());
    });

    test('matches every answer of a full workflow, errors included', async () => {
      /** Calls through the typed client and checks the answer against the document. */
      const expect = async <P extends EndpointPath>(path: P, input: unknown, status: number): Promise<Reply<P>> => {
        const reply = (await api.send(path as EndpointPath, input as never)) as Reply<P>;
        assert.equal(reply.status, status, `${path} ${JSON.stringify(input)} → ${JSON.stringify(reply.body)}`);
        contract.check(ENDPOINTS[path].method, path, reply.status, reply.body);
        return reply;
      };
      /** A success's body: checked against the document by expect(), typed by the client. */
      const succeed = async <P extends EndpointPath>(path: P, input: unknown) => {
        const reply = await expect(path, input, 200);
        assert.ok(reply.ok);
        return reply.body;
      };

      await expect('/healthz', undefined, 200);
      await expect('/openapi.json', undefined, 200);
      await expect('/api/products', { tag: ['vco', 'vcf'], per_page: '3' }, 200);
      await expect('/api/products', { page: 'abc' }, 400);
      await expect('/api/search', { q: 'シンセ' }, 200);
      await expect('/api/search', { q: 'zzzzqqq' }, 200);
      await expect('/api/keyword-logs', {}, 200);
      await expect('/api/keyword-logs', { limit: '0' }, 400);

      const { reservationId } = await succeed('/api/reservation', {
        name: '山田 太郎',
        email: 'Taro@Example.com',
        productSlug: 'kumo-vco-2',
      });
      await expect('/api/reservation', { name: '', email: 'nope', productSlug: 'Bad Slug' }, 400);
      await expect('/api/reservation', { name: '太郎', email: 'taro@example.com', productSlug: 'no-such-product' }, 400);
      const { subscriptionId } = await succeed('/api/notify', { email: 'hanako@example.com', productSlug: 'kumo-vco-2' });
      await expect('/api/notify', { email: 'x', productSlug: 'kumo-vco-2' }, 400);

      const reservation = { id: reservationId, productSlug: 'kumo-vco-2' };
      await expect('/api/admin-reservations-list', {}, 200);
      await expect('/api/admin-reservations-list', { status: 'lost' }, 400);
      await expect('/api/admin-reservations-status', { ...reservation, status: 'confirmed', notes: '電話で確認済み' }, 200);
      await expect('/api/admin-reservations-status', { ...reservation, status: 'pending', notes: 'x'.repeat(2001) }, 400);
      await expect('/api/admin-reservations-status', { ...reservation, status: 'confirmed' }, 200);
      await expect('/api/admin-reservations-status', { id: 'res_missing', productSlug: 'kumo-vco-2', status: 'confirmed' }, 404);
      await expect('/api/admin-reservations-status', { ...reservation, status: 'fulfilled' }, 200);
      await expect('/api/admin-reservations-status', { ...reservation, status: 'cancelled' }, 409);
      await expect('/api/admin/reservations/archive', { ids: [reservation, { id: 'res_missing', productSlug: 'kumo-vco-2' }] }, 200);
      await expect('/api/admin/reservations/archive', { ids: [] }, 400);
      await expect('/api/admin/reservations/archives/list', { page: 1, pageSize: 1 }, 200);
      await expect('/api/admin/reservations/archives/list', { pageSize: 0 }, 400);
      await expect('/api/admin/reservations/unarchive', { ids: [reservation] }, 200);
      await expect('/api/admin-reservations-delete', reservation, 200);
      await expect('/api/admin-reservations-delete', reservation, 404);

      const subscription = { id: subscriptionId, productSlug: 'kumo-vco-2' };
      await expect('/api/admin-notify-list', { status: 'pending' }, 200);
      await expect('/api/admin-notify-status', { ...subscription, status: 'unsubscribed' }, 200);
      await expect('/api/admin-notify-status', { ...subscription, status: 'notified' }, 409);
      await expect('/api/admin-notify-status', { ...subscription, status: 'pending' }, 200);
      await expect('/api/admin/notify/send', { productSlug: 'kumo-vco-2' }, 200);
      await expect('/api/admin/notify/send', { productSlug: 'no-such-product' }, 404);
      await expect('/api/admin/notify/archive', { ids: [subscription] }, 200);
      await expect('/api/admin/notify/archives/list', {}, 200);
      await expect('/api/admin/notify/unarchive', { ids: [subscription, { nonsense: true }] }, 200);
      await expect('/api/admin-dashboard-stats', {}, 200);

      const wrongToken = await createTenpoClient({ baseUrl: app.url, token: () => 'wrong' }).send('/api/admin-dashboard-stats', {});
      assert.equal(wrongToken.status, 401);
      contract.check('POST', '/api/admin-dashboard-stats', 401, wrongToken.body);
      const huge = await app.admin('/api/admin-notify-list', { productSlug: 'x'.repeat(70_000) });
      assert.equal(huge.status, 413);
      contract.check('POST', '/api/admin-notify-list', 413, await huge.json());

      // The check itself can fail: a body off its schema, a status the document does not list.
      assert.throws(() => contract.check('POST', '/api/admin-notify-list', 200, { success: true }), /does not match/);
      assert.throws(
        () => contract.check('POST', '/api/admin-notify-list', 200, { success: true, subscriptions: [], extra: 1 }),
        /does not match/,
      );
      assert.throws(() => contract.check('GET', '/healthz', 418, {}), /does not list/);
      // …and an error whose code the document does not list for that route and status.
      assert.throws(
        () =>
          contract.check('POST', '/api/admin-notify-status', 404, { success: false, error: 'Not found', code: 'reservation_not_found' }),
        /does not match/,
      );
    });

    test('describes the statuses stored records hold, legacy ones included', async () => {
      const { db } = app.services.database;
      const created_at = '2025-01-01T00:00:00.000Z';
      const records = { product_slug: 'tsuki-dual-lfo', created_at, updated_at: created_at };
      await db
        .insertInto('reservations')
        .values([
          {
            ...records,
            id: 'res_legacy_active',
            name: '旧 太郎',
            name_fold: '旧太郎',
            email: 'old1@example.com',
            status: 'reserved',
            archived_at: null,
          },
          {
            ...records,
            id: 'res_legacy_archived',
            name: '旧 花子',
            name_fold: '旧花子',
            email: 'old2@example.com',
            status: 'responded',
            archived_at: created_at,
          },
        ])
        .execute();
      await db
        .insertInto('subscriptions')
        .values([
          { ...records, id: 'ntf_legacy_active', email: 'old3@example.com', status: 'sent', archived_at: null },
          { ...records, id: 'ntf_legacy_archived', email: 'old4@example.com', status: 'sent', archived_at: created_at },
        ])
        .execute();
      const filter = { productSlug: 'tsuki-dual-lfo' };
      for (const path of RECORD_LISTS) {
        const reply = await api.send(path, filter);
        assert.equal(reply.status, 200);
        assert.ok(reply.ok);
        const [item] = 'reservations' in reply.body ? reply.body.reservations : reply.body.subscriptions;
        assert.ok(['reserved', 'responded', 'sent'].includes(item?.status ?? ''), `${path} answers the stored status as it is`);
        contract.check('POST', path, 200, reply.body);
      }
    });
  });
}

describe('serving the reference', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.close());

  test('/openapi.json is revalidated by ETag and readable from any origin', async () => {
    const first = await app.request('/openapi.json', { headers: { origin: 'https://integrator.example' } });
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('cache-control'), 'no-cache');
    assert.equal(first.headers.get('access-control-allow-origin'), '*');
    const etag = first.headers.get('etag')!;
    assert.match(etag, /^"[\w-]+"$/);
    const again = await app.request('/openapi.json', { headers: { 'if-none-match': etag } });
    assert.equal(again.status, 304);
  });

  test('a description names a guide by its path, not by a link /docs would resolve against the service', async () => {
    const document = await (await app.request('/openapi.json')).text();
    assert.doesNotMatch(document, /\]\([\w-]+\.md/);
    assert.match(document, /\(docs\/search\.md#the-keyword-log\)/);
  });

  test('/docs is a page of this origin only, whose scripts and styles come from the service with long caching', async () => {
    const page = await app.request('/docs');
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type')!, /^text\/html/);
    assert.equal(page.headers.get('cache-control'), 'no-cache');
    assert.match(page.headers.get('content-security-policy')!, /script-src 'self';/);
    const html = await page.text();
    const assets = [...html.matchAll(/(?:src|href)="(\/docs\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    assert.equal(assets.length, 4, 'Swagger UI’s script and stylesheet, and the page’s own');
    assert.doesNotMatch(html, /https?:\/\//, 'nothing is loaded from elsewhere');
    for (const asset of assets) {
      const response = await app.request(asset, { headers: { 'accept-encoding': 'gzip' } });
      assert.equal(response.status, 200, asset);
      assert.equal(response.headers.get('cache-control'), 'public, max-age=31536000, immutable', asset);
      assert.match(response.headers.get('content-type')!, /^text\/(javascript|css)/, asset);
      await response.arrayBuffer();
    }
    const bundle = assets.find((asset) => asset.includes('swagger-ui-bundle'))!;
    const zipped = await app.request(bundle, { headers: { 'accept-encoding': 'gzip, br' } });
    assert.equal(zipped.headers.get('content-encoding'), 'gzip');
    assert.equal(zipped.headers.get('vary'), 'Accept-Encoding');
    const length = Number(zipped.headers.get('content-length'));
    assert.ok(length > 0 && length < 700_000, `the bundle is sent gzipped (${length} bytes)`);
    const revalidated = await app.request(bundle, { headers: { 'accept-encoding': 'gzip', 'if-none-match': zipped.headers.get('etag')! } });
    assert.equal(revalidated.status, 304);
    await zipped.arrayBuffer();
  });

  test('an unknown asset is a JSON 404', async () => {
    for (const path of [
      '/docs/assets/swagger-ui-bundle.js',
      '/docs/assets/..%2Fpackage.json',
      '/admin/assets/main.ts',
      '/admin/assets/manifest.json',
      '/admin/assets/http/mount.js',
    ]) {
      const response = await app.request(path);
      assert.equal(response.status, 404, path);
      assert.deepEqual(await response.json(), { success: false, error: 'Not found', code: 'not_found' });
    }
  });
});

describe('the reference page in a browser', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.close());

  test('shows every operation, loading nothing from another origin and breaking no rule of its policy', async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const record = recordPage(page);
      await page.goto(`${app.url}/docs`);
      await page.waitForSelector('.opblock');
      const document = OpenApiDocument.parse(await (await app.request('/openapi.json')).json());
      const operations = Object.values(document.paths).reduce((n, ops) => n + Object.keys(ops).length, 0);
      assert.equal(await page.locator('.opblock').count(), operations);
      assert.equal(await page.locator('.opblock-summary-path', { hasText: '/api/admin/notify/send' }).count(), 1);
      for (const url of record.urls) assert.ok(url.startsWith(app.url), `${url} is of this origin`);
      assert.deepEqual(record.errors, []);
      assert.deepEqual(
        record.console.filter((line) => line.startsWith('error')),
        [],
        'no console errors (a CSP violation would be one)',
      );
      await screenshot(page, 'api-reference', 'docs');
    } finally {
      await browser.close();
    }
  });
});
