import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import type { DispatcherTimings } from '../src/messaging/delivery/dispatcher.ts';
import type { Work } from '../src/db/group-commit.ts';
import { signUp as signUpDomain } from '../src/subscriptions/signup.ts';
import { ADMIN_TOKEN, DIALECTS, startTestApp, type TestApp } from './helpers/app.ts';
import { startEmailTestApp } from './helpers/email-app.ts';
import type { HttpReceiver } from './helpers/http-receiver.ts';
import { startPostgres } from './helpers/postgres.ts';
import { addressAndSlugRefusals, invalidInputTests, publicFormRules } from './helpers/public-form.ts';
import { SlackBody } from './helpers/sent-bodies.ts';
import { formatJapanTime } from '../src/text/japan-format.ts';
import { settle, waitUntil } from './helpers/wait.ts';

// POST /api/notify, the public restock signup, over real HTTP on both dialects.

const JA = {
  invalidInput: '入力内容に誤りがあります',
  email: '有効なメールアドレスを入力してください',
  productSlug: '商品の指定が正しくありません',
  productNotFound: '指定された商品が見つかりません',
  tooMany: 'リクエストが多すぎます。しばらくしてから再度お試しください',
  serverError: 'サーバーエラーが発生しました。しばらくしてから再度お試しください',
};
const SUBSCRIPTION_ID = /^ntf_\d{13}-[a-z0-9]{10}$/;
const FAST: Partial<DispatcherTimings> = { pollIntervalMs: 25, retryBaseMs: 40, retryCapMs: 150, leaseMs: 5_000, maxAttempts: 5 };
const WEBHOOK_PATH = '/hooks/restock';
const valid = { email: 'taro@example.com', productSlug: 'kumo-vco-2' };

const post = (app: TestApp, body: unknown, headers?: Record<string, string>) => app.post('/api/notify', body, headers);

// The service's own address is not the shop's: a public form refuses posts from it.
const ORIGINS = { PRODUCTION_ORIGIN: 'https://shop.example.jp', PUBLIC_BASE_URL: 'https://tenpo.example.jp' };

