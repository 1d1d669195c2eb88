import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { sql } from 'kysely';
import { assertNotAnObjectRefused, assertRefusedWithoutToken } from './helpers/admin-guards.ts';
import { DIALECTS, startTestApp, type TestApp } from './helpers/app.ts';
import { foldForMatching } from '../src/text/normalize.ts';

// The administrator's reservation endpoints over real HTTP on both dialects: the list, the status
// moves the status table allows and refuses, erasure, bulk archive and the archived list.

const ADMIN_PATHS = [
  '/api/admin-reservations-list',
  '/api/admin-reservations-status',
  '/api/admin-reservations-delete',
  '/api/admin/reservations/archive',
  '/api/admin/reservations/unarchive',
  '/api/admin/reservations/archives/list',
];

const ALLOWED: [string, string][] = [
  ['pending', 'confirmed'],
  ['pending', 'cancelled'],
  ['confirmed', 'fulfilled'],
  ['confirmed', 'cancelled'],
  ['confirmed', 'pending'],
  ['fulfilled', 'confirmed'],
  ['cancelled', 'pending'],
];
const STATUSES = ['pending', 'confirmed', 'fulfilled', 'cancelled'];
const FORBIDDEN = STATUSES.flatMap((from) => STATUSES.map((to) => [from, to] as [string, string])).filter(
  ([from, to]) => from !== to && !ALLOWED.some(([a, b]) => a === from && b === to),
);

