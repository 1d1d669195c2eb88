import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { ENDPOINTS, type EndpointPath } from '../src/client/endpoints.ts';
import { readAnswer, type Success, type SuccessCheck } from './helpers/answers.ts';
import { ADMIN_TOKEN } from './helpers/app.ts';
import { startHttpReceiver, type HttpReceiver } from './helpers/http-receiver.ts';
import { loadContract, type Contract } from './helpers/openapi-contract.ts';
import { createTestDatabase } from './helpers/postgres.ts';
import { EmailApiBody, SlackBody } from './helpers/sent-bodies.ts';
import { startServiceProcess, type ServiceProcess } from './helpers/service-process.ts';
import { waitUntil } from './helpers/wait.ts';

// The deployment docs/operations.md recommends: one PostgreSQL, several stateless instances behind a load
// balancer (TRUST_PROXY=true), sharing the rate limit's counts in PostgreSQL, each with the same admin token and unsubscribe secret. Two real
// `node src/main.ts` processes, started together on one new database, driven in turn.

// Twenty: the Idempotency-Key test sends its key twenty times from one client.
const RATE_LIMIT = 20;

let databaseUrl: string;
let receiver: HttpReceiver;
let a: ServiceProcess;
let b: ServiceProcess;

/** Each request comes from its own client address (as the proxy reports it), unless one is given. */
let nextClient = 1;
const client = () => `198.51.100.${nextClient++ % 250}`;
const post = (service: ServiceProcess, path: string, body: unknown, from = client()) =>
  service.request(path, { method: 'POST', headers: { 'x-forwarded-for': from }, body: JSON.stringify(body) });

let contract: Contract;
/** Answers are checked against the OpenAPI document, as the services run in processes of their own. */
const check: SuccessCheck = (path, status, body) => contract.check(ENDPOINTS[path].method, path, status, body);
/** The success `service` answers to a POST to `path` (an admin endpoint's with the token). */
async function call<P extends EndpointPath>(service: ServiceProcess, path: P, body: unknown): Promise<Success<P>> {
  const response = ENDPOINTS[path].admin ? await service.admin(path, body) : await post(service, path, body);
  return (await readAnswer(check, path, response)).success();
}

before(async () => {
  databaseUrl = await createTestDatabase();
  receiver = await startHttpReceiver();
  const env = {
    DATABASE_URL: databaseUrl,
    APP_ENV: 'production',
    PREORDER_API_TOKEN: ADMIN_TOKEN,
    UNSUBSCRIBE_SECRET: 'the-same-secret-on-every-instance',
    TRUST_PROXY: 'true',
    SHUTDOWN_DRAIN_SECONDS: '1',
    RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT),
    PUBLIC_BASE_URL: 'https://tenpo.shop.example.jp',
    STOREFRONT_URL: 'https://shop.example.jp',
    EMAIL_PROVIDER_API_KEY: 're_test',
    EMAIL_API_URL: `${receiver.url}/emails`,
    RESERVATION_WEBHOOK_URL: `${receiver.url}/reservation`,
    RESTOCK_WEBHOOK_URL: `${receiver.url}/restock`,
    PUBLIC_WEBHOOK_URL: `${receiver.url}/public`,
  };
  // Started together on an empty database: both migrate at once.
  [a, b] = await Promise.all([startServiceProcess({ env }), startServiceProcess({ env })]);
  contract = await loadContract(a.url);
});

after(async () => {
  await Promise.all([a?.stop('SIGKILL'), b?.stop('SIGKILL')]);
  await receiver?.close();
});

