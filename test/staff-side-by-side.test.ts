import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { unsubscribeToken } from '../src/messaging/links.ts';
import type { Answer } from './helpers/answers.ts';
import { DIALECTS, startTestApp, type TestApp } from './helpers/app.ts';

// Staff working side by side (updatedAt, expectedUpdatedAt: no lost updates) and finding records
// (q, page, pageSize on the active lists), over real HTTP on both dialects, for both record kinds.

interface Kind {
  name: 'reservations' | 'subscriptions';
  list: '/api/admin-reservations-list' | '/api/admin-notify-list';
  status: '/api/admin-reservations-status' | '/api/admin-notify-status';
  archive: '/api/admin/reservations/archive' | '/api/admin/notify/archive';
  unarchive: '/api/admin/reservations/unarchive' | '/api/admin/notify/unarchive';
  archives: '/api/admin/reservations/archives/list' | '/api/admin/notify/archives/list';
  item: 'reservation' | 'subscription';
  word: string;
  /** Two statuses a fresh (pending) record may move to. */
  next: string;
  other: string;
}

const KINDS: Kind[] = [
  {
    name: 'reservations',
    list: '/api/admin-reservations-list',
    status: '/api/admin-reservations-status',
    archive: '/api/admin/reservations/archive',
    unarchive: '/api/admin/reservations/unarchive',
    archives: '/api/admin/reservations/archives/list',
    item: 'reservation',
    word: 'Reservation',
    next: 'confirmed',
    other: 'cancelled',
  },
  {
    name: 'subscriptions',
    list: '/api/admin-notify-list',
    status: '/api/admin-notify-status',
    archive: '/api/admin/notify/archive',
    unarchive: '/api/admin/notify/unarchive',
    archives: '/api/admin/notify/archives/list',
    item: 'subscription',
    word: 'Subscription',
    next: 'notified',
    other: 'unsubscribed',
  },
];

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** The records of a list answer, under whichever kind's key (checked against the route's schema). */
function rowsOf(answer: Answer<Kind['list']> | Answer<Kind['archives']>) {
  const body = answer.success();
  return 'reservations' in body ? body.reservations : body.subscriptions;
}

/** The record a status answer holds. */
function recordOf(answer: Answer<Kind['status']>) {
  const body = answer.success();
  return 'reservation' in body ? body.reservation : body.subscription;
}

