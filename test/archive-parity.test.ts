import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { z } from 'zod';
import { DIALECTS, startTestApp, type TestApp } from './helpers/app.ts';
import { foldForMatching } from '../src/text/normalize.ts';

// Subscriptions are archived exactly as reservations are (the contract says "as for reservations"): the same
// script of archive, unarchive and archived-list requests is played against both kinds, and the two
// transcripts must be the same once the kind's own words are put aside.

interface Kind {
  name: 'reservations' | 'subscriptions';
  prefix: string;
  idPrefix: string;
  activeList: '/api/admin-reservations-list' | '/api/admin-notify-list';
  word: string;
}

const KINDS: Kind[] = [
  {
    name: 'reservations',
    prefix: '/api/admin/reservations',
    idPrefix: 'res_',
    activeList: '/api/admin-reservations-list',
    word: 'Reservation',
  },
  { name: 'subscriptions', prefix: '/api/admin/notify', idPrefix: 'ntf_', activeList: '/api/admin-notify-list', word: 'Subscription' },
];

/** The same record in either table: a reservation also has a name; both share everything else. */
async function insert(
  app: TestApp,
  kind: Kind,
  row: { id: string; productSlug: string; status: string; createdAt: string; archivedAt?: string },
) {
  const common = {
    id: kind.idPrefix + row.id,
    email: `${row.id}@example.com`,
    product_slug: row.productSlug,
    status: row.status,
    created_at: row.createdAt,
    updated_at: row.createdAt,
    archived_at: row.archivedAt ?? null,
  };
  if (kind.name === 'reservations')
    await app.services.database.db
      .insertInto('reservations')
      .values({ ...common, name: `name ${row.id}`, name_fold: foldForMatching(`name ${row.id}`) })
      .execute();
  else await app.services.database.db.insertInto('subscriptions').values(common).execute();
}

/** Plays the script against one kind and returns what it saw, in the kind's neutral words. */
async function transcript(app: TestApp, kind: Kind): Promise<unknown[]> {
  const seen: unknown[] = [];
  const id = (name: string) => kind.idPrefix + name;
  const call = async (path: string, body: unknown) => {
    const response = await app.admin(kind.prefix + path, body);
    seen.push({ path, status: response.status, body: neutral(kind, await response.json()) });
  };

  // Statuses both kinds know, and one neither does (legacy records).
  await insert(app, kind, { id: 'a', productSlug: 'kumo-vco-2', status: 'pending', createdAt: '2025-01-01T00:00:00.000Z' });
  await insert(app, kind, { id: 'b', productSlug: 'kumo-vco-2', status: 'pending', createdAt: '2025-01-02T00:00:00.000Z' });
  await insert(app, kind, { id: 'c', productSlug: 'tsuki-dual-lfo', status: 'legacy', createdAt: '2025-01-03T00:00:00.000Z' });
  for (let i = 0; i < 23; i++) {
    await insert(app, kind, {
      id: `old${String(i).padStart(2, '0')}`,
      productSlug: i < 20 ? 'kumo-vco-2' : 'tsuki-dual-lfo',
      status: i % 5 === 0 ? 'legacy' : 'pending',
      createdAt: `2024-12-01T00:${String(59 - i).padStart(2, '0')}:00.000Z`,
      archivedAt: `2024-12-02T00:${String(i).padStart(2, '0')}:00.000Z`,
    });
  }

  await call('/archive', {
    ids: [
      { id: id('a'), productSlug: 'kumo-vco-2' },
      { id: id('missing'), productSlug: 'kumo-vco-2' },
      { id: id('b'), productSlug: 'tsuki-dual-lfo' },
      { id: id('c'), productSlug: 'tsuki-dual-lfo' },
      { id: id('a'), productSlug: 'kumo-vco-2' },
      { id: id('old00'), productSlug: 'kumo-vco-2' },
      42,
      { id: 7, productSlug: 'x' },
      { productSlug: 'x' },
      null,
      { id: id('x'), productSlug: '' },
    ],
  });
  await call('/archive', { ids: [{ id: id('b'), productSlug: 'kumo-vco-2' }] });
  for (const body of [
    {},
    { ids: null },
    { ids: 'x' },
    { ids: { id: 'x' } },
    { ids: [] },
    { ids: Array.from({ length: 501 }, (_, i) => ({ id: `${i}`, productSlug: 'x' })) },
  ]) {
    await call('/archive', body);
    await call('/unarchive', body);
  }

  await call('/archives/list', {});
  await call('/archives/list', { page: 2 });
  await call('/archives/list', { page: '2', pageSize: '10' });
  await call('/archives/list', { page: 0, pageSize: 100 });
  await call('/archives/list', { page: 1e15 });
  await call('/archives/list', { productSlug: 'tsuki-dual-lfo', pageSize: 100 });
  await call('/archives/list', { status: 'legacy', pageSize: 100 });
  await call('/archives/list', { status: 'legacy', productSlug: 'tsuki-dual-lfo' });
  await call('/archives/list', { status: 'no-such-status' });
  for (const page of [1.5, 'abc', '', true, null, [1]]) await call('/archives/list', { page });
  for (const pageSize of [0, 101, 2.5, 'x', null]) await call('/archives/list', { pageSize });
  await call('/archives/list', { page: 'x', pageSize: 0 });
  await call('/archives/list', { status: 5 });

  await call('/unarchive', {
    ids: [
      { id: id('a'), productSlug: 'kumo-vco-2' },
      { id: id('b'), productSlug: 'tsuki-dual-lfo' },
      { id: id('missing'), productSlug: 'kumo-vco-2' },
      { id: id('a'), productSlug: 'kumo-vco-2' },
      'x',
    ],
  });
  const active = (await app.call(kind.activeList, {})).success();
  seen.push(
    ('reservations' in active ? active.reservations : active.subscriptions).map((r) => [r.id.slice(kind.idPrefix.length), r.status]),
  );
  await call('/archives/list', { pageSize: 3 });
  return seen;
}

