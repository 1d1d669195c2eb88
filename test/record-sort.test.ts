import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, startTestApp, type TestApp } from './helpers/app.ts';
import { RECORD_LISTS } from './helpers/record-lists.ts';
import { foldForMatching } from '../src/text/normalize.ts';

// The lists' `sort: {by, order?}` (an extension of the lists), active and archived, both
// record kinds, both dialects: the exact order (ties by id in the same direction), pages that join
// up without overlap, and the 400s of a bad sort.

const PRODUCTS = ['kumo-vco-2', 'tsuki-dual-lfo'];
const NAMES = ['Bさん', 'あいだ', 'Aさん', 'あいだ', 'アイダ', 'zz', 'Aさん'];
const STATUSES = ['pending', 'confirmed', 'cancelled', 'fulfilled'];
const N = 28;

interface Row {
  id: string;
  name: string;
  email: string;
  product_slug: string;
  status: string;
  created_at: string;
  updated_at: string;
  archived_at: string | null;
}

/** Ascending by `key`, ties by id: the order both databases must give (code points; no astral characters here, so JS's UTF-16 order is the same). */
function expected(rows: Row[], key: keyof Row, order: 'asc' | 'desc'): string[] {
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const sorted = [...rows].sort((a, b) => cmp(String(a[key]), String(b[key])) || cmp(a.id, b.id));
  if (order === 'desc') sorted.reverse();
  return sorted.map((row) => row.id);
}