for (const dialect of DIALECTS) {
  describe(`staff side by side (${dialect})`, () => {
    // A suite's usual start on one dialect, as in admin-reservations.test.ts; what it clears is its own.
    let app: TestApp;
    before(async () => {
      app = await startTestApp({ dialect, env: { RATE_LIMIT_PER_MINUTE: '0' } });
    });
    after(() => app.close());
    beforeEach(async () => {
      await app.services.database.db.deleteFrom('reservations').execute();
      await app.services.database.db.deleteFrom('subscriptions').execute();
    });

    const call = <P extends Parameters<TestApp['call']>[0]>(path: P, body: unknown) => app.call(path, body);

    /** A record made through the public API, as the active list shows it. */
    async function create(kind: Kind, who = { name: '山田 太郎', email: 'taro@example.com' }) {
      const path = kind.name === 'reservations' ? '/api/reservation' : '/api/notify';
      const body = (
        await app.read(path, await app.request(path, { method: 'POST', body: JSON.stringify({ ...who, productSlug: 'kumo-vco-2' }) }))
      ).success();
      const id = 'reservationId' in body ? body.reservationId : body.subscriptionId;
      const record = rowsOf(await call(kind.list, {})).find((r) => r.id === id);
      assert.ok(record);
      return record;
    }

    const move = (kind: Kind, record: { id: string }, status: string, extra: object = {}) =>
      call(kind.status, { id: record.id, productSlug: 'kumo-vco-2', status, ...extra });
    const current = async (kind: Kind, id: string) => {
      const record = rowsOf(await call(kind.list, {})).find((r) => r.id === id);
      assert.ok(record);
      return record;
    };

    for (const kind of KINDS) {
      describe(kind.name, () => {
        test('updatedAt: the creation time at first, a later one after every change, in every admin answer', async () => {
          const record = await create(kind);
          assert.match(record.updatedAt, ISO);
          assert.equal(record.updatedAt, record.createdAt);

          const moved = recordOf(await move(kind, record, kind.next));
          assert.ok(moved.updatedAt > record.updatedAt);
          assert.equal((await current(kind, record.id)).updatedAt, moved.updatedAt);

          // Staying on the status without anything else changes nothing, so a colleague's screen stays valid.
          const same = recordOf(await move(kind, record, kind.next));
          assert.equal(same.updatedAt, moved.updatedAt);

          const ref = [{ id: record.id, productSlug: 'kumo-vco-2' }];
          assert.equal((await call(kind.archive, { ids: ref })).status, 200);
          const [archived] = rowsOf(await call(kind.archives, {}));
          assert.ok(archived && 'archivedAt' in archived);
          assert.equal(archived.updatedAt, archived.archivedAt);
          assert.ok(archived.updatedAt > moved.updatedAt);
          await call(kind.unarchive, { ids: ref });
          assert.ok((await current(kind, record.id)).updatedAt > archived.updatedAt);
        });

        test('expectedUpdatedAt: the one seen → the move is made; a stale one → 409, nothing written', async () => {
          const record = await create(kind);
          const first = recordOf(await move(kind, record, kind.next, { expectedUpdatedAt: record.updatedAt }));
          const stale = await move(kind, record, 'pending', { expectedUpdatedAt: record.updatedAt });
          assert.deepEqual(stale.failure(409), {
            success: false,
            error: `${kind.word} was changed by someone else`,
            code: 'changed_by_someone_else',
          });
          assert.deepEqual(await current(kind, record.id), first);
          // The same instant written another way is the same time.
          const offset = first.updatedAt.replace('Z', '+00:00');
          assert.equal((await move(kind, record, 'pending', { expectedUpdatedAt: offset })).status, 200);
        });

        test('expectedUpdatedAt that is not an ISO timestamp → 400, before anything is looked up', async () => {
          const record = await create(kind);
          for (const bad of [12, 'yesterday', '2025-13-01T00:00:00Z', '2025-01-01', '', null, { at: 1 }, '2025-01-01T00:00:00Z\u0000']) {
            const body = (await move(kind, record, kind.next, { expectedUpdatedAt: bad })).failure(400);
            assert.equal(body.error, 'expectedUpdatedAt must be an ISO 8601 timestamp');
            assert.deepEqual(body.details, [{ field: 'expectedUpdatedAt', message: 'expectedUpdatedAt must be an ISO 8601 timestamp' }]);
          }
          assert.deepEqual(await current(kind, record.id), record);
        });

        test('a race: of ten moves naming the same updatedAt, exactly one is made', async () => {
          const record = await create(kind);
          const answers = await Promise.all(
            Array.from({ length: 10 }, (_, i) =>
              move(kind, record, i % 2 ? kind.next : kind.other, {
                expectedUpdatedAt: record.updatedAt,
                ...(kind.name === 'reservations' ? { notes: `memo ${i}` } : {}),
              }),
            ),
          );
          const made = answers.filter((a) => a.status === 200);
          assert.equal(made.length, 1, JSON.stringify(answers.map((a) => a.status)));
          assert.ok(answers.every((a) => a.status === 200 || a.failure().error === `${kind.word} was changed by someone else`));
          assert.deepEqual(await current(kind, record.id), recordOf(made[0]!));
        });

        test('q: case-insensitive substring of the id and the customer’s words; % and _ are themselves; with paging', async () => {
          const people = [
            { name: '山田 太郎', email: 'taro.yamada@example.com' },
            { name: '佐藤 花子', email: 'hanako_sato@example.jp' },
            { name: 'Percent 100%', email: 'percent@example.org' },
          ];
          const records = [];
          for (const who of people) records.push(await create(kind, who));
          const found = async (body: object) =>
            rowsOf(await call(kind.list, body))
              .map((r) => r.email)
              .sort();
          assert.deepEqual(await found({ q: 'TARO.yamada' }), ['taro.yamada@example.com']);
          assert.deepEqual(await found({ q: 'o_s' }), ['hanako_sato@example.jp']);
          assert.deepEqual(await found({ q: 'a_a' }), []);
          assert.deepEqual(await found({ q: '%' }), kind.name === 'reservations' ? ['percent@example.org'] : []);
          assert.deepEqual(await found({ q: 'example' }), people.map((p) => p.email).sort());
          assert.deepEqual(await found({ q: records[1]!.id.toUpperCase() }), ['hanako_sato@example.jp']);
          assert.deepEqual(await found({ q: '花子' }), kind.name === 'reservations' ? ['hanako_sato@example.jp'] : []);
          assert.deepEqual(await found({ q: "'; drop table x; --" }), []);
          assert.deepEqual(await found({ q: '' }), people.map((p) => p.email).sort());

          const paged = await call(kind.list, { q: 'example', pageSize: 2, page: 2 });
          const figures = paged.success();
          assert.deepEqual(Object.keys(figures), ['success', kind.name, 'total', 'page', 'pageSize', 'totalPages']);
          assert.deepEqual([figures.total, figures.page, figures.pageSize, figures.totalPages], [3, 2, 2, 2]);
          assert.deepEqual(
            rowsOf(paged).map((r) => r.id),
            [records[0]!.id],
          );
        });

        test('page and pageSize: as the archive lists; without them every active record and no paging figures', async () => {
          for (let i = 0; i < 5; i++) await create(kind, { name: `n${i}`, email: `p${i}@example.com` });
          const all = await call(kind.list, {});
          assert.deepEqual(Object.keys(all.success()), ['success', kind.name]);
          const ids = rowsOf(all).map((r) => r.id);
          assert.equal(ids.length, 5);
          const page = (body: object) => call(kind.list, body);
          const first = await page({ page: 1 });
          const { total, pageSize, totalPages } = first.success();
          assert.deepEqual([total, first.success().page, pageSize, totalPages, rowsOf(first).length], [5, 1, 20, 1, 5]);
          assert.deepEqual(
            rowsOf(await page({ pageSize: '2', page: '3' })).map((r) => r.id),
            ids.slice(4),
          );
          assert.deepEqual((await page({ pageSize: 2, page: 0 })).success().page, 1);
          assert.deepEqual(rowsOf(await page({ pageSize: 2, page: 4 })), []);
          assert.deepEqual(rowsOf(await page({ pageSize: 2, page: 2 ** 40 })), []);
          const mine = await page({ pageSize: 2, status: 'pending', q: 'p1@' });
          assert.deepEqual([mine.success().total, rowsOf(mine).map((r) => r.email)], [1, ['p1@example.com']]);
        });

        test('bad q, page or pageSize → 400 with the field’s message', async () => {
          const cases: [object, string, string][] = [
            [{ q: 'x'.repeat(201) }, 'q must be a string of at most 200 characters', 'q'],
            [{ q: 5 }, 'q must be a string of at most 200 characters', 'q'],
            [{ q: 'a\u0000b' }, 'q must be a string of at most 200 characters', 'q'],
            [{ page: 1.5 }, 'page must be a positive integer', 'page'],
            [{ page: 'two' }, 'page must be a positive integer', 'page'],
            [{ pageSize: 101 }, 'pageSize must be between 1 and 100', 'pageSize'],
            [{ pageSize: 0 }, 'pageSize must be between 1 and 100', 'pageSize'],
          ];
          for (const [body, error, field] of cases) {
            const answer = (await call(kind.list, body)).failure(400);
            assert.equal(answer.error, error);
            assert.equal(answer.details?.[0]?.field, field);
          }
          assert.equal((await call(kind.list, { q: '🎛️'.repeat(100) })).status, 200);
          assert.equal((await call(kind.list, { __proto__: { q: 1 }, q: 'x' })).status, 200);
        });
      });
    }

    test('a customer’s unsubscribe and a restock send are changes too', async () => {
      const [subscriptions] = KINDS.slice(1);
      const a = await create(subscriptions!, { name: '', email: 'a@example.com' });
      const b = await create(subscriptions!, { name: '', email: 'b@example.com' });
      const token = unsubscribeToken(app.services.config.unsubscribeSecret, a.id);
      const response = await app.request(`/api/notify/unsubscribe?token=${encodeURIComponent(token)}`, { method: 'POST' });
      assert.ok(response.status < 300, String(response.status));
      assert.ok((await current(subscriptions!, a.id)).updatedAt > a.updatedAt);
      assert.equal((await call('/api/admin/notify/send', { productSlug: 'kumo-vco-2' })).status, 200);
      const sent = await current(subscriptions!, b.id);
      assert.ok('notifiedAt' in sent);
      assert.deepEqual([sent.status, sent.updatedAt], ['notified', sent.notifiedAt]);
      assert.equal((await move(subscriptions!, b, 'pending', { expectedUpdatedAt: b.updatedAt })).status, 409);
    });
  });
}