/** A response with the kind's own words (and codes) replaced, archive times checked and replaced, and archived items cut to the shared fields. */
function neutral(kind: Kind, body: unknown): unknown {
  const text = JSON.stringify(body)
    .replaceAll(kind.word, 'Record')
    .replaceAll(`"${kind.word.toLowerCase()}_`, '"record_')
    .replaceAll(`"${kind.name}":`, '"records":')
    .replaceAll(`"${kind.idPrefix}`, '"id_');
  const value = NeutralAnswer.parse(JSON.parse(text));
  if (!value.records) return value;
  return {
    ...value,
    records: value.records.map((r) => {
      assert.equal(r.archivedAt, new Date(r.archivedAt).toISOString());
      return {
        id: r.id,
        email: r.email,
        productSlug: r.productSlug,
        status: r.status,
        createdAt: r.createdAt,
        isArchived: r.isArchived,
        archived: r.archivedAt.startsWith('2024') ? r.archivedAt : 'now',
      };
    }),
  };
}

/** Any answer of the script, in neutral words; an archived list's items are read for the fields both kinds share. */
const NeutralAnswer = z.looseObject({
  records: z
    .array(
      z.looseObject({
        id: z.string(),
        email: z.string(),
        productSlug: z.string(),
        status: z.string(),
        createdAt: z.string(),
        isArchived: z.boolean(),
        archivedAt: z.string(),
      }),
    )
    .optional(),
});

for (const dialect of DIALECTS) {
  describe(`archive parity of subscriptions with reservations (${dialect})`, () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp({ dialect, env: { RATE_LIMIT_PER_MINUTE: '0' } });
    });
    after(() => app.close());

    test('the same script gives the same transcript, the texts aside', async () => {
      const reservations = await transcript(app, KINDS[0]!);
      const subscriptions = await transcript(app, KINDS[1]!);
      assert.equal(reservations.length, subscriptions.length);
      reservations.forEach((step, i) => assert.deepEqual(subscriptions[i], step, `step ${i}: ${JSON.stringify(step).slice(0, 200)}`));
      // The script reached every outcome the archive has, so the comparison means something.
      const all = JSON.stringify(reservations);
      for (const expected of [
        'Record not found',
        'Record already archived',
        'Record is not archived',
        'Invalid item',
        'ids array is required',
        'ids array cannot be empty',
        'ids array cannot exceed 500 items',
        'page must be a positive integer',
        'pageSize must be between 1 and 100',
        '"totalPages":3',
      ]) {
        assert.ok(all.includes(expected), expected);
      }
    });

    test("subscriptions' own texts, and an archived subscription's fields", async () => {
      await app.services.database.db.deleteFrom('subscriptions').execute();
      await insert(app, KINDS[1]!, { id: 'n', productSlug: 'kumo-vco-2', status: 'notified', createdAt: '2025-01-01T00:00:00.000Z' });
      await app.services.database.db.updateTable('subscriptions').set({ notified_at: '2025-01-02T00:00:00.000Z' }).execute();
      const archive = async (ids: unknown) => (await app.admin('/api/admin/notify/archive', { ids })).json();
      assert.deepEqual(
        await archive([
          { id: 'ntf_n', productSlug: 'kumo-vco-2' },
          { id: 'ntf_n', productSlug: 'kumo-vco-2' },
          { id: 'ntf_zz', productSlug: 'kumo-vco-2' },
        ]),
        {
          success: true,
          archivedCount: 1,
          archivedIds: ['ntf_n'],
          errors: [
            { id: 'ntf_n', error: 'Subscription already archived', code: 'already_archived' },
            { id: 'ntf_zz', error: 'Subscription not found', code: 'subscription_not_found' },
          ],
        },
      );
      const listed = (await app.call('/api/admin/notify/archives/list', {})).success();
      assert.deepEqual(Object.keys(listed), ['success', 'subscriptions', 'total', 'page', 'pageSize', 'totalPages']);
      const [item] = listed.subscriptions;
      assert.ok(item);
      assert.equal(item.updatedAt, item.archivedAt);
      assert.deepEqual(
        { ...item, archivedAt: undefined, updatedAt: undefined },
        {
          id: 'ntf_n',
          email: 'n@example.com',
          productSlug: 'kumo-vco-2',
          status: 'notified',
          createdAt: '2025-01-01T00:00:00.000Z',
          notifiedAt: '2025-01-02T00:00:00.000Z',
          isArchived: true,
          archivedAt: undefined,
          updatedAt: undefined,
        },
      );
      const unarchived = (
        await app.call('/api/admin/notify/unarchive', {
          ids: [
            { id: 'ntf_n', productSlug: 'kumo-vco-2' },
            { id: 'ntf_n', productSlug: 'kumo-vco-2' },
          ],
        })
      ).success();
      assert.deepEqual(unarchived.errors, [{ id: 'ntf_n', error: 'Subscription is not archived', code: 'not_archived' }]);
      const [active] = (await app.call('/api/admin-notify-list', {})).success().subscriptions;
      assert.ok(active);
      assert.deepEqual(
        [active.status, active.notifiedAt, 'archivedAt' in active, 'isArchived' in active],
        ['notified', '2025-01-02T00:00:00.000Z', false, false],
      );
    });
  });
}
