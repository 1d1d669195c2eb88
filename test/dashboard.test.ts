import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { DIALECTS, startTestApp, type TestApp } from './helpers/app.ts';
import { storedMessage } from './helpers/outbox.ts';

// POST /api/admin-dashboard-stats over real HTTP on both dialects (with searches.perDay, an extension):
// every figure is checked against records this test wrote itself.

const DAY = 86_400_000;
const HOUR = 3_600_000;

/** The Japan calendar date of a time, computed independently of the service (Intl, not an offset). */
const japanDate = (time: number) => new Date(time).toLocaleDateString('sv-SE', { timeZone: 'Asia/Tokyo' });

for (const dialect of DIALECTS) {
  describe(`POST /api/admin-dashboard-stats (${dialect})`, () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp({ dialect, env: { RATE_LIMIT_PER_MINUTE: '0' } });
    });
    after(() => app.close());
    beforeEach(async () => {
      const { db } = app.services.database;
      for (const table of [
        'reservations',
        'subscriptions',
        'keyword_logs',
        'keyword_log_hours',
        'keyword_hours',
        'outbox',
        'preorder_customers',
        'preorders',
      ] as const)
        await db.deleteFrom(table).execute();
    });

    const stats = async () => {
      const answer = await app.call('/api/admin-dashboard-stats', {});
      assert.equal(answer.headers.get('access-control-allow-origin'), '*');
      return answer.success();
    };

    test('an empty store: zeros everywhere, every known status listed, thirty days of no searches', async () => {
      const body = await stats();
      assert.deepEqual(Object.keys(body), [
        'success',
        'reservations',
        'subscriptions',
        'products',
        'searches',
        'outbox',
        'deliverability',
        'preorders',
      ]);
      assert.deepEqual(body.reservations, { total: 0, archived: 0, byStatus: { pending: 0, confirmed: 0, fulfilled: 0, cancelled: 0 } });
      assert.deepEqual(body.subscriptions, { total: 0, archived: 0, byStatus: { pending: 0, notified: 0, unsubscribed: 0 } });
      assert.deepEqual(body.products, []);
      assert.deepEqual(
        { ...body.searches, perDay: undefined },
        { total: 0, zeroResults: 0, topKeywords: [], topZeroResultKeywords: [], perDay: undefined },
      );
      const now = Date.now();
      assert.deepEqual(
        body.searches.perDay,
        Array.from({ length: 30 }, (_, i) => ({ date: japanDate(now - (29 - i) * DAY), count: 0 })),
      );
      assert.deepEqual(body.outbox, { pending: 0, dead: 0, sent: 0, skipped: 0, superseded: 0 });
      assert.deepEqual(body.deliverability, {
        hardBounces: 0,
        softBounces: 0,
        complaints: 0,
        restockSent: 0,
        restockComplaints: 0,
        restockComplaintRate: null,
        complaintRateLimit: 0.003,
      });
      assert.deepEqual(body.preorders, []);
    });

    test('records by status, archived ones counted in both, legacy statuses added; demand per product with catalog names', async () => {
      const { db } = app.services.database;
      // The columns a reservation and a subscription share; a reservation adds the customer's name.
      const subscription = (id: string, productSlug: string, status: string, archived = false) => ({
        id,
        email: `${id}@example.com`,
        product_slug: productSlug,
        status,
        created_at: '2025-01-01T00:00:00.000Z',
        updated_at: '2025-01-01T00:00:00.000Z',
        archived_at: archived ? '2025-02-01T00:00:00.000Z' : null,
      });
      const reservation = (...row: Parameters<typeof subscription>) => ({ ...subscription(...row), name: '名前', name_fold: '名前' });
      await db
        .insertInto('reservations')
        .values([
          reservation('res_1', 'kumo-vco-2', 'pending'),
          reservation('res_2', 'kumo-vco-2', 'pending', true),
          reservation('res_3', 'kumo-vco-2', 'confirmed'),
          reservation('res_4', 'tsuki-dual-lfo', 'cancelled', true),
          reservation('res_5', 'retired-module', 'reserved', true),
        ])
        .execute();
      await db
        .insertInto('subscriptions')
        .values([
          subscription('ntf_1', 'hayate-wavefolder', 'pending'),
          subscription('ntf_2', 'hayate-wavefolder', 'pending'),
          subscription('ntf_3', 'hayate-wavefolder', 'pending', true),
          subscription('ntf_4', 'kumo-vco-2', 'notified'),
          subscription('ntf_5', 'yamabiko-spring-reverb', 'unsubscribed'),
          subscription('ntf_6', 'tsuki-dual-lfo', 'pending'),
        ])
        .execute();

      const body = await stats();
      assert.deepEqual(body.reservations, {
        total: 5,
        archived: 3,
        byStatus: { pending: 2, confirmed: 1, fulfilled: 0, cancelled: 1, reserved: 1 },
      });
      assert.deepEqual(body.subscriptions, { total: 6, archived: 1, byStatus: { pending: 4, notified: 1, unsubscribed: 1 } });
      assert.deepEqual(body.products, [
        { productSlug: 'kumo-vco-2', name: 'Kumo VCO II', reservations: 3, reservationsNotCancelled: 3, pendingSubscriptions: 0 },
        {
          productSlug: 'hayate-wavefolder',
          name: app.services.catalog.bySlug.get('hayate-wavefolder')!.name,
          reservations: 0,
          reservationsNotCancelled: 0,
          pendingSubscriptions: 2,
        },
        { productSlug: 'tsuki-dual-lfo', name: 'Tsuki デュアルLFO', reservations: 1, reservationsNotCancelled: 0, pendingSubscriptions: 1 },
        { productSlug: 'retired-module', name: null, reservations: 1, reservationsNotCancelled: 1, pendingSubscriptions: 0 },
        {
          productSlug: 'yamabiko-spring-reverb',
          name: app.services.catalog.bySlug.get('yamabiko-spring-reverb')!.name,
          reservations: 0,
          reservationsNotCancelled: 0,
          pendingSubscriptions: 0,
        },
      ]);
    });

    test('a campaign product counted as its campaign counts seats: cancelled ones left out, archived ones kept', async () => {
      await app.call('/api/admin/preorders/upsert', { productSlug: 'kumo-vco-2', capacity: 30 }).then((a) => a.success());
      const ids: string[] = [];
      for (let i = 0; i < 8; i++) {
        const answer = await app.request('/api/reservation', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: '予約 太郎', email: `seat${i}@example.com`, productSlug: 'kumo-vco-2' }),
        });
        assert.equal(answer.status, 200);
        ids.push(((await answer.json()) as { reservationId: string }).reservationId);
      }
      const productSlug = 'kumo-vco-2';
      // Two cancelled (one of them archived afterwards), two archived while still held.
      for (const id of ids.slice(0, 2))
        (await app.call('/api/admin-reservations-status', { id, productSlug, status: 'cancelled', notifyCustomer: false })).success();
      (await app.call('/api/admin/reservations/archive', { ids: ids.slice(1, 4).map((id) => ({ id, productSlug })) })).success();

      const body = await stats();
      const [campaign] = (await app.call('/api/admin/preorders/list', {}).then((a) => a.success())).preorders;
      assert.equal(campaign!.reserved, 6, 'the campaign holds the six seats not given back');
      assert.deepEqual(body.products, [
        { productSlug, name: 'Kumo VCO II', reservations: 8, reservationsNotCancelled: 6, pendingSubscriptions: 0 },
      ]);
      assert.deepEqual(body.preorders, [{ productSlug, state: 'open', capacity: 30, reserved: 6, remaining: 24 }]);
      assert.deepEqual(body.reservations, { total: 8, archived: 3, byStatus: { pending: 6, confirmed: 0, fulfilled: 0, cancelled: 2 } });
    });

    test('searches of the last 30 days: totals, the top ten, the top ten that found nothing, and thirty Japan days', async () => {
      const now = Date.now();
      const todayStart = Date.parse(`${japanDate(now)}T00:00:00+09:00`);
      const entries: { keyword: string; timestamp: string; resultCount: number; client: string }[] = [];
      const search = (keyword: string, time: number, resultCount = 3) =>
        entries.push({ keyword, timestamp: new Date(time).toISOString(), resultCount, client: '192.0.2.1' });
      // Today in Japan, however early in the day the test runs.
      const recent = now - Math.min(2 * HOUR, (now - todayStart) / 2);
      for (let i = 0; i < 5; i++) search('vco', recent - i * 1000);
      search('vco', recent - 9000, 0);
      for (let i = 0; i < 3; i++) search('シンセ', recent - i * 1000);
      for (let i = 0; i < 3; i++) search('filter', recent - i * 1000);
      for (let i = 0; i < 12; i++) search(`rare${String(i).padStart(2, '0')}`, recent, i < 2 ? 0 : 1);
      search('zzz', recent, 0);
      search('zzz', recent - 1000, 0);
      // The edges of the chart: the first moment of today in Japan and the last of yesterday, the
      // first moment of the chart's first day, and its last moment before.
      search('edge-today', todayStart);
      search('edge-yesterday', todayStart - 1);
      search('edge-first-day', todayStart - 29 * DAY);
      search('edge-before-chart', todayStart - 29 * DAY - 1);
      // The edges of the 30-day window, an hour inside and an hour outside; and the future.
      search('inside', now - 30 * DAY + HOUR);
      for (let i = 0; i < 4; i++) search('old', now - 30 * DAY - HOUR, 0);
      await app.services.keywordLogStore.append(entries);

      const { searches } = await stats();
      const inWindow = entries.filter((e) => e.keyword !== 'old');
      assert.equal(searches.total, inWindow.length);
      assert.equal(searches.zeroResults, inWindow.filter((e) => e.resultCount === 0).length);
      assert.deepEqual(searches.topKeywords.slice(0, 4), [
        { keyword: 'vco', count: 6 },
        { keyword: 'filter', count: 3 },
        { keyword: 'シンセ', count: 3 },
        { keyword: 'zzz', count: 2 },
      ]);
      assert.equal(searches.topKeywords.length, 10);
      assert.ok(searches.topKeywords.slice(4).every((k) => k.count === 1));
      assert.deepEqual(searches.topZeroResultKeywords, [
        { keyword: 'zzz', count: 2 },
        { keyword: 'rare00', count: 1 },
        { keyword: 'rare01', count: 1 },
        { keyword: 'vco', count: 1 },
      ]);

      assert.equal(searches.perDay.length, 30);
      const expected = new Map<string, number>();
      for (const e of entries) {
        const date = japanDate(Date.parse(e.timestamp));
        expected.set(date, (expected.get(date) ?? 0) + 1);
      }
      searches.perDay.forEach((day, i) => {
        assert.equal(day.date, japanDate(todayStart + (i - 29) * DAY));
        assert.equal(day.count, expected.get(day.date) ?? 0, day.date);
      });
      const total = searches.perDay.reduce((sum, day) => sum + day.count, 0);
      assert.equal(
        total,
        entries.filter((e) => Date.parse(e.timestamp) >= todayStart - 29 * DAY).length,
        'edge-before-chart and the old ones are left out',
      );
      assert.equal(searches.perDay[29]?.count, entries.filter((e) => Date.parse(e.timestamp) >= todayStart).length);
    });

    test('searches answered a moment ago are counted (the keyword log is written first)', async () => {
      for (const q of ['vco', 'vco', 'まだない言葉'])
        assert.equal((await app.request(`/api/search?q=${encodeURIComponent(q)}`)).status, 200);
      const { searches } = await stats();
      assert.equal(searches.total, 3);
      assert.equal(searches.zeroResults, 1);
      assert.deepEqual(searches.topKeywords[0], { keyword: 'vco', count: 2 });
      assert.deepEqual(searches.topZeroResultKeywords, [{ keyword: 'まだない言葉', count: 1 }]);
      assert.equal(searches.perDay.at(-1)?.count, 3);
    });

    test('the outbox: messages waiting and given up; sent, emails skipped, and messages superseded in the last 30 days', async () => {
      const future = new Date(Date.now() + DAY).toISOString();
      const recent = new Date(Date.now() - DAY).toISOString();
      const old = new Date(Date.now() - 31 * DAY).toISOString();
      const message = (
        id: string,
        status: string,
        times: { created?: string; sent?: string } = {},
        channel: 'email' | 'chat' = 'email',
      ) => ({
        ...storedMessage(id, status, { createdAt: times.created ?? '2025-01-01T00:00:00.000Z', sentAt: times.sent }, channel),
        next_attempt_at: future,
      });
      await app.services.database.db
        .insertInto('outbox')
        .values([
          message('m1', 'pending'),
          message('m2', 'pending'),
          message('m3', 'dead'),
          message('m4', 'dead'),
          message('m5', 'dead'),
          message('sent-recent', 'sent', { created: recent, sent: recent }),
          message('sent-chat', 'sent', { created: recent, sent: recent }, 'chat'),
          message('sent-old', 'sent', { created: old, sent: old }),
          // Queued long ago, sent lately (retried): sent in the window.
          message('sent-late', 'sent', { created: old, sent: recent }),
          message('skipped-recent', 'skipped', { created: recent, sent: recent }),
          message('skipped-old', 'skipped', { created: old, sent: old }),
          // A chat message for an unset webhook is skipped by design, not for want of an email provider.
          message('skipped-chat', 'skipped', { created: recent, sent: recent }, 'chat'),
          message('superseded-recent', 'superseded', { created: recent }),
          message('superseded-old', 'superseded', { created: old }),
        ])
        .execute();
      assert.deepEqual((await stats()).outbox, { pending: 2, dead: 3, sent: 3, skipped: 1, superseded: 1 });
    });

    test('extra fields in the body are ignored', async () => {
      const response = await app.admin('/api/admin-dashboard-stats', { from: 'ignored', __proto__: { x: 1 } });
      assert.equal(response.status, 200);
    });
  });
}