describe('two instances on one PostgreSQL', () => {
  test('started together, they ran each migration once (under the advisory lock)', async () => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ name: string }>('select name from kysely_migration order by name');
      const names = rows.map((r) => r.name);
      assert.ok(names.length >= 3, names.join());
      assert.equal(new Set(names).size, names.length);
      assert.ok(names.includes('001-initial'));
    } finally {
      await client.end();
    }
    for (const service of [a, b]) assert.ok(!service.logs().some((line) => Number(line.level) >= 50), service.stdout.slice(0, 2000));
  });

  test('they share the data: a reservation made on A is listed, moved and archived on B, and A sees it all', async () => {
    const { reservationId: id } = await call(a, '/api/reservation', {
      name: '二台 太郎',
      email: 'two@example.com',
      productSlug: 'kumo-vco-2',
    });
    const onB = await call(b, '/api/admin-reservations-list', { productSlug: 'kumo-vco-2' });
    assert.equal(onB.reservations.find((r) => r.id === id)?.status, 'pending');

    await call(b, '/api/admin-reservations-status', { id, productSlug: 'kumo-vco-2', status: 'confirmed', notes: 'B で確認' });
    const onA = (await call(a, '/api/admin-reservations-list', {})).reservations.find((r) => r.id === id);
    assert.deepEqual([onA?.status, onA?.notes], ['confirmed', 'B で確認']);

    await call(a, '/api/admin/reservations/archive', { ids: [{ id, productSlug: 'kumo-vco-2' }] });
    const archivedOnB = await call(b, '/api/admin/reservations/archives/list', {});
    assert.deepEqual(
      archivedOnB.reservations.map((r) => r.id),
      [id],
    );
  });

  test('both dispatchers claim from one outbox and no message is sent twice', async () => {
    // What earlier tests queued is delivered first, so that only this test's messages are counted.
    await waitUntil(async () => (await call(a, '/api/admin/messages/list', { status: 'pending' })).total === 0, {
      what: 'the outbox drained',
    });
    await receiver.quiet();
    receiver.requests.length = 0;
    receiver.delayAnswers(20); // a backlog both dispatchers work at
    const ids = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const service = i % 2 === 0 ? a : b;
        return (
          await call(service, '/api/reservation', { name: `客 ${i}`, email: `buyer${i}@example.com`, productSlug: 'hayate-wavefolder' })
        ).reservationId;
      }),
    );
    await receiver.waitForAccepted(40, '/emails', 20_000);
    await receiver.waitForAccepted(40, '/reservation', 20_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    receiver.delayAnswers(0);

    const emailKeys = receiver.accepted('/emails').map((r) => String(r.headers['idempotency-key']));
    assert.deepEqual(
      emailKeys.sort(),
      ids.map((id) => `reservation/${id}/confirmation-email`).sort(),
      'one email per reservation, each once',
    );
    const chats = receiver.accepted('/reservation').map((r) => /res_[0-9a-f-]{36}/.exec(SlackBody.parse(r.body).text)?.[0]);
    assert.deepEqual(chats.sort(), [...ids].sort(), 'one chat notice per reservation, each once');
    assert.equal(receiver.requests.length, 80, 'nothing else was sent');
  });

  test('confirmations the provider put off, then cancelled: superseded once, by one instance or the other, and sent by neither', async () => {
    receiver.requests.length = 0;
    const count = 10;
    // Each confirmation's first attempt is put off for 3 s (the provider's Retry-After); the
    // reservations are cancelled meanwhile, so the next attempt, on either instance, finds them untrue.
    receiver.failNext(count, 503, { path: '/emails', headers: { 'Retry-After': '3' } });
    const ids = await Promise.all(
      Array.from({ length: count }, async (_, i) => {
        const service = i % 2 === 0 ? a : b;
        return (await call(service, '/api/reservation', { name: `客 ${i}`, email: `late${i}@example.com`, productSlug: 'kumo-vco-2' }))
          .reservationId;
      }),
    );
    await waitUntil(() => receiver.requests.filter((r) => r.path === '/emails' && r.status === 503).length === count, {
      what: 'every confirmation put off',
    });
    await Promise.all(
      ids.map((id, i) =>
        call(i % 2 === 0 ? b : a, '/api/admin-reservations-status', { id, productSlug: 'kumo-vco-2', status: 'cancelled' }),
      ),
    );
    await receiver.waitForAccepted(count, '/emails', 20_000);
    const superseded = await waitUntil(
      async () => {
        const listed = await call(a, '/api/admin/messages/list', { status: 'superseded', pageSize: 100 });
        const ours = listed.messages.filter((m) => ids.includes(m.recordId ?? ''));
        return ours.length === count ? ours : undefined;
      },
      { what: 'every confirmation superseded', timeoutMs: 20_000 },
    );
    assert.deepEqual(new Set(superseded.map((m) => m.kind)), new Set(['reservation-received']));
    const sentKeys = receiver.accepted('/emails').map((r) => String(r.headers['idempotency-key']));
    assert.equal(sentKeys.length, count);
    assert.ok(
      sentKeys.every((key) => key.includes('/reservation-cancelled/')),
      'only the cancellations went',
    );
    const supersededBy = async (service: ServiceProcess) => {
      const text = await (await service.request('/metrics', { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).text();
      return Number(/tenpo_outbox_delivery_attempts_total\{channel="email",outcome="superseded"\} (\d+)/.exec(text)?.[1] ?? 0);
    };
    assert.equal((await supersededBy(a)) + (await supersededBy(b)), count, 'each superseded once, between the two');
  });

  test('the shop’s details saved on A are what B reads and what every email says from then on, whichever instance sends it', async () => {
    const saved = await call(a, '/api/admin/shop/update', {
      name: 'テンポ楽器',
      contactEmail: 'shop@tenpo.example',
      address: '東京都渋谷区',
    });
    assert.deepEqual((await call(b, '/api/admin/shop/get', {})).shop, saved.shop);
    receiver.requests.length = 0;
    const ids = await Promise.all(
      [a, b, a, b].map(
        async (service, i) =>
          (await call(service, '/api/reservation', { name: `客 ${i}`, email: `shop${i}@example.com`, productSlug: 'kumo-vco-2' }))
            .reservationId,
      ),
    );
    const emails = await receiver.waitForAccepted(ids.length, '/emails', 20_000);
    for (const email of emails) {
      const body = EmailApiBody.parse(email.body);
      assert.ok(body.text.endsWith('\n\nテンポ楽器\n東京都渋谷区\nメール: shop@tenpo.example\n'), body.text);
      assert.equal(body.headers?.['Reply-To'], 'shop@tenpo.example');
    }
  });

  test('searches on either instance land in one keyword log', async () => {
    const stamp = Date.now().toString(36);
    await a.request(`/api/search?q=${encodeURIComponent(`シンセ ${stamp}a`)}`);
    await b.request(`/api/search?q=${encodeURIComponent(`フィルター ${stamp}b`)}`);
    // Each instance writes its searches in batches, at least once a second.
    for (const service of [a, b]) {
      const keywords = await waitUntil(
        async () => {
          const { logs } = (await readAnswer(check, '/api/keyword-logs', await service.request('/api/keyword-logs?limit=50'))).success();
          const found = logs.map((l) => l.keyword).filter((k) => k.endsWith(stamp + 'a') || k.endsWith(stamp + 'b'));
          return found.length === 2 ? found.sort() : undefined;
        },
        { what: 'both searches in the log' },
      );
      assert.deepEqual(keywords, [`シンセ ${stamp}a`, `フィルター ${stamp}b`]);
    }
  });

  test('a restock signup on B, the send on A, and the email’s unsubscribe link works on B (same secret everywhere)', async () => {
    const { subscriptionId } = await call(b, '/api/notify', { email: 'waiting@example.com', productSlug: 'tsuki-dual-lfo' });
    assert.deepEqual(await call(a, '/api/admin/notify/send', { productSlug: 'tsuki-dual-lfo' }), {
      success: true,
      notifiedCount: 1,
      remaining: 0,
    });
    const email = await waitUntil(
      () => receiver.accepted('/emails').find((r) => String(r.headers['idempotency-key']).includes(subscriptionId)),
      { what: 'the restock email' },
    );
    const link = /^<(.+)>$/.exec(EmailApiBody.parse(email.body).headers?.['List-Unsubscribe'] ?? '')![1]!;
    const { pathname, search } = new URL(link);
    const unsubscribe = await b.request(pathname + search, { method: 'POST' });
    assert.equal(unsubscribe.status, 200);
    const onA = (await call(a, '/api/admin-notify-list', { productSlug: 'tsuki-dual-lfo' })).subscriptions.find(
      (s) => s.id === subscriptionId,
    );
    assert.equal(onA?.status, 'unsubscribed');
  });

  test('the rate limit is one budget across instances: requests to A and B, to either endpoint, draw on it together', async () => {
    const customer = '203.0.113.77';
    const statuses = [];
    // Alternating instances and endpoints; invalid bodies count too: 400 within the budget, 429 past it.
    for (let i = 0; i < RATE_LIMIT + 2; i++) {
      const response = await post(i % 2 === 0 ? a : b, i % 3 === 0 ? '/api/notify' : '/api/reservation', {}, customer);
      statuses.push(response.status);
      if (response.status === 429) {
        assert.deepEqual(await response.json(), {
          success: false,
          error: 'リクエストが多すぎます。しばらくしてから再度お試しください',
          code: 'too_many_requests',
        });
        const retryAfter = Number(response.headers.get('retry-after'));
        assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, String(retryAfter));
      } else await response.body?.cancel();
    }
    assert.deepEqual(statuses, [...Array(RATE_LIMIT).fill(400), 429, 429]);
    // Another client still has its whole budget, on either instance.
    assert.equal((await post(b, '/api/notify', {}, '203.0.113.78')).status, 400);
  });

  test('one Idempotency-Key sent twenty times at once, half to A and half to B: one reservation, one email, one chat notice', async () => {
    const customer = '203.0.113.90';
    const body = { name: '同時 太郎', email: 'both-instances@example.com', productSlug: 'kumo-vco-2' };
    const answers = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const response = await (i % 2 === 0 ? a : b).request('/api/reservation', {
          method: 'POST',
          headers: { 'x-forwarded-for': customer, 'idempotency-key': 'one-order-two-instances' },
          body: JSON.stringify(body),
        });
        return (await readAnswer(check, '/api/reservation', response)).success().reservationId;
      }),
    );
    assert.equal(new Set(answers).size, 1, 'every answer names the same reservation');
    const [id] = answers;
    const listed = await call(b, '/api/admin-reservations-list', { q: 'both-instances@example.com' });
    assert.deepEqual(
      listed.reservations.map((r) => r.id),
      [id],
    );
    const about = () => [
      receiver.accepted('/emails').filter((r) => r.headers['idempotency-key'] === `reservation/${id}/confirmation-email`).length,
      receiver.accepted('/reservation').filter((r) => SlackBody.parse(r.body).text.includes(id!)).length,
    ];
    await waitUntil(() => about().every((count) => count >= 1), { what: 'the email and the chat notice' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.deepEqual(about(), [1, 1]);
  });

  test('failed admin authentications are one count across instances: 20 spread over A and B trip the 429 on both', async () => {
    const guesser = '203.0.113.91';
    const attempt = (service: ServiceProcess, token: string, from = guesser) =>
      service.request('/api/admin-dashboard-stats', {
        method: 'POST',
        headers: { 'x-forwarded-for': from, authorization: `Bearer ${token}` },
        body: '{}',
      });
    for (let i = 0; i < 19; i++) assert.equal((await attempt(i % 2 === 0 ? a : b, `wrong-${i}`)).status, 401, `failure ${i + 1}`);
    assert.equal((await attempt(a, ADMIN_TOKEN)).status, 200, 'below the limit the right token still works');
    assert.equal((await attempt(b, 'wrong-20')).status, 401, 'the twentieth failure');
    for (const service of [a, b]) {
      for (const token of [ADMIN_TOKEN, 'wrong-again']) {
        const refused = await attempt(service, token);
        assert.equal(refused.status, 429, `${service === a ? 'A' : 'B'} with ${token === ADMIN_TOKEN ? 'the right' : 'a wrong'} token`);
        assert.deepEqual(await refused.json(), {
          success: false,
          error: 'Too many failed authentications',
          code: 'too_many_failed_authentications',
        });
        const retryAfter = Number(refused.headers.get('retry-after'));
        assert.ok(retryAfter >= 1 && retryAfter <= 60, String(retryAfter));
      }
      assert.equal((await attempt(service, ADMIN_TOKEN, '203.0.113.92')).status, 200, 'another client is let in');
    }
  });

  test('a staff session made on A works on B; a disable on A signs it out on B, a sign-out on B on A; an address’s failed sign-ins are one count', async () => {
    const origin = 'https://tenpo.shop.example.jp';
    const signIn = async (service: ServiceProcess, email: string, password: string) => {
      const answer = await service.request('/api/admin/session', {
        method: 'POST',
        headers: { origin, 'x-forwarded-for': client() },
        body: JSON.stringify({ email, password }),
      });
      return { status: answer.status, cookie: answer.headers.get('set-cookie')?.split(';')[0] ?? '' };
    };
    const asked = (service: ServiceProcess, cookie: string) =>
      service.request('/api/admin/session/get', { method: 'POST', headers: { cookie, origin, 'x-forwarded-for': client() }, body: '{}' });
    const { staff } = await call(a, '/api/admin/staff/create', {
      email: 'shared@example.jp',
      name: '共有 花子',
      role: 'staff',
      password: 'one password, two instances',
    });
    const first = await signIn(a, 'shared@example.jp', 'one password, two instances');
    const second = await signIn(b, 'shared@example.jp', 'one password, two instances');
    assert.deepEqual([first.status, second.status], [200, 200]);
    assert.equal((await asked(b, first.cookie)).status, 200, 'made on A, accepted on B');
    assert.equal((await asked(a, second.cookie)).status, 200, 'made on B, accepted on A');

    const end = await b.request('/api/admin/session/end', { method: 'POST', headers: { cookie: second.cookie, origin }, body: '{}' });
    assert.equal(end.status, 200);
    assert.equal((await asked(a, second.cookie)).status, 401, 'ended on B, refused on A');

    await call(a, '/api/admin/staff/update', { id: staff.id, disabled: true });
    assert.equal((await asked(b, first.cookie)).status, 401, 'disabled on A, signed out on B');

    // Ten failures spread over A and B lock the address on both.
    const statuses = [];
    for (let i = 0; i < 11; i++) statuses.push((await signIn(i % 2 === 0 ? a : b, 'locked@example.jp', `guess ${i}`)).status);
    assert.deepEqual(statuses, [...Array(10).fill(401), 429]);
    assert.equal((await signIn(b, 'locked@example.jp', 'guess 11')).status, 429);
  });

  test('SIGTERM stops one instance cleanly while the other goes on, delivering what is queued', async () => {
    receiver.requests.length = 0;
    const stopping = a.stop();
    // First the load balancer is told (readiness fails) while A still serves what it is sent.
    const readyz = await waitUntil(
      async () => {
        const answer = await a.request('/readyz');
        return answer.status === 503 ? answer : undefined;
      },
      { what: "A's /readyz to fail" },
    );
    assert.deepEqual(await readyz.json(), { status: 'draining' });
    assert.equal((await a.request('/livez')).status, 200);
    const late = await call(a, '/api/reservation', { name: '最後 の客', email: 'late@example.com', productSlug: 'kumo-vco-2' });
    const onB = await call(b, '/api/reservation', { name: '残り 一台', email: 'last@example.com', productSlug: 'kumo-vco-2' });
    assert.deepEqual(await stopping, { code: 0, signal: null });
    const lines = a.logs().filter((line) => line.msg !== 'request' || line.path !== '/readyz');
    assert.deepEqual(
      lines.slice(-2).map((line) => line.msg),
      ['shutting down', 'stopped'],
    );
    const emails = await receiver.waitForAccepted(2, '/emails');
    assert.deepEqual(
      emails.map((email) => email.headers['idempotency-key']).sort(),
      [late, onB].map(({ reservationId }) => `reservation/${reservationId}/confirmation-email`).sort(),
    );
    assert.equal((await b.request('/healthz')).status, 200);
  });
});
