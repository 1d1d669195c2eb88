import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ENDPOINTS } from '../src/client/endpoints.ts';
import { readAnswer, type SuccessCheck } from './helpers/answers.ts';
import { DIALECTS, startTestApp, type TestApp } from './helpers/app.ts';
import { loadContract, type Contract } from './helpers/openapi-contract.ts';
import type { ServiceProcess } from './helpers/service-process.ts';
import { startTwoInstances } from './helpers/two-instances.ts';

// Preorder campaigns over real HTTP on both dialects, with the service's clock set by the
// test: states change when the clock moves, not when time passes.

const NOT_YET = '予約受付開始前です';
const CLOSED = '予約受付は終了しました';
const SOLD_OUT = '予約数が上限に達しました';
const PER_CUSTOMER = 'お一人様あたりの予約数の上限に達しています';

const OPENS = '2026-12-01T01:00:00.000Z';
const CLOSES = '2026-12-10T01:00:00.000Z';

for (const dialect of DIALECTS) {
  describe(`preorder campaigns (${dialect})`, () => {
    let app: TestApp;
    const clock = { now: new Date('2026-12-05T00:00:00.000Z') };
    before(async () => {
      app = await startTestApp({
        dialect,
        now: () => clock.now,
        // Hundreds of customers at once, all from this machine's one address.
        env: { RATE_LIMIT_PER_MINUTE: '0', MAX_CONNECTIONS_PER_CLIENT: '0', PRODUCTION_ORIGIN: 'https://shop.example.jp' },
      });
    });
    after(() => app.close());

    const reserve = (productSlug: string, email = 'taro@example.com') =>
      app.request('/api/reservation', { method: 'POST', body: JSON.stringify({ name: '山田 太郎', email, productSlug }) });
    /** The reservation `reserve` took, by its id. */
    const reserved = async (productSlug: string, email?: string) =>
      (await app.read('/api/reservation', await reserve(productSlug, email))).success();
    const upsert = (body: Record<string, unknown>) => app.call('/api/admin/preorders/upsert', body);
    const campaign = async (productSlug: string) =>
      (await app.call('/api/admin/preorders/list', {})).success().preorders.find((p) => p.productSlug === productSlug);
    /** The campaign of `productSlug`, which must be there. */
    const existing = async (productSlug: string) => {
      const found = await campaign(productSlug);
      assert.ok(found, `no campaign for ${productSlug}`);
      return found;
    };
    const reservations = async (productSlug: string) =>
      (await app.call('/api/admin-reservations-list', { productSlug })).success().reservations;
    const setStatus = (id: string, productSlug: string, status: string) =>
      app.admin('/api/admin-reservations-status', { id, productSlug, status });

    test('admin routes answer 401 before reading the body', async () => {
      for (const path of ['/api/admin/preorders/list', '/api/admin/preorders/upsert', '/api/admin/preorders/delete']) {
        const response = await app.request(path, { method: 'POST', body: '{not json', headers: { authorization: 'Bearer wrong' } });
        assert.equal(response.status, 401, path);
        assert.deepEqual(await response.json(), { success: false, error: 'Unauthorized', code: 'unauthorized' });
      }
    });

    test('upsert creates with the fields left out as null, then changes only the fields given', async () => {
      const created = (await upsert({ productSlug: 'tsuki-dual-lfo', capacity: 20, opensAt: '2026-12-01T10:00:00+09:00' })).success();
      assert.equal(created.success, true);
      const { createdAt, updatedAt, id, ...rest } = created.preorder;
      assert.match(id, /^pre_[0-9a-f-]{36}$/);
      assert.equal(createdAt, clock.now.toISOString());
      assert.equal(updatedAt, createdAt);
      assert.deepEqual(rest, {
        productSlug: 'tsuki-dual-lfo',
        opensAt: OPENS,
        closesAt: null,
        capacity: 20,
        perCustomerLimit: null,
        shipsIn: null,
        note: null,
        reserved: 0,
        remaining: 20,
        state: 'open',
      });
      clock.now = new Date('2026-12-05T00:00:01.000Z');
      const changed = (
        await upsert({ productSlug: 'tsuki-dual-lfo', shipsIn: '2027年2月下旬', capacity: null, note: '先着順です' })
      ).success().preorder;
      assert.equal(changed.createdAt, createdAt);
      assert.equal(changed.updatedAt, clock.now.toISOString());
      assert.equal(changed.opensAt, OPENS, 'kept');
      assert.equal(changed.capacity, null, 'cleared');
      assert.equal(changed.remaining, null);
      assert.equal(changed.shipsIn, '2027年2月下旬');
      assert.deepEqual(await campaign('tsuki-dual-lfo'), changed);
      assert.equal((await app.call('/api/admin/preorders/delete', { productSlug: 'tsuki-dual-lfo' })).success().success, true);
    });

    test('with expectedUpdatedAt, a campaign saved, created or deleted since is 409 changed_by_someone_else and nothing is written', async () => {
      const changed = { success: false, error: 'Preorder was changed by someone else', code: 'changed_by_someone_else' };
      // Made as a new campaign (null) while a colleague made it first.
      const first = (await upsert({ productSlug: 'hayate-wavefolder', capacity: 5, expectedUpdatedAt: null })).success().preorder;
      assert.deepEqual((await upsert({ productSlug: 'hayate-wavefolder', capacity: 9, expectedUpdatedAt: null })).failure(409), changed);
      clock.now = new Date(clock.now.getTime() + 1000);
      const theirs = (await upsert({ productSlug: 'hayate-wavefolder', note: '同僚', expectedUpdatedAt: first.updatedAt })).success()
        .preorder;
      // The second save, made from the first: refused, the colleague's kept.
      assert.deepEqual(
        (await upsert({ productSlug: 'hayate-wavefolder', capacity: 9, expectedUpdatedAt: first.updatedAt })).failure(409),
        changed,
      );
      assert.deepEqual(await campaign('hayate-wavefolder'), theirs);
      // Made from the colleague's, written; the same instant however it is written.
      const sameInstant = new Date(theirs.updatedAt).toISOString().replace('Z', '+00:00');
      assert.equal(
        (await upsert({ productSlug: 'hayate-wavefolder', capacity: 9, expectedUpdatedAt: sameInstant })).success().preorder.capacity,
        9,
      );
      const last = (await campaign('hayate-wavefolder'))!.updatedAt;
      (await app.call('/api/admin/preorders/delete', { productSlug: 'hayate-wavefolder' })).success();
      assert.deepEqual((await upsert({ productSlug: 'hayate-wavefolder', capacity: 1, expectedUpdatedAt: last })).failure(409), changed);
      assert.equal(await campaign('hayate-wavefolder'), undefined, 'a deleted campaign is not made again');
      for (const wrong of ['yesterday', 12, {}, ['2026-12-05T00:00:00Z']])
        assert.equal(
          (await upsert({ productSlug: 'hayate-wavefolder', expectedUpdatedAt: wrong as string })).failure(400).code,
          'invalid_parameters',
        );
    });

    test('an unknown product is 404, bad values are 400 with every field at fault', async () => {
      const unknown = await upsert({ productSlug: 'no-such-module', capacity: 5 });
      assert.equal(unknown.status, 404);
      assert.deepEqual(unknown.failure(404), { success: false, error: 'Product not found', code: 'unknown_product' });
      const bad = await upsert({
        productSlug: 'kumo-vco-2',
        capacity: 0,
        perCustomerLimit: 101,
        opensAt: 'tomorrow',
        shipsIn: 'あ'.repeat(101),
        note: 7,
      });
      assert.equal(bad.status, 400);
      const body = bad.failure(400);
      assert.equal(body.error, 'Invalid parameters');
      assert.deepEqual(body.details?.map((d) => d.field).sort(), ['capacity', 'note', 'opensAt', 'perCustomerLimit', 'shipsIn']);
      for (const capacity of [100_001, 1.5, '10', true])
        assert.equal((await upsert({ productSlug: 'kumo-vco-2', capacity })).status, 400, String(capacity));
      assert.equal((await upsert({ productSlug: 'kumo-vco-2', note: 'あ'.repeat(501) })).status, 400);
      assert.equal((await upsert({ productSlug: 42 })).status, 400);
      assert.equal((await upsert({})).status, 400);
      const backwards = await upsert({ productSlug: 'kumo-vco-2', opensAt: CLOSES, closesAt: OPENS });
      assert.equal(backwards.status, 400);
      assert.deepEqual(backwards.failure(400).details, [{ field: 'closesAt', message: 'closesAt must be after opensAt' }]);
      assert.equal(await campaign('kumo-vco-2'), undefined, 'nothing was created');
    });

    test('closesAt is checked against the opensAt kept from before', async () => {
      (await upsert({ productSlug: 'hoshi-eurorack-case-104hp', opensAt: OPENS })).success();
      assert.equal((await upsert({ productSlug: 'hoshi-eurorack-case-104hp', closesAt: OPENS })).status, 400);
      assert.equal((await existing('hoshi-eurorack-case-104hp')).closesAt, null);
      await app.admin('/api/admin/preorders/delete', { productSlug: 'hoshi-eurorack-case-104hp' });
    });

    test('states follow the clock: upcoming, then open, then closed; the 409s come after validation', async () => {
      (await upsert({ productSlug: 'hayate-wavefolder', opensAt: OPENS, closesAt: CLOSES })).success();
      clock.now = new Date('2026-12-01T00:59:59.999Z');
      assert.equal((await existing('hayate-wavefolder')).state, 'upcoming');
      const early = await reserve('hayate-wavefolder');
      assert.equal(early.status, 409);
      assert.deepEqual((await app.read('/api/reservation', early)).failure(409), {
        success: false,
        error: NOT_YET,
        code: 'preorder_upcoming',
      });
      assert.equal(
        (
          await app.request('/api/reservation', {
            method: 'POST',
            body: JSON.stringify({ name: '', email: 'x', productSlug: 'hayate-wavefolder' }),
          })
        ).status,
        400,
        'validation first',
      );

      clock.now = new Date(OPENS);
      assert.equal((await existing('hayate-wavefolder')).state, 'open');
      assert.equal((await reserve('hayate-wavefolder')).status, 200);

      clock.now = new Date(CLOSES);
      assert.equal((await reserve('hayate-wavefolder')).status, 200, 'closesAt itself is not after closesAt');
      clock.now = new Date(Date.parse(CLOSES) + 1);
      assert.equal((await existing('hayate-wavefolder')).state, 'closed');
      const late = await reserve('hayate-wavefolder');
      assert.equal(late.status, 409);
      assert.deepEqual((await app.read('/api/reservation', late)).failure(409), { success: false, error: CLOSED, code: 'preorder_closed' });
      assert.equal((await existing('hayate-wavefolder')).reserved, 2);
      clock.now = new Date('2026-12-05T00:00:00.000Z');
    });

    test('capacity: the last seat goes, then 409 and soldOut; cancelling frees a seat, moving back takes it or is refused', async () => {
      const slug = 'yamabiko-spring-reverb';
      const before = await reserved(slug, 'before@example.com');
      (await upsert({ productSlug: slug, capacity: 2 })).success();
      const first = await reserved(slug, 'a@example.com');
      const second = await reserved(slug, 'b@example.com');
      const full = await reserve(slug, 'c@example.com');
      assert.equal(full.status, 409);
      assert.deepEqual((await app.read('/api/reservation', full)).failure(409), {
        success: false,
        error: SOLD_OUT,
        code: 'preorder_sold_out',
      });
      assert.deepEqual(
        (({ reserved, remaining, state }) => ({ reserved, remaining, state }))(await existing(slug)),
        { reserved: 2, remaining: 0, state: 'soldOut' },
        'the reservation taken before the campaign is not one of it',
      );

      const list = await reservations(slug);
      const preorderId = (await existing(slug)).id;
      assert.deepEqual(Object.fromEntries(list.map((r) => [r.id, r.preorderId])), {
        [before.reservationId]: null,
        [first.reservationId]: preorderId,
        [second.reservationId]: preorderId,
      });

      assert.equal((await setStatus(first.reservationId, slug, 'cancelled')).status, 200);
      assert.equal((await existing(slug)).remaining, 1);
      const third = await reserved(slug, 'c@example.com');
      const refused = await setStatus(first.reservationId, slug, 'pending');
      assert.equal(refused.status, 409);
      assert.deepEqual((await app.read('/api/admin-reservations-status', refused)).failure(409), {
        success: false,
        error: 'Preorder is full',
        code: 'preorder_full',
      });

      assert.equal((await setStatus(second.reservationId, slug, 'cancelled')).status, 200);
      assert.equal((await setStatus(first.reservationId, slug, 'pending')).status, 200);
      assert.equal((await existing(slug)).reserved, 2);

      // Archived reservations still hold their seats; an erased one gives its seat back.
      assert.equal(
        (await app.admin('/api/admin/reservations/archive', { ids: [{ id: third.reservationId, productSlug: slug }] })).status,
        200,
      );
      assert.equal((await existing(slug)).reserved, 2);
      assert.equal((await app.admin('/api/admin-reservations-delete', { id: third.reservationId, productSlug: slug })).status, 200);
      assert.equal((await existing(slug)).reserved, 1);
      // Capacity lowered below what is reserved: soldOut, remaining 0, nobody cancelled.
      const lowered = (await upsert({ productSlug: slug, capacity: 1 })).success().preorder;
      assert.deepEqual([lowered.reserved, lowered.remaining, lowered.state], [1, 0, 'soldOut']);
    });

    test("the per-customer limit counts the address's reservations that are not cancelled", async () => {
      const slug = 'kumo-vco-2';
      (await upsert({ productSlug: slug, perCustomerLimit: 2, capacity: 100 })).success();
      const first = await reserved(slug, 'hanako@example.com');
      await reserved(slug, 'Hanako@Example.com');
      const third = await reserve(slug, 'hanako@example.com');
      assert.equal(third.status, 409);
      assert.deepEqual((await app.read('/api/reservation', third)).failure(409), {
        success: false,
        error: PER_CUSTOMER,
        code: 'customer_limit_reached',
      });
      assert.equal((await reserve(slug, 'jiro@example.com')).status, 200, 'another address is not limited');
      await setStatus(first.reservationId, slug, 'cancelled');
      assert.equal((await reserve(slug, 'hanako@example.com')).status, 200);
      assert.equal((await existing(slug)).reserved, 3);
    });

    test('the per-customer limit counts one customer however the address is spelled: a +tag, gmail dots, googlemail', async () => {
      const slug = 'larkspur-multimode-filter';
      (await upsert({ productSlug: slug, perCustomerLimit: 1, capacity: 100 })).success();
      const first = await reserved(slug, 'Ume.Tanaka+synth@gmail.com');
      for (const spelling of ['umetanaka@gmail.com', 'u.m.e.t.a.n.a.k.a+again@googlemail.com', 'ume.tanaka@GMAIL.com']) {
        const refused = await reserve(slug, spelling);
        assert.equal(refused.status, 409, spelling);
        assert.equal((await app.read('/api/reservation', refused)).failure(409).code, 'customer_limit_reached');
      }
      // Outside gmail the dots are the address's own: another customer.
      assert.equal((await reserve(slug, 'ume.tanaka@example.com')).status, 200);
      assert.equal((await reserve(slug, 'ume.tanaka+shop@example.com')).status, 409, 'a +tag is the same mailbox at any domain');
      // The address is stored as typed (lowercased), and cancelling it gives the customer's seat back under any spelling.
      const stored = (await reservations(slug)).find((r) => r.id === first.reservationId);
      assert.equal(stored?.email, 'ume.tanaka+synth@gmail.com');
      assert.equal((await setStatus(first.reservationId, slug, 'cancelled')).status, 200);
      assert.equal((await reserve(slug, 'umetanaka@googlemail.com')).status, 200);
      (await app.call('/api/admin/preorders/delete', { productSlug: slug, force: true })).success();
    });

    test('GET /api/preorders: the storefront view, filtered by product, without personal data, not cached', async () => {
      const all = await app.request('/api/preorders', { headers: { origin: 'https://shop.example.jp' } });
      assert.equal(all.status, 200);
      assert.equal(all.headers.get('cache-control'), 'no-cache');
      assert.equal(all.headers.get('access-control-allow-origin'), 'https://shop.example.jp');
      const body = (await app.read('/api/preorders', all)).success();
      assert.deepEqual(
        body.preorders.map((p) => p.productSlug),
        ['hayate-wavefolder', 'kumo-vco-2', 'yamabiko-spring-reverb'],
      );
      assert.deepEqual(body.preorders[1], {
        productSlug: 'kumo-vco-2',
        state: 'open',
        opensAt: null,
        closesAt: null,
        capacity: 100,
        remaining: 97,
        shipsIn: null,
        note: null,
      });
      assert.ok(!JSON.stringify(body).includes('@'), 'no address');
      const some = (
        await app.read(
          '/api/preorders',
          await app.request('/api/preorders?productSlug=kumo-vco-2&productSlug=hayate-wavefolder&productSlug=&productSlug=no-such'),
        )
      ).success();
      assert.deepEqual(
        some.preorders.map((p) => p.productSlug),
        ['hayate-wavefolder', 'kumo-vco-2'],
      );
      const elsewhere = await app.request('/api/preorders', { headers: { origin: 'https://evil.example' } });
      assert.equal(elsewhere.headers.get('access-control-allow-origin'), null);
      assert.equal((await app.request('/api/preorders', { method: 'DELETE' })).status, 405);
    });

    test('the dashboard lists every campaign with its seats', async () => {
      const stats = (await app.call('/api/admin-dashboard-stats', {})).success();
      const kumo = stats.preorders.find((p) => p.productSlug === 'kumo-vco-2');
      assert.ok(kumo, 'kumo-vco-2 is listed');
      assert.deepEqual(Object.keys(kumo), ['productSlug', 'state', 'capacity', 'reserved', 'remaining']);
      assert.deepEqual([kumo.capacity, kumo.reserved, kumo.remaining], [100, 3, 97]);
    });

    test('delete: refused while reservations hold seats, unless forced; then the campaign goes, its reservations stay, the product takes reservations as before', async () => {
      const slug = 'yamabiko-spring-reverb';
      const count = (await reservations(slug)).length;
      assert.ok((await existing(slug)).reserved > 0, 'reservations hold seats of it');
      const held = await app.call('/api/admin/preorders/delete', { productSlug: slug });
      assert.deepEqual(held.failure(409), { success: false, error: 'Preorder has reservations', code: 'preorder_has_reservations' });
      assert.ok(await campaign(slug), 'nothing deleted');
      assert.equal((await app.call('/api/admin/preorders/delete', { productSlug: slug, force: 'yes' })).status, 400, 'force is a boolean');
      assert.deepEqual((await app.call('/api/admin/preorders/delete', { productSlug: slug, force: true })).success(), { success: true });
      const again = await app.call('/api/admin/preorders/delete', { productSlug: slug });
      assert.equal(again.status, 404);
      assert.deepEqual(again.failure(404), { success: false, error: 'Preorder not found', code: 'preorder_not_found' });
      assert.equal((await reservations(slug)).length, count);
      const plain = await reserved(slug);
      const listed = (await reservations(slug)).find((r) => r.id === plain.reservationId);
      assert.equal(listed?.preorderId, null);
      // A reservation of the deleted campaign moves freely: there are no seats left to count.
      const ofOld = (await reservations(slug)).find((r) => r.preorderId !== null);
      assert.ok(ofOld, 'a reservation of the deleted campaign is listed');
      assert.equal((await setStatus(ofOld.id, slug, 'cancelled')).status, 200);
      assert.equal((await setStatus(ofOld.id, slug, 'pending')).status, 200);
    });

    test('hundreds at once never oversell: a 300-request rush on 40 seats takes exactly 40', async () => {
      const slug = 'tsuki-dual-lfo';
      (await upsert({ productSlug: slug, capacity: 40 })).success();
      const answers = await Promise.all(Array.from({ length: 300 }, (_, i) => reserve(slug, `rush${i}@example.com`)));
      const statuses = answers.map((a) => a.status);
      assert.equal(statuses.filter((s) => s === 200).length, 40);
      assert.equal(statuses.filter((s) => s === 409).length, 260);
      await Promise.all(answers.map((a) => a.body?.cancel()));
      const state = await existing(slug);
      assert.deepEqual([state.reserved, state.remaining, state.state], [40, 0, 'soldOut']);
      const stored = await reservations(slug);
      assert.equal(stored.filter((r) => r.preorderId === state.id).length, 40);
      await app.admin('/api/admin/preorders/delete', { productSlug: slug });
    });

    test('hundreds at once never pass the per-customer limit: 20 addresses × 15 requests, limit 3', async () => {
      const slug = 'hoshi-eurorack-case-104hp';
      (await upsert({ productSlug: slug, perCustomerLimit: 3 })).success();
      const answers = await Promise.all(Array.from({ length: 300 }, (_, i) => reserve(slug, `buyer${i % 20}@example.com`)));
      assert.equal(answers.filter((a) => a.status === 200).length, 60);
      const refusals = await Promise.all(
        answers.filter((a) => a.status !== 200).map(async (a) => (await app.read('/api/reservation', a)).failure()),
      );
      assert.ok(refusals.every((r) => r.error === PER_CUSTOMER));
      const stored = await reservations(slug);
      const perAddress = Map.groupBy(stored, (r) => r.email);
      assert.equal(perAddress.size, 20);
      assert.ok([...perAddress.values()].every((held) => held.length === 3));
      assert.equal((await existing(slug)).reserved, 60);
    });
  });
}

