import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { ADMIN_TOKEN, DIALECTS, startTestApp, type TestApp } from './helpers/app.ts';
import { addressAndSlugRefusals, invalidInputTests, publicFormRules } from './helpers/public-form.ts';

// POST /api/reservation over real HTTP on both dialects: validation and its Japanese messages, the
// outbox written with the reservation, the rate limit and the rules every route keeps.

const JA = {
  invalidInput: '入力内容に誤りがあります',
  name: 'お名前を入力してください',
  email: '有効なメールアドレスを入力してください',
  productSlug: '商品の指定が正しくありません',
  productNotFound: '指定された商品が見つかりません',
  serverError: 'サーバーエラーが発生しました。しばらくしてから再度お試しください',
  tooMany: 'リクエストが多すぎます。しばらくしてから再度お試しください',
};
const RESERVATION_ID = /^res_[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const valid = { name: '山田 太郎', email: 'taro@example.com', productSlug: 'kumo-vco-2' };

const post = (app: TestApp, body: unknown, headers?: Record<string, string>) => app.post('/api/reservation', body, headers);

for (const dialect of DIALECTS) {
  describe(`POST /api/reservation (${dialect})`, () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp({ dialect, env: { RATE_LIMIT_PER_MINUTE: '0', PRODUCTION_ORIGIN: 'https://shop.example.jp' } });
    });
    after(() => app.close());

    const active = async () => (await app.call('/api/admin-reservations-list', {})).success();
    const reserve = async (body: unknown) => (await app.read('/api/reservation', await post(app, body))).success();

    test('stores the reservation and answers its res_<uuid v7> id', async () => {
      const body = await reserve({ name: '  山田 花子  ', email: '  Hanako.Yamada+shop@Example.CO.JP ', productSlug: 'kumo-vco-2' });
      assert.deepEqual(Object.keys(body), ['success', 'reservationId', 'reservationNumber']);
      assert.equal(body.success, true);
      assert.match(body.reservationId, RESERVATION_ID);
      assert.ok(Number.isInteger(body.reservationNumber) && body.reservationNumber! >= 1001, String(body.reservationNumber));
      const stored = (await active()).reservations.find((r) => r.id === body.reservationId);
      assert.ok(stored);
      assert.deepEqual(
        { ...stored, createdAt: undefined, updatedAt: undefined },
        {
          id: body.reservationId,
          number: body.reservationNumber,
          name: '山田 花子',
          email: 'hanako.yamada+shop@example.co.jp',
          productSlug: 'kumo-vco-2',
          status: 'pending',
          notes: '',
          createdAt: undefined,
          updatedAt: undefined,
          preorderId: null,
        },
      );
      assert.equal(stored.updatedAt, stored.createdAt);
      assert.ok(Math.abs(Date.parse(stored.createdAt) - Date.now()) < 60_000);
      assert.equal(stored.createdAt, new Date(stored.createdAt).toISOString());
    });

    test('the same address may reserve the same product again; every reservation gets its own id', async () => {
      const ids = [];
      for (let i = 0; i < 3; i++) ids.push((await reserve(valid)).reservationId);
      assert.equal(new Set(ids).size, 3);
      assert.ok(ids.every((id) => RESERVATION_ID.test(id)));
    });

    test('a name of 100 characters counts code points, not UTF-16 units', async () => {
      assert.equal((await post(app, { ...valid, name: '𝄞'.repeat(100) })).status, 200);
      assert.equal((await post(app, { ...valid, name: '𝄞'.repeat(101) })).status, 400);
    });

    test('a name that carries a message of its own (a link, an address, a control, format or bidi character) is refused; nothing is stored or sent', async () => {
      const phishing = '【重要】決済が未完了です。24時間以内に https://tenpo-pay.example/jp で手続きしないと予約は無効になります。';
      for (const name of [
        phishing,
        '山田 www.example.com',
        'ＷＷＷ．ｅｘａｍｐｌｅ．ｃｏｍ',
        '山田 taro@example.com',
        '山田＠太郎',
        '\t山田\r\n太郎',
        '山田\u0000太郎',
        '山田\u2028太郎',
        '\u202e郎太田山',
        '山田\u200b太郎',
        '山田\ufeff',
      ]) {
        const response = await post(app, { ...valid, name });
        assert.equal(response.status, 400, JSON.stringify(name));
        assert.deepEqual(((await response.json()) as { details: unknown[] }).details, [{ field: 'name', message: JA.name }]);
      }
      assert.equal((await active()).reservations.filter((r) => /決済|example|太郎/.test(r.name) && r.name !== valid.name).length, 0);
      for (const name of ['山田 太郎', 'Taro Yamada', "O'Brien", '山田　太郎', 'Müller-Lüdenscheidt', '🎛️ 名前', '1st: 山田'])
        assert.equal((await post(app, { ...valid, name })).status, 200, name);
    });

    test('the body is parsed as JSON whatever Content-Type says', async () => {
      for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
        assert.equal((await post(app, valid, { 'content-type': type })).status, 200);
      }
    });

    describe('invalid input → 400 with the Japanese message and per-field details', () => {
      const cases: [string, unknown, Record<string, string>][] = [
        ['nothing', {}, { name: JA.name, email: JA.email, productSlug: JA.productSlug }],
        [
          'wrong types',
          { name: 42, email: ['a@b.co'], productSlug: { slug: 'kumo-vco-2' } },
          { name: JA.name, email: JA.email, productSlug: JA.productSlug },
        ],
        ['nulls', { name: null, email: null, productSlug: null }, { name: JA.name, email: JA.email, productSlug: JA.productSlug }],
        ['booleans', { ...valid, name: true }, { name: JA.name }],
        ['a blank name', { ...valid, name: ' \u3000\t ' }, { name: JA.name }],
        ['a name of 101 characters', { ...valid, name: 'あ'.repeat(101) }, { name: JA.name }],
        ...addressAndSlugRefusals(valid),
        [
          'only __proto__',
          JSON.parse(`{"__proto__": ${JSON.stringify(valid)}}`),
          { name: JA.name, email: JA.email, productSlug: JA.productSlug },
        ],
      ];
      invalidInputTests({ app: () => app, path: '/api/reservation', table: 'reservations' }, cases);
    });

    publicFormRules({ app: () => app, path: '/api/reservation', valid, table: 'reservations' });

    test('a body over 64 KiB sent in chunks, without Content-Length → 413 too', async () => {
      const chunk = new TextEncoder().encode(`{"padding":"${'x'.repeat(8 * 1024)}`);
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          controller.enqueue(chunk);
        },
      });
      const response = await app.request('/api/reservation', { method: 'POST', body, duplex: 'half' } as RequestInit);
      assert.equal(response.status, 413);
      assert.deepEqual(await response.json(), { success: false, error: 'Payload too large', code: 'payload_too_large' });
    });

    test('other methods → 405 with Allow', async () => {
      for (const method of ['GET', 'PUT', 'DELETE']) {
        const response = await app.request('/api/reservation', { method });
        assert.equal(response.status, 405);
        assert.equal(response.headers.get('allow'), 'POST, OPTIONS');
      }
    });

    test('CORS: the shop origin is echoed, others get nothing; the preflight answers 204', async () => {
      const shop = await post(app, valid, { origin: 'https://shop.example.jp' });
      assert.equal(shop.headers.get('access-control-allow-origin'), 'https://shop.example.jp');
      const other = await post(app, valid, { origin: 'https://evil.example' });
      assert.equal(other.headers.get('access-control-allow-origin'), null);
      const preflight = await app.request('/api/reservation', {
        method: 'OPTIONS',
        headers: {
          origin: 'http://localhost:34434',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
      });
      assert.equal(preflight.status, 204);
      assert.equal(preflight.headers.get('access-control-allow-origin'), 'http://localhost:34434');
      assert.match(preflight.headers.get('access-control-allow-methods') ?? '', /POST/);
      assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /Content-Type/);
    });

    test('the admin token is not needed, and not looked at', async () => {
      assert.equal((await post(app, valid, { authorization: 'Bearer wrong' })).status, 200);
      assert.equal((await post(app, valid, { authorization: `Bearer ${ADMIN_TOKEN}` })).status, 200);
    });
  });

  describe(`POST /api/reservation when the store fails (${dialect})`, () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp({ dialect, env: { RATE_LIMIT_PER_MINUTE: '0' } });
      await sql`drop table reservations`.execute(app.services.database.db);
    });
    after(() => app.close());

    test('→ 500 with the Japanese message, a request id, and no detail of the failure', async () => {
      const response = await post(app, valid);
      assert.equal(response.status, 500);
      const text = await response.text();
      assert.deepEqual(JSON.parse(text), { success: false, error: JA.serverError, code: 'internal_error' });
      assert.doesNotMatch(text, /reservations|sql|table|at /i);
      const requestId = response.headers.get('x-request-id');
      assert.ok(requestId);
      assert.ok(
        app.logs.some((line) => line.reqId === requestId && line.level === 50),
        'the failure is logged with the request id',
      );
    });

    test('nothing was queued for a reservation that was not stored', async () => {
      const { count } = await app.services.database.db
        .selectFrom('outbox')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow();
      assert.equal(Number(count), 0);
    });
  });
}