for (const dialect of DIALECTS) {
  describe(`sorted lists (${dialect})`, () => {
    let app: TestApp;
    const rows: Row[] = [];
    before(async () => {
      app = await startTestApp({ dialect, env: { RATE_LIMIT_PER_MINUTE: '0' } });
      const start = Date.parse('2026-03-01T00:00:00.000Z');
      for (let i = 0; i < N; i++) {
        // Times repeat every 5 rows and names every 7, so ties must fall back on the id.
        const created = new Date(start + (i % 5) * 60_000).toISOString();
        rows.push({
          id: `res_sort_${String((i * 17) % N).padStart(2, '0')}`,
          name: NAMES[i % NAMES.length]!,
          email: `c${i % 3}@example.com`,
          product_slug: PRODUCTS[i % 2]!,
          status: STATUSES[i % 4]!,
          created_at: created,
          updated_at: new Date(start + (i % 6) * 3_600_000).toISOString(),
          archived_at: i % 3 === 0 ? new Date(start + (i % 4) * 86_400_000).toISOString() : null,
        });
      }
      await app.services.database.db
        .insertInto('reservations')
        .values(rows.map((row) => ({ ...row, name_fold: foldForMatching(row.name) })))
        .execute();
      await app.services.database.db
        .insertInto('subscriptions')
        .values(
          rows.map((row) => ({
            id: row.id.replace('res_', 'ntf_'),
            email: `${row.email.slice(0, 2)}-${row.id}`,
            product_slug: row.product_slug,
            status: ['pending', 'notified', 'unsubscribed'][row.name.length % 3]!,
            created_at: row.created_at,
            updated_at: row.updated_at,
            archived_at: row.archived_at,
            notified_at: null,
          })),
        )
        .execute();
    });
    after(() => app.close());

    const active = () => rows.filter((row) => row.archived_at === null);
    const archived = () => rows.filter((row) => row.archived_at !== null);
    const reservationSorts = {
      createdAt: 'created_at',
      updatedAt: 'updated_at',
      name: 'name',
      product: 'product_slug',
      status: 'status',
    } as const;

    test('the active reservations in every order, all at once and page by page', async () => {
      for (const [by, column] of Object.entries(reservationSorts)) {
        for (const order of ['asc', 'desc'] as const) {
          const want = expected(active(), column, order);
          const all = (await app.call('/api/admin-reservations-list', { sort: { by, order } })).success();
          assert.deepEqual(
            all.reservations.map((r) => r.id),
            want,
            `${by} ${order}`,
          );
          const paged: string[] = [];
          for (let page = 1; page <= 4; page++) {
            const answer = (await app.call('/api/admin-reservations-list', { sort: { by, order }, page, pageSize: 5 })).success();
            assert.equal(answer.total, want.length);
            paged.push(...answer.reservations.map((r) => r.id));
          }
          assert.deepEqual(paged, want, `${by} ${order}, pages of 5`);
        }
      }
      const filtered = (
        await app.call('/api/admin-reservations-list', { sort: { by: 'name' }, productSlug: 'kumo-vco-2', status: 'cancelled' })
      ).success();
      assert.deepEqual(
        filtered.reservations.map((r) => r.id),
        expected(
          active().filter((r) => r.product_slug === 'kumo-vco-2' && r.status === 'cancelled'),
          'name',
          'asc',
        ),
        'with filters, order ascending by default',
      );
      const unsorted = (await app.call('/api/admin-reservations-list', {})).success();
      assert.deepEqual(
        unsorted.reservations.map((r) => r.id),
        expected(active(), 'created_at', 'desc'),
        'without sort: newest first, the list’s own order',
      );
    });

    test('the archived reservations in every order, archivedAt included', async () => {
      for (const [by, column] of Object.entries({ ...reservationSorts, archivedAt: 'archived_at' } as const)) {
        for (const order of ['asc', 'desc'] as const) {
          const answer = (await app.call('/api/admin/reservations/archives/list', { sort: { by, order }, pageSize: 100 })).success();
          assert.deepEqual(
            answer.reservations.map((r) => r.id),
            expected(archived(), column, order),
            `${by} ${order}`,
          );
        }
      }
      const unsorted = (await app.call('/api/admin/reservations/archives/list', { pageSize: 100 })).success();
      assert.deepEqual(
        unsorted.reservations.map((r) => r.id),
        expected(archived(), 'archived_at', 'desc'),
      );
    });

    test('subscriptions sort by email, and by status in both lists', async () => {
      const subscriptions = (await app.call('/api/admin-notify-list', { sort: { by: 'email', order: 'desc' } })).success().subscriptions;
      const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
      const want = [...subscriptions].sort((a, b) => cmp(b.email, a.email) || cmp(b.id, a.id)).map((s) => s.id);
      assert.equal(subscriptions.length, active().length);
      assert.deepEqual(
        subscriptions.map((s) => s.id),
        want,
      );
      const archivedList = (await app.call('/api/admin/notify/archives/list', { sort: { by: 'status' }, pageSize: 100 })).success()
        .subscriptions;
      assert.deepEqual(
        archivedList.map((s) => s.id),
        [...archivedList].sort((a, b) => cmp(a.status, b.status) || cmp(a.id, b.id)).map((s) => s.id),
      );
      assert.equal(archivedList.length, archived().length);
      assert.match(
        (await app.call('/api/admin-notify-list', { sort: { by: 'name' } })).failure(400).error,
        /^sort must be \{by: createdAt\|updatedAt\|email\|product\|status/,
      );
    });

    test('a bad sort is a 400 naming the field, on every list', async () => {
      const bad = [
        { by: 'id' },
        { by: 'created_at' },
        { by: 'name', order: 'up' },
        { order: 'asc' },
        'name',
        ['name'],
        null,
        { by: { toString: 'x' } },
        JSON.parse('{"__proto__": {"by": "name"}}'),
      ];
      for (const path of RECORD_LISTS) {
        for (const sort of bad) {
          const failure = (await app.call(path, { sort })).failure(400);
          assert.match(failure.error, /^sort must be \{by: createdAt\|updatedAt\|/, `${path} ${JSON.stringify(sort)}`);
          assert.equal(failure.details?.[0]?.field.split('.')[0], 'sort');
        }
      }
    });
  });
}