describe('preorder campaigns across two service processes on one PostgreSQL', () => {
  let a: ServiceProcess;
  let b: ServiceProcess;
  let contract: Contract;
  /** Answers are checked against the OpenAPI document, as the services run in processes of their own. */
  const check: SuccessCheck = (path, status, body) => contract.check(ENDPOINTS[path].method, path, status, body);
  before(async () => {
    [a, b] = await startTwoInstances();
    contract = await loadContract(a.url);
  });
  after(async () => {
    await Promise.all([a?.stop('SIGKILL'), b?.stop('SIGKILL')]);
  });

  test('400 requests split between the instances take exactly the 60 seats, at most 2 per address', async () => {
    assert.equal(
      (await a.admin('/api/admin/preorders/upsert', { productSlug: 'kumo-vco-2', capacity: 60, perCustomerLimit: 2 })).status,
      200,
    );
    // As a storefront sends them: each with an Idempotency-Key, sent again once when the connection
    // drops before the answer (a kept-alive connection the server closed as it was reused, which a
    // loaded machine makes likelier), so a retry can never take a second seat.
    const send = (i: number) => () =>
      (i % 2 ? a : b).request('/api/reservation', {
        method: 'POST',
        headers: { 'idempotency-key': `fan-request-${i}` },
        body: JSON.stringify({ name: '客', email: `fan${i % 50}@example.com`, productSlug: 'kumo-vco-2' }),
      });
    const answers = await Promise.all(Array.from({ length: 400 }, (_, i) => send(i)().catch(send(i))));
    const bodies = await Promise.all(answers.map((answer) => readAnswer(check, '/api/reservation', answer)));
    assert.equal(bodies.filter((r) => r.status === 200).length, 60);
    assert.ok(
      bodies.filter((r) => r.status !== 200).every((r) => r.status === 409 && [SOLD_OUT, PER_CUSTOMER].includes(r.failure().error)),
    );
    const stored = (
      await readAnswer(check, '/api/admin-reservations-list', await b.admin('/api/admin-reservations-list', { productSlug: 'kumo-vco-2' }))
    ).success().reservations;
    assert.equal(stored.length, 60);
    assert.ok([...Map.groupBy(stored, (r) => r.email).values()].every((held) => held.length <= 2));
    const [campaign] = (await readAnswer(check, '/api/admin/preorders/list', await a.admin('/api/admin/preorders/list', {}))).success()
      .preorders;
    assert.ok(campaign, 'the campaign is listed');
    assert.deepEqual([campaign.reserved, campaign.remaining, campaign.state], [60, 0, 'soldOut']);
  });
});