describe('rate limit on POST /api/reservation', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '3' } });
  });
  after(() => app.close());

  test('every request counts, refused and invalid ones too; over the budget → 429 with Retry-After', async () => {
    assert.equal((await post(app, valid)).status, 200);
    assert.equal((await post(app, { name: '' })).status, 400);
    assert.equal((await post(app, '[')).status, 400);
    for (let i = 0; i < 2; i++) {
      const response = await post(app, valid);
      assert.equal(response.status, 429);
      assert.deepEqual(await response.json(), { success: false, error: JA.tooMany, code: 'too_many_requests' });
      const retryAfter = Number(response.headers.get('retry-after'));
      assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, String(retryAfter));
    }
  });

  test('X-Forwarded-For is ignored unless TRUST_PROXY is set', async () => {
    assert.equal((await post(app, valid, { 'x-forwarded-for': '203.0.113.9' })).status, 429);
  });
});

describe('rate limit behind a trusted proxy', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '1', TRUST_PROXY: 'true' } });
  });
  after(() => app.close());

  test('each forwarded client has its own budget; the proxy-added (last) address counts', async () => {
    assert.equal((await post(app, valid, { 'x-forwarded-for': '203.0.113.1' })).status, 200);
    assert.equal((await post(app, valid, { 'x-forwarded-for': '203.0.113.1' })).status, 429);
    assert.equal(
      (await post(app, valid, { 'x-forwarded-for': '198.51.100.7, 203.0.113.1' })).status,
      429,
      'a spoofed first entry does not help',
    );
    assert.equal((await post(app, valid, { 'x-forwarded-for': '203.0.113.2' })).status, 200);
  });
});

describe('what the rate limit does not count', () => {
  test('preflights and other methods leave the budget alone', async () => {
    const app = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '1' } });
    try {
      for (let i = 0; i < 3; i++) assert.equal((await app.request('/api/reservation', { method: 'OPTIONS' })).status, 204);
      assert.equal((await app.request('/api/reservation')).status, 405);
      assert.equal((await post(app, valid)).status, 200);
      assert.equal((await post(app, valid)).status, 429);
    } finally {
      await app.close();
    }
  });
});

describe('rate limit off', () => {
  test('RATE_LIMIT_PER_MINUTE=0 never refuses', async () => {
    const app = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '0' } });
    try {
      for (let i = 0; i < 30; i++) assert.equal((await post(app, { name: '' })).status, 400);
    } finally {
      await app.close();
    }
  });
});
