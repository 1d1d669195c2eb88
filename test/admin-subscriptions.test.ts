import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { unsubscribeToken } from '../src/messaging/links.ts';
import { assertNotAnObjectRefused, assertRefusedWithoutToken } from './helpers/admin-guards.ts';
import { DIALECTS, startTestApp, type TestApp } from './helpers/app.ts';

// The administrator's subscription endpoints over real HTTP on both dialects: the list,
// every status move, and what the one-pending rule means for moves and unarchiving. The archive
// endpoints themselves are checked side by side with the reservation ones in archive-parity.test.ts.

const ADMIN_PATHS = [
  '/api/admin-notify-list',
  '/api/admin-notify-status',
  '/api/admin/notify/send',
  '/api/admin/notify/archive',
  '/api/admin/notify/unarchive',
  '/api/admin/notify/archives/list',
  '/api/admin-dashboard-stats',
];

const STATUSES = ['pending', 'notified', 'unsubscribed'];
const ALLOWED: [string, string][] = [
  ['pending', 'notified'],
  ['pending', 'unsubscribed'],
  ['notified', 'pending'],
  ['unsubscribed', 'pending'],
];
const FORBIDDEN = STATUSES.flatMap((from) => STATUSES.map((to) => [from, to] as [string, string])).filter(
  ([from, to]) => from !== to && !ALLOWED.some(([a, b]) => a === from && b === to),
);
const TWIN = 'Another pending subscription exists for this email and product';