for (const dialect of DIALECTS) {
  describe(`POST /api/notify (${dialect})`, () => {
    let app: TestApp;
    let api: HttpReceiver;
    let close: () => Promise<void>;
    before(async () => {
      ({ app, api, close } = await startEmailTestApp({ dialect, webhooks: ['restock'], env: ORIGINS, dispatcher: FAST }));
    });
    after(() => close());
    beforeEach(async () => {
      await app.services.database.db.deleteFrom('subscriptions').execute();
      await app.services.database.db.deleteFrom('outbox').execute();
    });
    afterEach(() => {
      api.requests.length = 0;
    });

    const subscriptions = async () =>
      app.services.database.db.selectFrom('subscriptions').selectAll().orderBy('created_at').orderBy('id').execute();
    const chatMessages = async () => app.services.database.db.selectFrom('outbox').selectAll().where('channel', '=', 'chat').execute();
    const signUp = async (body: object = valid) => (await app.read('/api/notify', await post(app, body))).success().subscriptionId;
    const setStatus = (id: string, status: string, productSlug = 'kumo-vco-2') =>
      app.admin('/api/admin-notify-status', { id, productSlug, status });

    test('stores a pending subscription and answers its ntf_<ms>-<10 [a-z0-9]> id', async () => {
      const before = Date.now();
      const body = (
        await app.read('/api/notify', await post(app, { email: '  Hanako.Yamada+shop@Example.CO.JP ', productSlug: 'kumo-vco-2' }))
      ).success();
      assert.deepEqual(Object.keys(body), ['success', 'subscriptionId']);
      assert.equal(body.success, true);
      assert.match(body.subscriptionId, SUBSCRIPTION_ID);
      const ms = Number(body.subscriptionId.slice(4, 17));
      assert.ok(ms >= before && ms <= Date.now());
      const [row] = await subscriptions();
      assert.deepEqual(
        { ...row, created_at: undefined, updated_at: undefined },
        {
          id: body.subscriptionId,
          email: 'hanako.yamada+shop@example.co.jp',
          product_slug: 'kumo-vco-2',
          status: 'pending',
          created_at: undefined,
          updated_at: undefined,
          notified_at: null,
          archived_at: null,
        },
      );
      assert.equal(row!.created_at, new Date(ms).toISOString());
      assert.equal(row!.updated_at, row!.created_at);
    });

    test('a second signup while one is pending answers the same id and creates nothing, whatever the case of the address', async () => {
      const first = await signUp();
      assert.equal(await signUp({ ...valid, email: ' TARO@Example.com' }), first);
      assert.equal((await subscriptions()).length, 1);
      assert.equal((await chatMessages()).length, 1, 'one chat notice, for the one subscription');
    });

    test('twenty identical signups at once: one subscription, one id for all, one chat notice', async () => {
      const answers = await Promise.all(
        Array.from({ length: 20 }, async () => (await app.read('/api/notify', await post(app, valid))).success()),
      );
      const ids = new Set(answers.map((a) => a.subscriptionId));
      assert.equal(ids.size, 1);
      const rows = await subscriptions();
      assert.deepEqual(
        rows.map((r) => r.id),
        [...ids],
      );
      assert.equal((await chatMessages()).length, 1);
    });

    test('twenty signups racing in twenty transactions of their own (no group commit): still one subscription', async () => {
      const { database, catalog, messaging } = app.services;
      const deps = {
        catalog,
        messaging,
        transaction: <R>(work: Work<R>) => database.db.transaction().execute(work),
        wakeDispatcher: () => {},
      };
      const results = await Promise.all(Array.from({ length: 20 }, () => signUpDomain(deps, valid, new Date())));
      const rows = await subscriptions();
      assert.equal(rows.length, 1);
      assert.ok(results.every((r) => r.ok && r.subscriptionId === rows[0]!.id));
      assert.equal(results.filter((r) => r.ok && r.created).length, 1);
      assert.equal((await chatMessages()).length, 1);
    });

    test('twenty concurrent signups of two addresses and two products: one subscription per pair', async () => {
      const bodies = Array.from({ length: 20 }, (_, i) => ({
        email: i % 2 ? 'a@example.com' : 'B@example.com',
        productSlug: i % 4 < 2 ? 'kumo-vco-2' : 'tsuki-dual-lfo',
      }));
      const ids = await Promise.all(bodies.map(async (body) => (await app.read('/api/notify', await post(app, body))).success()));
      const rows = await subscriptions();
      assert.equal(rows.length, 4);
      bodies.forEach((body, i) => {
        const row = rows.find((r) => r.email === body.email.toLowerCase() && r.product_slug === body.productSlug);
        assert.equal(ids[i]!.subscriptionId, row?.id);
      });
    });

    test('other products and other addresses get their own subscriptions', async () => {
      const ids = [
        await signUp(),
        await signUp({ ...valid, productSlug: 'tsuki-dual-lfo' }),
        await signUp({ ...valid, email: 'hanako@example.com' }),
      ];
      assert.equal(new Set(ids).size, 3);
    });

    test('once the pending one is notified, unsubscribed or archived, a signup makes a new pending subscription', async () => {
      const first = await signUp();
      assert.equal((await setStatus(first, 'notified')).status, 200);
      const second = await signUp();
      assert.notEqual(second, first);
      assert.equal((await setStatus(second, 'unsubscribed')).status, 200);
      const third = await signUp();
      assert.ok(![first, second].includes(third));
      assert.equal((await app.admin('/api/admin/notify/archive', { ids: [{ id: third, productSlug: 'kumo-vco-2' }] })).status, 200);
      const fourth = await signUp();
      assert.ok(![first, second, third].includes(fourth));
      assert.equal(await signUp(), fourth);
      assert.deepEqual(
        (await subscriptions()).map((r) => r.status),
        ['notified', 'unsubscribed', 'pending', 'pending'],
      );
    });

    test('the restock chat notice arrives with product, address, id and time, its time said once', async () => {
      const id = await signUp();
      // A notice of an earlier test's signup may still arrive (it was under way when that test
      // ended): this one is the notice naming this signup.
      const naming = () => api.accepted(WEBHOOK_PATH).filter((r) => SlackBody.parse(r.body).text.includes(id));
      const [chat] = await waitUntil(() => (naming().length > 0 ? naming() : undefined), { what: 'the chat notice of this signup' });
      assert.deepEqual(Object.keys(chat!.body as object), ['text', 'mrkdwn', 'blocks']);
      const notice = SlackBody.parse(chat!.body);
      for (const expected of ['Kumo VCO II', 'kumo-vco-2', 'taro@example.com', id]) assert.ok(notice.text.includes(expected), expected);
      const [row] = await subscriptions();
      const time = formatJapanTime(row!.created_at);
      assert.ok(
        notice.blocks[1]?.fields?.some((field) => field.text === `登録日時\n${time}`),
        'in Japan time, as 登録日時',
      );
      assert.equal(notice.text.split(time).length - 1, 1, `the time once in the text: ${notice.text}`);
      assert.equal(JSON.stringify(notice.blocks).split(time).length - 1, 1, 'and once in the blocks');
      assert.equal(
        notice.blocks[2]?.text?.text,
        `<${app.services.config.publicBaseUrl}/admin#/subscriptions?record=${id}|管理画面で登録を開く>`,
      );
      await signUp();
      await settle(200);
      assert.equal(naming().length, 1, 'a repeated signup sends no second notice');
    });

    describe('invalid input → 400 with the Japanese message and per-field details', () => {
      const cases: [string, unknown, Record<string, string>][] = [
        ['nothing', {}, { email: JA.email, productSlug: JA.productSlug }],
        ['wrong types', { email: ['a@b.co'], productSlug: { slug: 'kumo-vco-2' } }, { email: JA.email, productSlug: JA.productSlug }],
        ['nulls', { email: null, productSlug: null }, { email: JA.email, productSlug: JA.productSlug }],
        ['numbers and booleans', { email: 42, productSlug: true }, { email: JA.email, productSlug: JA.productSlug }],
        ...addressAndSlugRefusals(valid),
        ['only __proto__', JSON.parse(`{"__proto__": ${JSON.stringify(valid)}}`), { email: JA.email, productSlug: JA.productSlug }],
      ];
      invalidInputTests({ app: () => app, path: '/api/notify', table: 'subscriptions' }, cases);
    });

    test('an address of 254 characters is accepted, and a name field is simply ignored', async () => {
      const email = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(58)}.jp`;
      assert.equal([...email].length, 254);
      assert.equal((await post(app, { ...valid, email, name: 'ignored' })).status, 200);
    });

    publicFormRules({ app: () => app, path: '/api/notify', valid, table: 'subscriptions' });

    test('the body is parsed as JSON whatever Content-Type says', async () => {
      assert.equal((await post(app, valid, { 'content-type': 'text/plain' })).status, 200);
    });

    test('other methods → 405 with Allow', async () => {
      for (const method of ['GET', 'PUT', 'DELETE']) {
        const response = await app.request('/api/notify', { method });
        assert.equal(response.status, 405);
        assert.equal(response.headers.get('allow'), 'POST, OPTIONS');
      }
    });

    test('CORS: the shop origin is echoed, others get nothing; the preflight answers 204', async () => {
      assert.equal(
        (await post(app, valid, { origin: 'https://shop.example.jp' })).headers.get('access-control-allow-origin'),
        'https://shop.example.jp',
      );
      assert.equal((await post(app, valid, { origin: 'https://evil.example' })).headers.get('access-control-allow-origin'), null);
      const preflight = await app.request('/api/notify', {
        method: 'OPTIONS',
        headers: { origin: 'http://shop.localhost:34434', 'access-control-request-method': 'POST' },
      });
      assert.equal(preflight.status, 204);
      assert.equal(preflight.headers.get('access-control-allow-origin'), 'http://shop.localhost:34434');
    });

    test('the admin token is not needed, and not looked at', async () => {
      assert.equal((await post(app, valid, { authorization: 'Bearer wrong' })).status, 200);
      assert.equal((await post(app, valid, { authorization: `Bearer ${ADMIN_TOKEN}` })).status, 200);
    });
  });
}

for (const dialect of DIALECTS) {
  describe(`the rate limit of POST /api/notify (${dialect}: ${dialect === 'postgres' ? 'counted in PostgreSQL' : 'counted in memory'})`, () => {
    test('is the very budget of POST /api/reservation: every request to either counts, refused ones too', async () => {
      const app = await startTestApp({ dialect, env: { RATE_LIMIT_PER_MINUTE: '4' } });
      try {
        const reserve = () => app.request('/api/reservation', { method: 'POST', body: JSON.stringify({ name: '山田', ...valid }) });
        assert.equal((await reserve()).status, 200);
        assert.equal((await post(app, valid)).status, 200);
        assert.equal((await post(app, { email: 'x' })).status, 400);
        assert.equal((await reserve()).status, 200);
        for (const response of [await post(app, valid), await reserve()]) {
          assert.equal(response.status, 429);
          assert.deepEqual(await response.json(), { success: false, error: JA.tooMany, code: 'too_many_requests' });
          const retryAfter = Number(response.headers.get('retry-after'));
          assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, String(retryAfter));
        }
        if (dialect === 'postgres') {
          const { rows } = await sql<{ key: string; points: number }>`select key, points from rate_limits`.execute(
            app.services.database.db,
          );
          assert.deepEqual(rows, [{ key: 'public-writes:127.0.0.1', points: 6 }], 'one shared count per client');
        }
      } finally {
        await app.close();
      }
    });
  });
}

test('PostgreSQL down: the limit still answers, counting in memory, and the form answers the 500 envelope', async () => {
  const cluster = await startPostgres();
  after(() => cluster.stop());
  const app = await startTestApp({ env: { DATABASE_URL: cluster.url, RATE_LIMIT_PER_MINUTE: '2' } });
  after(() => app.close());
  await cluster.pause();
  const down = [];
  for (let i = 0; i < 3; i++) {
    const response = await post(app, valid);
    down.push([response.status, (await app.read('/api/notify', response)).failure().error]);
  }
  assert.deepEqual(down, [
    [500, JA.serverError],
    [500, JA.serverError],
    [429, JA.tooMany],
  ]);
  await cluster.resume();
});