for (const dialect of DIALECTS) {
  describe(`admin reservations (${dialect})`, () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp({ dialect, env: { RATE_LIMIT_PER_MINUTE: '0' } });
    });
    after(() => app.close());
    beforeEach(async () => {
      await app.services.database.db.deleteFrom('reservations').execute();
    });

    async function reserve(productSlug = 'kumo-vco-2', name = '山田 太郎', email = 'taro@example.com'): Promise<string> {
      const response = await app.request('/api/reservation', { method: 'POST', body: JSON.stringify({ name, email, productSlug }) });
      assert.equal(response.status, 200);
      return (await app.read('/api/reservation', response)).success().reservationId;
    }

    /** A row written directly, for fixed times and legacy statuses the API cannot make. */
    async function insert(row: {
      id: string;
      status?: string;
      productSlug?: string;
      createdAt: string;
      archivedAt?: string | null;
      respondedAt?: string | null;
    }) {
      await app.services.database.db
        .insertInto('reservations')
        .values({
          id: row.id,
          name: `name of ${row.id}`,
          name_fold: foldForMatching(`name of ${row.id}`),
          email: `${row.id}@example.com`,
          product_slug: row.productSlug ?? 'kumo-vco-2',
          status: row.status ?? 'pending',
          created_at: row.createdAt,
          updated_at: row.archivedAt ?? row.createdAt,
          archived_at: row.archivedAt ?? null,
          responded_at: row.respondedAt ?? null,
        })
        .execute();
    }

    const setStatus = (id: string, status: string, extra: object = {}) =>
      app.call('/api/admin-reservations-status', { id, productSlug: 'kumo-vco-2', status, ...extra });
    const archive = (ids: unknown) => app.call('/api/admin/reservations/archive', { ids });
    const unarchive = (ids: unknown) => app.call('/api/admin/reservations/unarchive', { ids });
    const archivedList = (body: object = {}) => app.call('/api/admin/reservations/archives/list', body);

    describe('authentication', () => {
      for (const path of ADMIN_PATHS) {
        test(`${path}: a missing or wrong token → 401 before the body is looked at`, () =>
          assertRefusedWithoutToken(app, path, { ids: 'x', page: 'x' }));
      }

      test('a body that is not a JSON object → 400 Invalid JSON body', async () => {
        for (const path of ADMIN_PATHS) await assertNotAnObjectRefused(app, path);
      });

      test('answers carry Access-Control-Allow-Origin: * and the preflight answers 204', async () => {
        const { headers } = await app.call('/api/admin-reservations-list', {});
        assert.equal(headers.get('access-control-allow-origin'), '*');
        const preflight = await app.request('/api/admin-reservations-status', {
          method: 'OPTIONS',
          headers: { origin: 'https://anywhere.example' },
        });
        assert.equal(preflight.status, 204);
        assert.equal(preflight.headers.get('access-control-allow-origin'), '*');
        assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /Authorization/);
      });
    });

    describe('POST /api/admin-reservations-list', () => {
      test('active reservations, newest first (ties by id, descending), with the active-list fields', async () => {
        await insert({ id: 'res_a', createdAt: '2025-01-01T00:00:00.000Z' });
        await insert({ id: 'res_c', createdAt: '2025-01-02T00:00:00.000Z', status: 'confirmed' });
        await insert({ id: 'res_b', createdAt: '2025-01-02T00:00:00.000Z', productSlug: 'tsuki-dual-lfo' });
        await insert({ id: 'res_z', createdAt: '2025-01-03T00:00:00.000Z', archivedAt: '2025-01-04T00:00:00.000Z' });
        const body = (await app.call('/api/admin-reservations-list', {})).success();
        assert.equal(body.success, true);
        assert.deepEqual(
          body.reservations.map((r) => r.id),
          ['res_c', 'res_b', 'res_a'],
        );
        assert.deepEqual(body.reservations[0], {
          id: 'res_c',
          number: 1002,
          name: 'name of res_c',
          email: 'res_c@example.com',
          productSlug: 'kumo-vco-2',
          status: 'confirmed',
          notes: '',
          createdAt: '2025-01-02T00:00:00.000Z',
          updatedAt: '2025-01-02T00:00:00.000Z',
          preorderId: null,
        });
      });

      test('filters by status and by product, together too', async () => {
        await insert({ id: 'res_1', createdAt: '2025-01-01T00:00:00.000Z' });
        await insert({ id: 'res_2', createdAt: '2025-01-02T00:00:00.000Z', status: 'confirmed' });
        await insert({ id: 'res_3', createdAt: '2025-01-03T00:00:00.000Z', status: 'confirmed', productSlug: 'tsuki-dual-lfo' });
        const ids = async (body: object) => (await app.call('/api/admin-reservations-list', body)).success().reservations.map((r) => r.id);
        assert.deepEqual(await ids({ status: 'confirmed' }), ['res_3', 'res_2']);
        assert.deepEqual(await ids({ productSlug: 'kumo-vco-2' }), ['res_2', 'res_1']);
        assert.deepEqual(await ids({ status: 'confirmed', productSlug: 'kumo-vco-2' }), ['res_2']);
        assert.deepEqual(await ids({ status: 'fulfilled' }), []);
        assert.deepEqual(await ids({ status: '', productSlug: '' }), ['res_3', 'res_2', 'res_1'], 'empty filters mean all');
      });

      test('an unknown status → 400 Invalid status with details', async () => {
        for (const status of ['shipped', 'reserved', 'PENDING', 3, null, ['pending'], '__proto__']) {
          const body = (await app.call('/api/admin-reservations-list', { status })).failure(400);
          assert.equal(body.error, 'Invalid status');
          assert.deepEqual(body.details, [{ field: 'status', message: 'status must be one of pending, confirmed, fulfilled, cancelled' }]);
        }
      });

      test('a productSlug that is not a string → 400 with details', async () => {
        const { status, body } = await app.call('/api/admin-reservations-list', { productSlug: 42 });
        assert.equal(status, 400);
        assert.deepEqual(body, {
          success: false,
          error: 'Invalid parameters',
          code: 'invalid_parameters',
          details: [{ field: 'productSlug', message: 'productSlug must be a string' }],
        });
      });
    });

    describe('POST /api/admin/reservations/bulk-status', () => {
      test('moves every item as its own status request would, one request for all; each refused item named with its code', async () => {
        const at = '2025-01-01T00:00:00.000Z';
        for (const id of ['res_b1', 'res_b2', 'res_b3']) await insert({ id, createdAt: at });
        await insert({ id: 'res_bx', status: 'fulfilled', createdAt: at });
        await insert({ id: 'res_ba', createdAt: at, archivedAt: '2025-01-02T00:00:00.000Z' });
        const items = [
          { id: 'res_b1', productSlug: 'kumo-vco-2', expectedUpdatedAt: at },
          { id: 'res_b2', productSlug: 'kumo-vco-2' },
          { id: 'res_b3', productSlug: 'kumo-vco-2', expectedUpdatedAt: '2024-12-31T00:00:00.000Z' },
          { id: 'res_bx', productSlug: 'kumo-vco-2' },
          { id: 'res_ba', productSlug: 'kumo-vco-2' },
          { id: 'res_none', productSlug: 'kumo-vco-2' },
          { id: 5 },
          { id: 'res_b1', productSlug: 'kumo-vco-2', expectedUpdatedAt: at },
        ];
        const body = (
          await app.call('/api/admin/reservations/bulk-status', { items, status: 'cancelled', notifyCustomer: false })
        ).success();
        assert.deepEqual(
          body.updated.map((r) => [r.id, r.status]),
          [
            ['res_b1', 'cancelled'],
            ['res_b2', 'cancelled'],
          ],
        );
        assert.equal(body.updatedCount, 2);
        assert.deepEqual(
          body.errors?.map((e) => [e.id, e.code]),
          [
            ['res_b3', 'changed_by_someone_else'],
            ['res_bx', 'invalid_status_transition'],
            ['res_ba', 'reservation_archived'],
            ['res_none', 'reservation_not_found'],
            ['', 'invalid_item'],
          ],
        );
        const history = (await app.call('/api/admin/reservations/get', { id: 'res_b1' })).success().history;
        assert.deepEqual(
          history.map((e) => [e.type, 'to' in e ? e.to : '']),
          [['status', 'cancelled']],
          'moved once, with its history',
        );
        for (const bad of [
          { items: [], status: 'cancelled' },
          { items: items, status: 'nope' },
          { status: 'cancelled' },
          { items: Array(501).fill(items[0]), status: 'cancelled' },
        ])
          assert.equal((await app.admin('/api/admin/reservations/bulk-status', bad)).status, 400, JSON.stringify(bad).slice(0, 40));
        assert.equal((await app.request('/api/admin/reservations/bulk-status', { method: 'POST', body: '{"items":[]}' })).status, 401);
      });
    });

    describe('POST /api/admin-reservations-status', () => {
      for (const [from, to] of ALLOWED) {
        test(`allows ${from} → ${to}`, async () => {
          await insert({ id: 'res_t', status: from, createdAt: '2025-01-01T00:00:00.000Z' });
          assert.equal((await setStatus('res_t', to)).success().reservation.status, to);
        });
      }
      for (const [from, to] of FORBIDDEN) {
        test(`refuses ${from} → ${to} with 409`, async () => {
          await insert({ id: 'res_t', status: from, createdAt: '2025-01-01T00:00:00.000Z' });
          const { status, body } = await setStatus('res_t', to, { notes: 'not kept' });
          assert.equal(status, 409);
          assert.deepEqual(body, {
            success: false,
            error: `Invalid status transition: ${from} -> ${to}`,
            code: 'invalid_status_transition',
          });
          const [row] = (await app.call('/api/admin-reservations-list', {})).success().reservations;
          assert.deepEqual([row?.status, row?.notes], [from, ''], 'nothing changed');
        });
      }

      test('a legacy status may move nowhere', async () => {
        await insert({ id: 'res_old', status: 'reserved', createdAt: '2025-01-01T00:00:00.000Z' });
        assert.equal((await setStatus('res_old', 'confirmed')).failure(409).error, 'Invalid status transition: reserved -> confirmed');
      });

      test('answers the reservation in the active-list shape', async () => {
        const id = await reserve();
        const body = (await setStatus(id, 'confirmed', { notes: '入荷待ち' })).success();
        assert.deepEqual(Object.keys(body), ['success', 'reservation']);
        assert.deepEqual(Object.keys(body.reservation), [
          'id',
          'number',
          'name',
          'email',
          'productSlug',
          'status',
          'notes',
          'createdAt',
          'updatedAt',
          'preorderId',
        ]);
        assert.deepEqual([body.reservation.id, body.reservation.status, body.reservation.notes], [id, 'confirmed', '入荷待ち']);
      });

      test('notes: replaced when given, kept when omitted, cleared with an empty string; staying on a status edits them', async () => {
        const id = await reserve();
        assert.equal((await setStatus(id, 'pending', { notes: 'first' })).success().reservation.notes, 'first');
        assert.equal((await setStatus(id, 'confirmed')).success().reservation.notes, 'first');
        assert.equal(
          (await setStatus(id, 'confirmed', { notes: '<b>二行目</b>\n改行' })).success().reservation.notes,
          '<b>二行目</b>\n改行',
        );
        assert.equal((await setStatus(id, 'confirmed', { notes: '' })).success().reservation.notes, '');
        assert.equal((await setStatus(id, 'confirmed', { notes: '𝄞'.repeat(2000) })).status, 200, '2000 code points');
      });

      test('respondedAt is set by the first move away from pending and never overwritten', async () => {
        const id = await reserve();
        await setStatus(id, 'pending', { notes: 'a notes-only edit is no response' });
        const respondedAt = async () => {
          const row = await app.services.database.db
            .selectFrom('reservations')
            .select('responded_at')
            .where('id', '=', id)
            .executeTakeFirstOrThrow();
          return row.responded_at;
        };
        assert.equal(await respondedAt(), null);
        await setStatus(id, 'confirmed');
        const first = await respondedAt();
        assert.ok(first && !Number.isNaN(Date.parse(first)));
        await new Promise((resolve) => setTimeout(resolve, 5));
        await setStatus(id, 'pending');
        await setStatus(id, 'cancelled');
        assert.equal(await respondedAt(), first);
        await archive([{ id, productSlug: 'kumo-vco-2' }]);
        assert.equal((await archivedList()).success().reservations[0]?.respondedAt, first, 'shown in the archived list');
      });

      test('not found, or found under another product → 404', async () => {
        const id = await reserve();
        for (const [target, slug] of [
          ['res_missing', 'kumo-vco-2'],
          [id, 'tsuki-dual-lfo'],
          [id.toUpperCase(), 'kumo-vco-2'],
        ]) {
          const { status, body } = await app.call('/api/admin-reservations-status', { id: target, productSlug: slug, status: 'confirmed' });
          assert.equal(status, 404);
          assert.deepEqual(body, { success: false, error: 'Reservation not found', code: 'reservation_not_found' });
        }
      });

      test('an archived reservation → 409', async () => {
        const id = await reserve();
        await archive([{ id, productSlug: 'kumo-vco-2' }]);
        const { status, body } = await setStatus(id, 'confirmed');
        assert.equal(status, 409);
        assert.deepEqual(body, { success: false, error: 'Reservation is archived', code: 'reservation_archived' });
      });

      test('missing or non-string id, productSlug or status → 400 Missing required fields', async () => {
        const full = { id: 'res_x', productSlug: 'kumo-vco-2', status: 'confirmed' };
        const bodies: object[] = [
          {},
          { productSlug: 'kumo-vco-2', status: 'confirmed' },
          { id: 'res_x', status: 'confirmed' },
          { id: 'res_x', productSlug: 'kumo-vco-2' },
          { ...full, id: '' },
          { ...full, id: 42 },
          { ...full, productSlug: null },
          { ...full, status: ['confirmed'] },
          { ...full, id: 'res\u0000x' },
          { ...full, id: 'x', status: 'nonsense', productSlug: undefined },
        ];
        for (const body of bodies) {
          const answer = (await app.call('/api/admin-reservations-status', body)).failure(400);
          assert.equal(answer.error, 'Missing required fields: id, productSlug, status');
        }
      });

      test('a status that is not one → 400 Invalid status', async () => {
        for (const status of ['shipped', 'reserved', 'responded', 'Confirmed']) {
          const body = (await app.call('/api/admin-reservations-status', { id: 'res_x', productSlug: 'kumo-vco-2', status })).failure(400);
          assert.equal(body.error, 'Invalid status');
        }
      });

      test('notes that are not a string of at most 2000 characters → 400', async () => {
        const id = await reserve();
        for (const notes of [null, 42, ['a'], { a: 1 }, 'a'.repeat(2001), 'NUL\u0000']) {
          const body = (await setStatus(id, 'confirmed', { notes })).failure(400);
          assert.equal(body.error, 'notes must be a string of at most 2000 characters');
        }
        const [row] = (await app.call('/api/admin-reservations-list', {})).success().reservations;
        assert.equal(row?.status, 'pending', 'nothing changed');
      });
    });

    describe('POST /api/admin-reservations-delete', () => {
      test('deletes the reservation and every message about it', async () => {
        const keep = await reserve('kumo-vco-2', '残る人', 'stay@example.com');
        const gone = await reserve('kumo-vco-2', '消える人', 'gone@example.com');
        const { status, body } = await app.call('/api/admin-reservations-delete', { id: gone, productSlug: 'kumo-vco-2' });
        assert.equal(status, 200);
        assert.deepEqual(body, { success: true, deletedId: gone });
        assert.deepEqual(
          (await app.call('/api/admin-reservations-list', {})).success().reservations.map((r) => r.id),
          [keep],
        );
        const outbox = await app.services.database.db.selectFrom('outbox').select(['record_id', 'payload', 'destination']).execute();
        assert.ok(
          outbox.every((m) => m.record_id !== gone && !m.payload.includes('gone@example.com') && m.destination !== 'gone@example.com'),
        );
        assert.ok(outbox.some((m) => m.record_id === keep));
        assert.equal((await app.call('/api/admin-reservations-delete', { id: gone, productSlug: 'kumo-vco-2' })).status, 404);
      });

      test('archived reservations can be erased too', async () => {
        const id = await reserve();
        await archive([{ id, productSlug: 'kumo-vco-2' }]);
        assert.equal((await app.call('/api/admin-reservations-delete', { id, productSlug: 'kumo-vco-2' })).status, 200);
        assert.equal((await archivedList()).success().total, 0);
      });

      test('not found, or another product → 404; missing fields → 400', async () => {
        const id = await reserve();
        assert.deepEqual((await app.call('/api/admin-reservations-delete', { id, productSlug: 'tsuki-dual-lfo' })).body, {
          success: false,
          error: 'Reservation not found',
          code: 'reservation_not_found',
        });
        assert.equal((await app.call('/api/admin-reservations-delete', { id: 'res_nope', productSlug: 'kumo-vco-2' })).status, 404);
        for (const body of [{}, { id }, { productSlug: 'kumo-vco-2' }, { id: 1, productSlug: 'kumo-vco-2' }]) {
          const answer = await app.call('/api/admin-reservations-delete', body);
          assert.equal(answer.failure(400).error, 'Missing required fields: id, productSlug');
        }
        assert.equal((await app.call('/api/admin-reservations-list', {})).success().reservations.length, 1);
      });
    });

    describe('bulk archive and unarchive', () => {
      test('archives what it can and lists the rest in errors, keeping the status', async () => {
        const a = await reserve();
        const b = await reserve('tsuki-dual-lfo');
        await setStatus(a, 'confirmed');
        const { status, body } = await archive([
          { id: a, productSlug: 'kumo-vco-2' },
          { id: 'res_missing', productSlug: 'kumo-vco-2' },
          { id: b, productSlug: 'kumo-vco-2' },
          { id: b, productSlug: 'tsuki-dual-lfo' },
          { id: a, productSlug: 'kumo-vco-2' },
          42,
          { id: 7, productSlug: 'x' },
          { productSlug: 'x' },
          null,
          { id: 'res_x', productSlug: '' },
        ]);
        assert.equal(status, 200);
        assert.deepEqual(body, {
          success: true,
          archivedCount: 2,
          archivedIds: [a, b],
          errors: [
            { id: 'res_missing', error: 'Reservation not found', code: 'reservation_not_found' },
            { id: b, error: 'Reservation not found', code: 'reservation_not_found' },
            { id: a, error: 'Reservation already archived', code: 'already_archived' },
            { id: '', error: 'Invalid item', code: 'invalid_item' },
            { id: '', error: 'Invalid item', code: 'invalid_item' },
            { id: '', error: 'Invalid item', code: 'invalid_item' },
            { id: '', error: 'Invalid item', code: 'invalid_item' },
            { id: 'res_x', error: 'Invalid item', code: 'invalid_item' },
          ],
        });
        assert.deepEqual((await app.call('/api/admin-reservations-list', {})).success().reservations, []);
        const archived = (await archivedList()).success().reservations;
        assert.deepEqual(
          archived.map((r) => [r.id, r.status, r.isArchived]).sort(),
          [
            [a, 'confirmed', true],
            [b, 'pending', true],
          ].sort(),
        );
        for (const r of archived) assert.equal(r.archivedAt, new Date(r.archivedAt).toISOString());
      });

      test('no errors → no errors field', async () => {
        const a = await reserve();
        assert.deepEqual((await archive([{ id: a, productSlug: 'kumo-vco-2' }])).body, {
          success: true,
          archivedCount: 1,
          archivedIds: [a],
        });
      });

      test('unarchive brings records back with their status and no archivedAt', async () => {
        const a = await reserve();
        const b = await reserve();
        await setStatus(a, 'cancelled');
        await archive([{ id: a, productSlug: 'kumo-vco-2' }]);
        const { status, body } = await unarchive([
          { id: a, productSlug: 'kumo-vco-2' },
          { id: b, productSlug: 'kumo-vco-2' },
          { id: 'res_missing', productSlug: 'kumo-vco-2' },
          'x',
        ]);
        assert.equal(status, 200);
        assert.deepEqual(body, {
          success: true,
          unarchivedCount: 1,
          unarchivedIds: [a],
          errors: [
            { id: b, error: 'Reservation is not archived', code: 'not_archived' },
            { id: 'res_missing', error: 'Reservation not found', code: 'reservation_not_found' },
            { id: '', error: 'Invalid item', code: 'invalid_item' },
          ],
        });
        const active = (await app.call('/api/admin-reservations-list', {})).success().reservations;
        assert.deepEqual(active.find((r) => r.id === a)?.status, 'cancelled');
        const row = await app.services.database.db
          .selectFrom('reservations')
          .select('archived_at')
          .where('id', '=', a)
          .executeTakeFirstOrThrow();
        assert.equal(row.archived_at, null);
        assert.equal((await archivedList()).success().total, 0);
      });

      test('the ids array: required, not empty, at most 500', async () => {
        for (const path of ['/api/admin/reservations/archive', '/api/admin/reservations/unarchive'] as const) {
          for (const body of [{}, { ids: null }, { ids: 'res_x' }, { ids: { id: 'res_x' } }, { ids: 3 }]) {
            assert.equal((await app.call(path, body)).failure(400).error, 'ids array is required');
          }
          assert.equal((await app.call(path, { ids: [] })).failure(400).error, 'ids array cannot be empty');
          const many = Array.from({ length: 501 }, (_, i) => ({ id: `res_${i}`, productSlug: 'kumo-vco-2' }));
          assert.equal((await app.call(path, { ids: many })).failure(400).error, 'ids array cannot exceed 500 items');
          const enough = (await app.call(path, { ids: many.slice(0, 500) })).success();
          assert.equal('archivedCount' in enough ? enough.archivedCount : enough.unarchivedCount, 0);
          assert.equal(enough.errors?.length, 500);
        }
      });

      test('500 real items in one request', async () => {
        for (let i = 0; i < 500; i++) await insert({ id: `res_${String(i).padStart(3, '0')}`, createdAt: '2025-01-01T00:00:00.000Z' });
        const items = Array.from({ length: 500 }, (_, i) => ({ id: `res_${String(i).padStart(3, '0')}`, productSlug: 'kumo-vco-2' }));
        assert.equal((await archive(items)).success().archivedCount, 500);
        assert.equal((await archivedList({ pageSize: 100 })).success().total, 500);
        assert.equal((await unarchive(items)).success().unarchivedCount, 500);
      });

      test('the batch is one transaction: a failing write leaves every record as it was', async () => {
        const a = await reserve();
        const b = await reserve();
        const db = app.services.database.db;
        if (dialect === 'sqlite') {
          await sql
            .raw(`create trigger refuse_b before update on reservations when new.id = '${b}' begin select raise(abort, 'refused'); end`)
            .execute(db);
        } else {
          await sql
            .raw(
              `create function refuse_b() returns trigger as $$ begin if new.id = '${b}' then raise exception 'refused'; end if; return new; end $$ language plpgsql`,
            )
            .execute(db);
          await sql.raw('create trigger refuse_b before update on reservations for each row execute function refuse_b()').execute(db);
        }
        try {
          const { status } = await archive([
            { id: a, productSlug: 'kumo-vco-2' },
            { id: b, productSlug: 'kumo-vco-2' },
          ]);
          assert.equal(status, 500);
          assert.equal((await app.call('/api/admin-reservations-list', {})).success().reservations.length, 2, 'neither was archived');
        } finally {
          await sql
            .raw(dialect === 'sqlite' ? 'drop trigger refuse_b' : 'drop trigger refuse_b on reservations; drop function refuse_b')
            .execute(db);
        }
      });
    });

    describe('POST /api/admin/reservations/archives/list', () => {
      async function seedArchived() {
        // Archived at 00:00, 00:01, … — created in the opposite order, so the sort shows.
        for (let i = 0; i < 25; i++) {
          await insert({
            id: `res_${String(i).padStart(2, '0')}`,
            status: i % 5 === 0 ? 'reserved' : i % 2 ? 'confirmed' : 'pending',
            productSlug: i < 20 ? 'kumo-vco-2' : 'tsuki-dual-lfo',
            createdAt: `2025-01-01T00:${String(59 - i).padStart(2, '0')}:00.000Z`,
            archivedAt: `2025-02-01T00:${String(i).padStart(2, '0')}:00.000Z`,
            respondedAt: i === 3 ? '2025-01-15T00:00:00.000Z' : null,
          });
        }
        await insert({ id: 'res_active', createdAt: '2025-01-01T00:00:00.000Z' });
      }

      test('most recently archived first, 20 a page by default, with paging totals', async () => {
        await seedArchived();
        const body = (await archivedList()).success();
        assert.deepEqual(Object.keys(body), ['success', 'reservations', 'total', 'page', 'pageSize', 'totalPages']);
        assert.deepEqual([body.total, body.page, body.pageSize, body.totalPages], [25, 1, 20, 2]);
        assert.deepEqual(
          body.reservations.map((r) => r.id),
          Array.from({ length: 20 }, (_, i) => `res_${String(24 - i).padStart(2, '0')}`),
        );
        const second = (await archivedList({ page: 2 })).success();
        assert.deepEqual(
          second.reservations.map((r) => r.id),
          ['res_04', 'res_03', 'res_02', 'res_01', 'res_00'],
        );
        assert.deepEqual((await archivedList({ page: 3 })).success().reservations, []);
      });

      test('an archived record shows the archived fields', async () => {
        await seedArchived();
        const found = (await archivedList({ pageSize: 100 })).success().reservations.find((r) => r.id === 'res_03');
        assert.ok(found);
        const { number, ...item } = found;
        assert.ok(Number.isInteger(number) && number >= 1001, 'its number');
        assert.deepEqual(item, {
          id: 'res_03',
          email: 'res_03@example.com',
          name: 'name of res_03',
          productSlug: 'kumo-vco-2',
          status: 'confirmed',
          notes: '',
          createdAt: '2025-01-01T00:56:00.000Z',
          respondedAt: '2025-01-15T00:00:00.000Z',
          isArchived: true,
          archivedAt: '2025-02-01T00:03:00.000Z',
          updatedAt: '2025-02-01T00:03:00.000Z',
        });
        assert.equal((await archivedList({ pageSize: 100 })).success().reservations.find((r) => r.id === 'res_04')?.respondedAt, null);
      });

      test('filters by product and by any status string, legacy ones included', async () => {
        await seedArchived();
        const ids = async (body: object) => (await archivedList({ pageSize: 100, ...body })).success();
        assert.equal((await ids({ productSlug: 'tsuki-dual-lfo' })).total, 5);
        assert.deepEqual(
          (await ids({ status: 'reserved' })).reservations.map((r) => r.id),
          ['res_20', 'res_15', 'res_10', 'res_05', 'res_00'],
        );
        assert.deepEqual(
          (await ids({ status: 'reserved', productSlug: 'tsuki-dual-lfo' })).reservations.map((r) => r.id),
          ['res_20'],
        );
        const none = await ids({ status: 'no-such-status' });
        assert.deepEqual([none.reservations, none.total, none.totalPages], [[], 0, 0]);
      });

      test('page below 1 reads as 1; integers may come as strings', async () => {
        await seedArchived();
        for (const page of [0, -5, '0', '-1']) assert.equal((await archivedList({ page })).success().page, 1);
        const body = (await archivedList({ page: '2', pageSize: '10' })).success();
        assert.deepEqual([body.page, body.pageSize, body.totalPages, body.reservations.length], [2, 10, 3, 10]);
        assert.equal((await archivedList({ pageSize: 100 })).success().reservations.length, 25);
        assert.equal((await archivedList({ pageSize: 1 })).success().totalPages, 25);
        assert.deepEqual((await archivedList({ page: 1e15 })).success().reservations, []);
      });

      test('a page that is not an integer → 400 page must be a positive integer', async () => {
        for (const page of [1.5, 'abc', '1.5', '', true, null, [1], { n: 1 }, '1e3']) {
          const body = (await archivedList({ page })).failure(400);
          assert.equal(body.error, 'page must be a positive integer');
        }
      });

      test('a pageSize outside 1..100 or not an integer → 400 pageSize must be between 1 and 100', async () => {
        for (const pageSize of [0, 101, -1, 2.5, 'x', '101', '', null, false]) {
          const body = (await archivedList({ pageSize })).failure(400);
          assert.equal(body.error, 'pageSize must be between 1 and 100');
        }
      });

      test('both wrong: the page message, and both fields in details', async () => {
        const body = (await archivedList({ page: 'x', pageSize: 0 })).failure(400);
        assert.equal(body.error, 'page must be a positive integer');
        assert.deepEqual(
          body.details?.map((d) => d.field),
          ['page', 'pageSize'],
        );
      });

      test('filters that are not strings → 400', async () => {
        assert.equal((await archivedList({ status: 5 })).status, 400);
        assert.equal((await archivedList({ productSlug: ['a'] })).status, 400);
      });
    });
  });
}