for (const dialect of DIALECTS) {
  describe(`admin subscriptions (${dialect})`, () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp({ dialect, env: { RATE_LIMIT_PER_MINUTE: '0' } });
    });
    after(() => app.close());
    beforeEach(async () => {
      await app.services.database.db.deleteFrom('subscriptions').execute();
    });

    /** A row written directly, for fixed times and states the API reaches only in steps. */
    async function insert(row: {
      id: string;
      status?: string;
      email?: string;
      productSlug?: string;
      createdAt: string;
      notifiedAt?: string | null;
      archivedAt?: string | null;
    }) {
      await app.services.database.db
        .insertInto('subscriptions')
        .values({
          id: row.id,
          email: row.email ?? `${row.id}@example.com`,
          product_slug: row.productSlug ?? 'kumo-vco-2',
          status: row.status ?? 'pending',
          created_at: row.createdAt,
          updated_at: row.createdAt,
          notified_at: row.notifiedAt ?? null,
          archived_at: row.archivedAt ?? null,
        })
        .execute();
    }

    const stored = (id: string) =>
      app.services.database.db.selectFrom('subscriptions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const setStatus = (id: string, status: unknown, productSlug = 'kumo-vco-2') =>
      app.call('/api/admin-notify-status', { id, productSlug, status });
    const list = async (body: object = {}) => (await app.call('/api/admin-notify-list', body)).success().subscriptions;

    describe('authentication', () => {
      for (const path of ADMIN_PATHS) {
        test(`${path}: a missing or wrong token → 401 before the body is looked at`, () =>
          assertRefusedWithoutToken(app, path, { productSlug: 5, ids: 'x', status: 'nope' }));
      }

      test('a body that is not a JSON object → 400 Invalid JSON body; over 64 KiB → 413', async () => {
        for (const path of ADMIN_PATHS) {
          await assertNotAnObjectRefused(app, path);
          const big = await app.admin(path, { padding: 'x'.repeat(70 * 1024) });
          assert.equal(big.status, 413, path);
        }
      });

      test('other methods → 405; the preflight answers 204 with Access-Control-Allow-Origin: *', async () => {
        for (const path of ADMIN_PATHS) {
          assert.equal((await app.request(path, { method: 'GET' })).status, 405, path);
          const preflight = await app.request(path, { method: 'OPTIONS', headers: { origin: 'https://anywhere.example' } });
          assert.equal(preflight.status, 204);
          assert.equal(preflight.headers.get('access-control-allow-origin'), '*');
        }
      });
    });

    describe('POST /api/admin-notify-list', () => {
      test('active subscriptions, newest first (ties by id, descending), with their fields', async () => {
        await insert({ id: 'ntf_a', createdAt: '2025-01-01T00:00:00.000Z' });
        await insert({ id: 'ntf_c', createdAt: '2025-01-02T00:00:00.000Z', status: 'notified', notifiedAt: '2025-01-05T00:00:00.000Z' });
        await insert({ id: 'ntf_b', createdAt: '2025-01-02T00:00:00.000Z', productSlug: 'tsuki-dual-lfo' });
        await insert({ id: 'ntf_z', createdAt: '2025-01-03T00:00:00.000Z', archivedAt: '2025-01-04T00:00:00.000Z' });
        const body = (await app.call('/api/admin-notify-list', {})).success();
        assert.deepEqual(Object.keys(body), ['success', 'subscriptions']);
        assert.deepEqual(
          body.subscriptions.map((s) => s.id),
          ['ntf_c', 'ntf_b', 'ntf_a'],
        );
        assert.deepEqual(body.subscriptions[0], {
          id: 'ntf_c',
          email: 'ntf_c@example.com',
          productSlug: 'kumo-vco-2',
          status: 'notified',
          createdAt: '2025-01-02T00:00:00.000Z',
          notifiedAt: '2025-01-05T00:00:00.000Z',
          updatedAt: '2025-01-02T00:00:00.000Z',
          unsubscribedByCustomer: false,
        });
        assert.equal(body.subscriptions[1]?.notifiedAt, null);
      });

      test('filters by status and by product, together too; empty filters mean all', async () => {
        await insert({ id: 'ntf_1', createdAt: '2025-01-01T00:00:00.000Z' });
        await insert({ id: 'ntf_2', createdAt: '2025-01-02T00:00:00.000Z', status: 'unsubscribed' });
        await insert({ id: 'ntf_3', createdAt: '2025-01-03T00:00:00.000Z', status: 'unsubscribed', productSlug: 'tsuki-dual-lfo' });
        const ids = async (body: object) => (await list(body)).map((s) => s.id);
        assert.deepEqual(await ids({ status: 'unsubscribed' }), ['ntf_3', 'ntf_2']);
        assert.deepEqual(await ids({ productSlug: 'kumo-vco-2' }), ['ntf_2', 'ntf_1']);
        assert.deepEqual(await ids({ status: 'unsubscribed', productSlug: 'kumo-vco-2' }), ['ntf_2']);
        assert.deepEqual(await ids({ status: 'notified' }), []);
        assert.deepEqual(await ids({ productSlug: 'no-such-product' }), []);
        assert.deepEqual(await ids({ status: '', productSlug: '' }), ['ntf_3', 'ntf_2', 'ntf_1']);
      });

      test('an unknown status → 400 Invalid status with details; a productSlug that is not a string → 400', async () => {
        for (const status of ['confirmed', 'PENDING', 3, null, ['pending'], '__proto__', 'ペンディング']) {
          const { status: code, body } = await app.call('/api/admin-notify-list', { status });
          assert.equal(code, 400, JSON.stringify(status));
          assert.deepEqual(body, {
            success: false,
            error: 'Invalid status',
            code: 'invalid_status',
            details: [{ field: 'status', message: 'status must be one of pending, notified, unsubscribed' }],
          });
        }
        for (const productSlug of [42, ['a'], { a: 1 }, 'NUL\u0000']) {
          const body = (await app.call('/api/admin-notify-list', { productSlug })).failure(400);
          assert.equal(body.error, 'Invalid parameters');
          assert.equal(body.details?.[0]?.field, 'productSlug');
        }
      });
    });

    describe('POST /api/admin-notify-status', () => {
      for (const [from, to] of ALLOWED) {
        test(`allows ${from} → ${to}`, async () => {
          // Unsubscribed by staff: only such a one may move back (the customer's own is the next test's).
          await insert({
            id: 'ntf_t',
            status: from === 'unsubscribed' ? 'pending' : from,
            createdAt: '2025-01-01T00:00:00.000Z',
            notifiedAt: from === 'notified' ? '2025-01-02T00:00:00.000Z' : null,
          });
          if (from === 'unsubscribed') (await setStatus('ntf_t', 'unsubscribed')).success();
          const body = (await setStatus('ntf_t', to)).success();
          assert.deepEqual(Object.keys(body), ['success', 'subscription']);
          assert.deepEqual(Object.keys(body.subscription), [
            'id',
            'email',
            'productSlug',
            'status',
            'createdAt',
            'notifiedAt',
            'updatedAt',
            'unsubscribedByCustomer',
          ]);
          assert.equal(body.subscription.status, to);
          assert.equal(body.subscription.unsubscribedByCustomer, false, 'moved by staff');
          assert.equal((await stored('ntf_t')).status, to);
        });
      }
      for (const [from, to] of FORBIDDEN) {
        test(`refuses ${from} → ${to} with 409`, async () => {
          await insert({ id: 'ntf_t', status: from, createdAt: '2025-01-01T00:00:00.000Z' });
          const { status, body } = await setStatus('ntf_t', to);
          assert.equal(status, 409);
          assert.deepEqual(body, {
            success: false,
            error: `Invalid status transition: ${from} -> ${to}`,
            code: 'invalid_status_transition',
          });
          assert.equal((await stored('ntf_t')).status, from);
        });
      }

      test('staying on the same status changes nothing', async () => {
        for (const status of STATUSES) {
          await insert({
            id: `ntf_${status}`,
            status,
            createdAt: '2025-01-01T00:00:00.000Z',
            notifiedAt: status === 'notified' ? '2025-01-02T00:00:00.000Z' : null,
          });
          const before = await stored(`ntf_${status}`);
          const answer = (await setStatus(`ntf_${status}`, status)).success();
          assert.equal(answer.subscription.notifiedAt, before.notified_at);
          assert.deepEqual(await stored(`ntf_${status}`), before);
        }
      });

      test('→ notified sets notifiedAt; back to pending clears it, from unsubscribed too', async () => {
        await insert({ id: 'ntf_n', createdAt: '2025-01-01T00:00:00.000Z' });
        const before = Date.now();
        const notified = (await setStatus('ntf_n', 'notified')).success().subscription;
        const notifiedAt = notified.notifiedAt ?? '';
        assert.ok(Date.parse(notifiedAt) >= before - 5 && Date.parse(notifiedAt) <= Date.now());
        assert.equal(notifiedAt, new Date(notifiedAt).toISOString());
        assert.equal((await stored('ntf_n')).notified_at, notified.notifiedAt);
        assert.equal((await setStatus('ntf_n', 'pending')).success().subscription.notifiedAt, null);
        assert.equal((await stored('ntf_n')).notified_at, null);
        assert.equal((await setStatus('ntf_n', 'unsubscribed')).success().subscription.notifiedAt, null);

        await insert({ id: 'ntf_u', status: 'pending', createdAt: '2025-01-01T00:00:00.000Z', notifiedAt: '2025-01-02T00:00:00.000Z' });
        (await setStatus('ntf_u', 'unsubscribed')).success();
        assert.equal((await setStatus('ntf_u', 'pending')).success().subscription.notifiedAt, null);
      });

      test('a subscription the customer unsubscribed stays so: 409 unsubscribed_by_customer, the send skips it, their new signup subscribes again', async () => {
        const signUp = async () =>
          (await app.call('/api/notify', { email: 'hanako@example.jp', productSlug: 'kumo-vco-2' })).success().subscriptionId;
        const byLink = await signUp();
        const token = unsubscribeToken(app.services.config.unsubscribeSecret, byLink);
        assert.equal((await app.request(`/api/notify/unsubscribe?token=${encodeURIComponent(token)}`)).status, 200);
        const refusal = {
          success: false,
          error: 'The customer unsubscribed; only their own new signup subscribes the address again',
          code: 'unsubscribed_by_customer',
        };
        assert.deepEqual((await setStatus(byLink, 'pending')).failure(409), refusal);
        // The lists and the record's page say so, for the console not to offer the move.
        const listed = async (id: string) =>
          (await app.call('/api/admin-notify-list', { q: id })).success().subscriptions.find((s) => s.id === id)!.unsubscribedByCustomer;
        assert.equal(await listed(byLink), true);
        assert.equal((await app.call('/api/admin/notify/get', { id: byLink })).success().subscription.unsubscribedByCustomer, true);
        // Staff moving it to unsubscribed themselves afterwards (a no-op) or sending the restock email changes nothing.
        (await setStatus(byLink, 'unsubscribed')).success();
        assert.deepEqual((await setStatus(byLink, 'pending')).failure(409), refusal);
        assert.equal((await app.call('/api/admin/notify/send', { productSlug: 'kumo-vco-2' })).success().notifiedCount, 0);
        assert.equal((await stored(byLink)).status, 'unsubscribed');

        // The one-click post of a notified one, after staff had once moved it back: the customer's last word counts.
        await insert({ id: 'ntf_once', status: 'pending', email: 'jiro@example.jp', createdAt: '2025-01-01T00:00:00.000Z' });
        (await setStatus('ntf_once', 'unsubscribed')).success();
        (await setStatus('ntf_once', 'pending')).success();
        (await setStatus('ntf_once', 'notified')).success();
        const oneClick = unsubscribeToken(app.services.config.unsubscribeSecret, 'ntf_once');
        assert.equal((await app.request(`/api/notify/unsubscribe?token=${encodeURIComponent(oneClick)}`, { method: 'POST' })).status, 200);
        assert.deepEqual((await setStatus('ntf_once', 'pending')).failure(409), refusal);

        // A row whose history does not say who unsubscribed it (older than histories) is the customer's too.
        await insert({ id: 'ntf_legacy', status: 'unsubscribed', createdAt: '2025-01-01T00:00:00.000Z' });
        assert.deepEqual((await setStatus('ntf_legacy', 'pending')).failure(409), refusal);
        assert.equal(await listed('ntf_legacy'), true);
        // Staff's own stop is theirs to undo, and said so; a pending or notified one is no opt-out at all.
        await insert({ id: 'ntf_staff_stop', status: 'pending', email: 'saburo@example.jp', createdAt: '2025-01-01T00:00:00.000Z' });
        assert.equal((await setStatus('ntf_staff_stop', 'unsubscribed')).success().subscription.unsubscribedByCustomer, false);
        assert.equal(await listed('ntf_staff_stop'), false);
        assert.equal(await listed(await signUp()), false);

        // The customer's own new signup is a new pending subscription, which the send notifies.
        const again = await signUp();
        assert.notEqual(again, byLink);
        assert.equal((await app.call('/api/admin/notify/send', { productSlug: 'kumo-vco-2' })).success().notifiedCount, 1);
        assert.equal((await stored(again)).status, 'notified');
        assert.equal((await stored(byLink)).status, 'unsubscribed');
      });

      test('back to pending is refused while another active pending subscription has the address and product', async () => {
        await insert({
          id: 'ntf_old',
          status: 'notified',
          email: 'taro@example.com',
          createdAt: '2025-01-01T00:00:00.000Z',
          notifiedAt: '2025-01-02T00:00:00.000Z',
        });
        await insert({ id: 'ntf_gone', email: 'taro@example.com', createdAt: '2025-01-01T00:00:00.000Z' });
        (await setStatus('ntf_gone', 'unsubscribed')).success();
        await insert({ id: 'ntf_new', email: 'taro@example.com', createdAt: '2025-01-03T00:00:00.000Z' });
        for (const id of ['ntf_old', 'ntf_gone']) {
          const { status, body } = await setStatus(id, 'pending');
          assert.equal(status, 409);
          assert.deepEqual(body, { success: false, error: TWIN, code: 'another_pending_subscription' });
        }
        assert.equal((await stored('ntf_old')).notified_at, '2025-01-02T00:00:00.000Z', 'nothing changed');
        // Another product, or the twin archived or no longer pending: the move is allowed.
        await insert({
          id: 'ntf_other',
          status: 'notified',
          email: 'taro@example.com',
          productSlug: 'tsuki-dual-lfo',
          createdAt: '2025-01-01T00:00:00.000Z',
        });
        assert.equal((await setStatus('ntf_other', 'pending', 'tsuki-dual-lfo')).status, 200);
        assert.equal((await setStatus('ntf_new', 'notified')).status, 200);
        assert.equal((await setStatus('ntf_old', 'pending')).status, 200);
        assert.equal((await setStatus('ntf_gone', 'pending')).status, 409, 'ntf_old is the pending one now');
      });

      test('not found, found under another product, or an id in another case → 404', async () => {
        await insert({ id: 'ntf_x', createdAt: '2025-01-01T00:00:00.000Z' });
        for (const [id, slug] of [
          ['ntf_missing', 'kumo-vco-2'],
          ['ntf_x', 'tsuki-dual-lfo'],
          ['NTF_X', 'kumo-vco-2'],
        ]) {
          const { status, body } = await setStatus(id!, 'notified', slug);
          assert.equal(status, 404);
          assert.deepEqual(body, { success: false, error: 'Subscription not found', code: 'subscription_not_found' });
        }
      });

      test('an archived subscription → 409', async () => {
        await insert({ id: 'ntf_x', createdAt: '2025-01-01T00:00:00.000Z', archivedAt: '2025-01-02T00:00:00.000Z' });
        const { status, body } = await setStatus('ntf_x', 'notified');
        assert.equal(status, 409);
        assert.deepEqual(body, { success: false, error: 'Subscription is archived', code: 'subscription_archived' });
      });

      test('a legacy status outside the table may move nowhere', async () => {
        await insert({ id: 'ntf_old', status: 'sent', createdAt: '2025-01-01T00:00:00.000Z' });
        assert.equal((await setStatus('ntf_old', 'pending')).failure(409).error, 'Invalid status transition: sent -> pending');
      });

      test('missing, empty or non-string id, productSlug or status → 400 Missing required fields', async () => {
        const full = { id: 'ntf_x', productSlug: 'kumo-vco-2', status: 'notified' };
        for (const body of [
          {},
          { productSlug: 'kumo-vco-2', status: 'notified' },
          { id: 'ntf_x', status: 'notified' },
          { id: 'ntf_x', productSlug: 'kumo-vco-2' },
          { ...full, id: '' },
          { ...full, id: 42 },
          { ...full, productSlug: null },
          { ...full, status: ['notified'] },
          { ...full, id: 'ntf\u0000x' },
          { id: 'x', status: 'nonsense' },
        ]) {
          const answer = (await app.call('/api/admin-notify-status', body)).failure(400);
          assert.equal(answer.error, 'Missing required fields: id, productSlug, status');
        }
      });

      test('a status that is not one → 400 Invalid status', async () => {
        for (const status of ['confirmed', 'sent', 'Pending', 'unsubscribe']) {
          const body = (await setStatus('ntf_x', status)).failure(400);
          assert.equal(body.error, 'Invalid status');
          assert.deepEqual(body.details, [{ field: 'status', message: 'status must be one of pending, notified, unsubscribed' }]);
        }
      });
    });

    describe('unarchiving under the one-pending rule', () => {
      // An archived subscription of taro@example.com (to kumo-vco-2, pending unless `status` says otherwise).
      const insertArchived = (id: string, createdAt: string, archivedAt: string, status = 'pending') =>
        insert({ id, status, email: 'taro@example.com', createdAt, archivedAt });

      test('a pending subscription whose address and product have an active pending one stays archived, with its own error', async () => {
        await insertArchived('ntf_old', '2025-01-01T00:00:00.000Z', '2025-01-05T00:00:00.000Z');
        await insert({ id: 'ntf_new', email: 'taro@example.com', createdAt: '2025-01-06T00:00:00.000Z' });
        await insertArchived('ntf_done', '2025-01-01T00:00:00.000Z', '2025-01-05T00:00:00.000Z', 'notified');
        const { status, body } = await app.call('/api/admin/notify/unarchive', {
          ids: [
            { id: 'ntf_old', productSlug: 'kumo-vco-2' },
            { id: 'ntf_done', productSlug: 'kumo-vco-2' },
          ],
        });
        assert.equal(status, 200);
        assert.deepEqual(body, {
          success: true,
          unarchivedCount: 1,
          unarchivedIds: ['ntf_done'],
          errors: [{ id: 'ntf_old', error: TWIN, code: 'another_pending_subscription' }],
        });
        assert.equal((await stored('ntf_old')).archived_at, '2025-01-05T00:00:00.000Z');
      });

      test('of two archived pending twins named together, the first comes back and the second is refused', async () => {
        await insertArchived('ntf_1', '2025-01-01T00:00:00.000Z', '2025-01-02T00:00:00.000Z');
        await insertArchived('ntf_2', '2025-01-03T00:00:00.000Z', '2025-01-04T00:00:00.000Z');
        const { body } = await app.call('/api/admin/notify/unarchive', {
          ids: [
            { id: 'ntf_2', productSlug: 'kumo-vco-2' },
            { id: 'ntf_1', productSlug: 'kumo-vco-2' },
          ],
        });
        assert.deepEqual(body, {
          success: true,
          unarchivedCount: 1,
          unarchivedIds: ['ntf_2'],
          errors: [{ id: 'ntf_1', error: TWIN, code: 'another_pending_subscription' }],
        });
        assert.deepEqual(
          (await list()).map((s) => s.id),
          ['ntf_2'],
        );
      });

      test('twins of other products or addresses do not clash', async () => {
        await insertArchived('ntf_1', '2025-01-01T00:00:00.000Z', '2025-01-02T00:00:00.000Z');
        await insert({ id: 'ntf_2', email: 'hanako@example.com', createdAt: '2025-01-01T00:00:00.000Z' });
        await insert({ id: 'ntf_3', email: 'taro@example.com', productSlug: 'tsuki-dual-lfo', createdAt: '2025-01-01T00:00:00.000Z' });
        const { body } = await app.call('/api/admin/notify/unarchive', { ids: [{ id: 'ntf_1', productSlug: 'kumo-vco-2' }] });
        assert.deepEqual(body, { success: true, unarchivedCount: 1, unarchivedIds: ['ntf_1'] });
      });
    });
  });
}
