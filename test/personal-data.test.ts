import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { CompiledQuery, sql, type Kysely } from 'kysely';
import { atAddress } from '../src/db/address.ts';
import type { Tables } from '../src/db/schema.ts';
import type { DispatcherTimings } from '../src/messaging/delivery/dispatcher.ts';
import { enqueueMessages } from '../src/messaging/outbox/store.ts';
import { DIALECTS, type Dialect, type TestApp } from './helpers/app.ts';
import { startEmailTestApp } from './helpers/email-app.ts';
import type { HttpReceiver } from './helpers/http-receiver.ts';
import { settle, waitUntil } from './helpers/wait.ts';

// A customer's request to see or erase their data, over real HTTP on both dialects, with
// a real HTTP receiver as the email API and the chat webhook: what the export finds, what the
// erase deletes (and what it leaves), that a message waiting to be sent is never sent once erased,
// the bad inputs, and that the look-ups read the address indexes.

const EXPORT = '/api/admin/personal-data/export';
const ERASE = '/api/admin/personal-data/erase';
// Retries wait two seconds, long enough to erase a message between its failed attempt and the next.
const RETRY_MS = 2_000;
const TIMINGS: Partial<DispatcherTimings> = {
  pollIntervalMs: 25,
  retryBaseMs: RETRY_MS,
  retryCapMs: RETRY_MS,
  leaseMs: 5_000,
  maxAttempts: 5,
};

// A message sent in 2025 is planted below: the longest retention keeps it from the purge that runs a
// second after the start.
const RETAIN = { OUTBOX_RETENTION_DAYS: '3650' };

for (const dialect of DIALECTS) {
  describe(`personal data (${dialect})`, () => {
    let app: TestApp;
    let api: HttpReceiver;
    let close: () => Promise<void>;
    before(async () => {
      ({ app, api, close } = await startEmailTestApp({ dialect, dispatcher: TIMINGS, webhooks: ['reservation', 'restock'], env: RETAIN }));
    });
    after(() => close());
    beforeEach(async () => {
      const { db } = app.services.database;
      for (const table of ['outbox', 'reservations', 'subscriptions', 'record_history', 'preorder_customers', 'preorders'] as const)
        await db.deleteFrom(table).execute();
      api.failAlways(0);
      api.requests.length = 0;
    });

    async function reserve(email: string, productSlug = 'kumo-vco-2', name = '山田 太郎'): Promise<string> {
      return (await app.read('/api/reservation', await app.post('/api/reservation', { name, email, productSlug }))).success().reservationId;
    }
    async function signup(email: string, productSlug = 'kumo-vco-2'): Promise<string> {
      return (await app.read('/api/notify', await app.post('/api/notify', { email, productSlug }))).success().subscriptionId;
    }
    const exported = async (email: unknown) => (await app.call(EXPORT, { email })).success();
    const allDelivered = () =>
      waitUntil(
        async () => (await app.services.database.db.selectFrom('outbox').select('id').where('status', '!=', 'sent').execute()).length === 0,
        { what: 'every notice delivered' },
      );
    const outboxIds = async () =>
      (await app.services.database.db.selectFrom('outbox').select('id').orderBy('id').execute()).map((row) => row.id);

    test('the export finds every record at the address whatever its case, archived ones too, and every message about them', async () => {
      const first = await reserve('Taro@Example.com');
      const second = await reserve('taro@example.com', 'tsuki-dual-lfo');
      const subscription = await signup('TARO@example.COM');
      const others = [await reserve('taro@example.co'), await reserve('xtaro@example.com'), await signup('hanako@example.com')];
      assert.equal(
        (await app.call('/api/admin/reservations/archive', { ids: [{ id: second, productSlug: 'tsuki-dual-lfo' }] })).status,
        200,
      );
      await allDelivered();

      const data = await exported('  TARO@EXAMPLE.COM ');
      assert.equal(data.email, 'taro@example.com');
      assert.deepEqual(data.reservations.map((r) => r.id).sort(), [first, second].sort());
      const archived = data.reservations.find((r) => r.id === second)!;
      assert.ok(archived.archivedAt, 'archived ones are listed, with when');
      assert.equal(data.reservations.find((r) => r.id === first)!.archivedAt, null);
      assert.deepEqual(
        data.reservations.map((r) => [r.email, r.name]),
        [
          ['taro@example.com', '山田 太郎'],
          ['taro@example.com', '山田 太郎'],
        ],
      );
      assert.deepEqual(
        data.subscriptions.map((s) => [s.id, s.email, s.status, s.archivedAt]),
        [[subscription, 'taro@example.com', 'pending', null]],
      );
      // Each reservation: its confirmation email and the shop's chat notice; the signup: its chat notice.
      assert.equal(data.messages.length, 5);
      assert.deepEqual(new Set(data.messages.map((m) => m.recordId)), new Set([first, second, subscription]));
      for (const message of data.messages) {
        assert.equal(message.status, 'sent');
        assert.equal(message.to, message.channel === 'email' ? 'taro@example.com' : message.kind);
        assert.ok(!JSON.stringify(message).includes('/hooks/') && !JSON.stringify(message).includes('http'), 'no webhook URL');
      }
      assert.deepEqual(
        data.messages.filter((m) => m.channel === 'email').map((m) => m.kind),
        ['reservation-received', 'reservation-received'],
      );
      assert.deepEqual(new Set(data.messages.filter((m) => m.channel === 'chat').map((m) => m.kind)), new Set(['reservation', 'restock']));
      const times = data.messages.map((m) => m.createdAt);
      assert.deepEqual(times, [...times].sort().reverse(), 'newest first');
      const json = JSON.stringify(data);
      for (const other of others) assert.ok(!json.includes(other), 'nobody else’s records');
    });

    test('the export holds each record’s history: its status moves, memo edits and archiving, with who made them', async () => {
      const password = 'history-owner-password';
      const { staff } = (
        await app.call('/api/admin/staff/create', { email: `owner.${dialect}@example.jp`, name: '店長 一郎', role: 'owner', password })
      ).success();
      const signedIn = await app.post('/api/admin/session', { email: staff.email, password });
      assert.equal(signedIn.status, 200);
      const cookie = signedIn.headers.get('set-cookie')!.split(';')[0]!;
      const asOwner = (path: string, body: unknown) =>
        app.request(path, { method: 'POST', headers: { cookie, origin: app.url }, body: JSON.stringify(body) });

      const reservation = await reserve('history@example.com');
      const subscription = await signup('history@example.com', 'tsuki-dual-lfo');
      const other = await reserve('someone.else@example.com');
      const memo = '電話 090-0000-0000、店頭で受け取り希望';
      const moved = await asOwner('/api/admin-reservations-status', {
        id: reservation,
        productSlug: 'kumo-vco-2',
        status: 'confirmed',
        notes: memo,
        notifyCustomer: false,
      });
      assert.equal(moved.status, 200);
      await app.call('/api/admin-reservations-status', { id: other, productSlug: 'kumo-vco-2', status: 'pending', notes: '別のお客様' });
      await app.call('/api/admin/reservations/archive', { ids: [{ id: reservation, productSlug: 'kumo-vco-2' }] });
      await app.call('/api/admin-notify-status', { id: subscription, productSlug: 'tsuki-dual-lfo', status: 'unsubscribed' });

      const data = await exported('HISTORY@example.com');
      assert.deepEqual(
        data.history.map((h) => h.recordId),
        [reservation, subscription],
        'one per record: the reservations, then the subscriptions',
      );
      const [ofReservation, ofSubscription] = data.history.map((h) => h.entries.map(({ at: _at, ...entry }) => entry));
      assert.deepEqual(ofReservation, [
        {
          type: 'status',
          actor: 'staff',
          staffId: staff.id,
          staffName: '店長 一郎',
          from: 'pending',
          to: 'confirmed',
          customerEmailed: false,
        },
        { type: 'memo', actor: 'staff', staffId: staff.id, staffName: '店長 一郎', before: '', after: memo },
        { type: 'archived', actor: 'staff', staffId: null, staffName: null },
      ]);
      assert.deepEqual(ofSubscription, [
        { type: 'status', actor: 'staff', staffId: null, staffName: null, from: 'pending', to: 'unsubscribed', customerEmailed: null },
      ]);
      const times = data.history[0]!.entries.map((entry) => entry.at);
      assert.deepEqual(times, [...times].sort(), 'oldest first');
      assert.ok(!JSON.stringify(data).includes('別のお客様'), 'nobody else’s memo');
      assert.ok(
        data.history.every((h) => h.entries.every((entry) => entry.type !== 'message')),
        'the messages are in messages, not twice',
      );

      assert.equal((await app.call(ERASE, { email: 'history@example.com' })).success().erased.reservations, 1);
      const { db } = app.services.database;
      assert.deepEqual(
        (await db.selectFrom('record_history').select('record_id').where('record_id', 'in', [reservation, subscription]).execute()).length,
        0,
        'erased with the records',
      );
      assert.deepEqual((await exported('history@example.com')).history, []);
    });

    test('an email to the address that names no record (from before messages named theirs) is found and erased too', async () => {
      const { db } = app.services.database;
      await enqueueMessages(db, [
        {
          idempotencyKey: 'legacy/1',
          queuedAt: '2025-01-01T00:00:00.000Z',
          message: {
            channel: 'email',
            to: 'Legacy@Example.com',
            email: {
              template: 'restock-available',
              facts: { productName: 'x', productUrl: 'http://localhost/', price: null, unsubscribeUrl: 'http://localhost/u' },
            },
          },
        },
      ]);
      await db.updateTable('outbox').set({ status: 'sent', sent_at: '2025-01-01T00:00:01.000Z' }).execute();
      const data = await exported('legacy@example.com');
      assert.deepEqual(
        data.messages.map((m) => [m.recordId, m.kind, m.to, m.status]),
        [[null, 'restock-available', 'Legacy@Example.com', 'sent']],
      );
      assert.deepEqual((await app.call(ERASE, { email: 'LEGACY@example.com' })).success().erased, {
        reservations: 0,
        subscriptions: 0,
        messages: 1,
        suppressions: 0,
      });
      assert.deepEqual(await outboxIds(), []);
    });

    test('a Unicode domain finds the address stored in its ASCII form', async () => {
      const id = await reserve('taro@xn--r8jz45g.jp');
      const data = await exported('Taro@例え.JP');
      assert.equal(data.email, 'taro@xn--r8jz45g.jp');
      assert.deepEqual(
        data.reservations.map((r) => r.id),
        [id],
      );
    });

    test('one customer, one address: the records made as a +tag, with gmail dots or at googlemail are found and erased with the address', async () => {
      assert.equal(
        (await app.call('/api/admin/preorders/upsert', { productSlug: 'tsuki-dual-lfo', capacity: 10, perCustomerLimit: 2 })).status,
        200,
      );
      const theirs = [
        await reserve('Ume.Tanaka+synth@gmail.com', 'tsuki-dual-lfo'),
        await reserve('umetanaka@googlemail.com', 'tsuki-dual-lfo'),
        await signup('u.m.e.tanaka@gmail.com'),
      ];
      const others = [await reserve('ume.tanaka@example.com'), await reserve('umetanaka@gmail.co.jp')];
      await allDelivered();
      const data = await exported('UmeTanaka@Gmail.com');
      assert.equal(data.email, 'umetanaka@gmail.com', 'the address as looked up, in its canonical form');
      assert.deepEqual([...data.reservations, ...data.subscriptions].map((r) => r.id).sort(), [...theirs].sort());
      assert.deepEqual(
        data.reservations.map((r) => r.email).sort(),
        ['ume.tanaka+synth@gmail.com', 'umetanaka@googlemail.com'],
        'each record keeps the address as typed',
      );
      assert.deepEqual(
        data.messages
          .filter((m) => m.channel === 'email')
          .map((m) => m.to)
          .sort(),
        ['ume.tanaka+synth@gmail.com', 'umetanaka@googlemail.com'],
      );

      const { erased } = (await app.call(ERASE, { email: 'ume.tanaka+other@googlemail.com' })).success();
      assert.deepEqual([erased.reservations, erased.subscriptions], [2, 1]);
      const left = await app.services.database.db.selectFrom('reservations').select('id').orderBy('id').execute();
      assert.deepEqual(
        left.map((r) => r.id),
        [...others].sort(),
      );
      const counts = await app.services.database.db.selectFrom('preorder_customers').selectAll().execute();
      assert.deepEqual(counts, [], "the customer's seat count went with them");
      assert.equal((await exported('ume.tanaka@example.com')).reservations.length, 1, 'dots count outside gmail: another customer');
    });

    test('an address that holds nothing exports empty lists and erases nothing', async () => {
      await reserve('someone@example.com');
      const data = await exported('nobody@example.com');
      assert.deepEqual([data.reservations, data.subscriptions, data.messages, data.suppressions, data.history], [[], [], [], [], []]);
      assert.deepEqual((await app.call(ERASE, { email: 'nobody@example.com' })).success(), {
        success: true,
        erased: { reservations: 0, subscriptions: 0, messages: 0, suppressions: 0 },
      });
      assert.equal((await exported('someone@example.com')).reservations.length, 1);
    });

    test('the erase deletes exactly what the export lists, gives preorder seats back, and leaves everyone else', async () => {
      assert.equal(
        (await app.call('/api/admin/preorders/upsert', { productSlug: 'tsuki-dual-lfo', capacity: 1, perCustomerLimit: 1 })).status,
        200,
      );
      const held = await reserve('Erase.Me@example.com', 'tsuki-dual-lfo');
      await reserve('erase.me@example.com');
      const subscription = await signup('erase.me@example.com', 'tsuki-dual-lfo');
      await app.call('/api/admin/notify/archive', { ids: [{ id: subscription, productSlug: 'tsuki-dual-lfo' }] });
      const kept = await reserve('keep@example.com');
      await app.call('/api/admin-reservations-status', {
        id: held,
        productSlug: 'tsuki-dual-lfo',
        status: 'pending',
        notes: '電話 090-0000-0000 の方',
      });
      await app.call('/api/admin-reservations-status', { id: kept, productSlug: 'kumo-vco-2', status: 'pending', notes: '別のお客様' });
      await allDelivered();
      const before = await exported('erase.me@example.com');
      const keptBefore = await exported('keep@example.com');
      assert.equal(
        (await app.post('/api/reservation', { name: 'x', email: 'late@example.com', productSlug: 'tsuki-dual-lfo' })).status,
        409,
        'the one seat is taken',
      );

      const { erased } = (await app.call(ERASE, { email: 'ERASE.ME@EXAMPLE.COM' })).success();
      assert.deepEqual(erased, {
        reservations: before.reservations.length,
        subscriptions: before.subscriptions.length,
        messages: before.messages.length,
        suppressions: before.suppressions.length,
      });
      assert.deepEqual(erased, { reservations: 2, subscriptions: 1, messages: 5, suppressions: 0 });
      const after = await exported('erase.me@example.com');
      assert.deepEqual([after.reservations, after.subscriptions, after.messages], [[], [], []]);
      assert.deepEqual(await exported('keep@example.com'), keptBefore, 'another customer’s data is untouched');

      const { db } = app.services.database;
      const rows = JSON.stringify([
        await db.selectFrom('outbox').selectAll().execute(),
        await db.selectFrom('preorder_customers').selectAll().execute(),
      ]);
      assert.ok(!rows.toLowerCase().includes('erase.me'), 'the address is nowhere in the outbox or the campaign counts');
      assert.deepEqual(
        (await db.selectFrom('record_history').select('record_id').execute()).map((row) => row.record_id),
        [kept],
        'the erased records’ history (their memos) is gone, others’ stays',
      );
      assert.equal((await db.selectFrom('reservations').select('id').where('id', '=', held).execute()).length, 0);
      assert.equal(
        (await app.post('/api/reservation', { name: 'x', email: 'late@example.com', productSlug: 'tsuki-dual-lfo' })).status,
        200,
        'the erased reservation gave its seat back',
      );
      assert.equal((await db.selectFrom('reservations').select('id').where('id', '=', kept).execute()).length, 1);
    });

    test('a message waiting for its next attempt is never sent once its record is erased', async () => {
      api.failAlways(503);
      const id = await reserve('waiting@example.com');
      const { db } = app.services.database;
      // Both messages (the email, the chat notice) failed once and wait for their retry, none in flight.
      const waiting = () => db.selectFrom('outbox').select(['attempts', 'locked_until']).where('record_id', '=', id).execute();
      await waitUntil(async () => (await waiting()).every((m) => m.attempts >= 1 && m.locked_until === null) && api.requests.length >= 2, {
        what: 'both first attempts failed',
      });
      const before = await exported('waiting@example.com');
      assert.ok(
        before.messages.some((m) => m.channel === 'email' && m.status === 'pending' && m.lastError),
        'due again in a couple of seconds',
      );
      assert.equal((await app.call(ERASE, { email: 'waiting@example.com' })).success().erased.reservations, 1);
      const tried = api.requests.length;
      api.failAlways(0);
      await settle(2 * RETRY_MS + 500);
      assert.equal(api.requests.length, tried, 'nothing was sent after the erase');
      assert.equal(api.accepted().length, 0, 'nothing about it was ever accepted');
      assert.deepEqual(await outboxIds(), []);
    });

    test('bad input → 400 Invalid parameters naming email; not an object → 400; too big → 413; nothing erased', async () => {
      await reserve('stay@example.com');
      const invalid = [
        {},
        { email: null },
        { email: 42 },
        { email: ['stay@example.com'] },
        { email: { address: 'stay@example.com' } },
        { email: true },
        { email: '' },
        { email: '   ' },
        { email: 'stay' },
        { email: 'stay@' },
        { email: '@example.com' },
        { email: 'st ay@example.com' },
        { email: 'stay@exa\nmple.com' },
        { email: 'stay\u0000@example.com' },
        { email: '\ud800@example.com' },
        { email: `${'a'.repeat(250)}@example.com` },
        { Email: 'stay@example.com' },
      ];
      for (const path of [EXPORT, ERASE]) {
        for (const body of invalid) {
          const answer = await app.call(path as typeof EXPORT, body);
          const error = answer.failure(400);
          assert.equal(error.error, 'Invalid parameters', JSON.stringify(body));
          assert.deepEqual(
            error.details?.map((d) => d.field),
            ['email'],
            JSON.stringify(body),
          );
        }
        for (const text of ['{"__proto__": {"email": "stay@example.com"}}', '{"constructor": {"email": "stay@example.com"}}']) {
          const answer = await app.read(
            EXPORT,
            await app.request(path, { method: 'POST', headers: { authorization: `Bearer ${app.env.PREORDER_API_TOKEN}` }, body: text }),
          );
          assert.deepEqual(
            answer.failure(400).details?.map((d) => d.field),
            ['email'],
            text,
          );
        }
        for (const text of ['[]', '"stay@example.com"', 'null', '{', '']) {
          const response = await app.request(path, {
            method: 'POST',
            headers: { authorization: `Bearer ${app.env.PREORDER_API_TOKEN}` },
            body: text,
          });
          assert.equal(response.status, 400, text);
          assert.deepEqual(await response.json(), { success: false, error: 'Invalid JSON body', code: 'invalid_json_body' });
        }
        const huge = await app.request(path, {
          method: 'POST',
          headers: { authorization: `Bearer ${app.env.PREORDER_API_TOKEN}` },
          body: JSON.stringify({ email: `${'a'.repeat(70 * 1024)}@example.com` }),
        });
        assert.equal(huge.status, 413);
        assert.deepEqual(await huge.json(), { success: false, error: 'Payload too large', code: 'payload_too_large' });
        for (const headers of [{}, { authorization: 'Bearer wrong' }] as Record<string, string>[]) {
          const refused = await app.request(path, { method: 'POST', headers, body: '{"email": 5' });
          assert.equal(refused.status, 401, 'the token is checked before the body');
        }
      }
      // Extra keys (a prototype key among them) are ignored next to a valid address.
      const body = '{"email": "Stay@example.com", "__proto__": {"isAdmin": true}, "extra": 1}';
      const answer = await app.read(
        EXPORT,
        await app.request(EXPORT, { method: 'POST', headers: { authorization: `Bearer ${app.env.PREORDER_API_TOKEN}` }, body }),
      );
      assert.equal(answer.success().reservations.length, 1);
      assert.equal((await exported('stay@example.com')).reservations.length, 1, 'nothing erased by the refused requests');
    });

    test('the look-ups by address read the address indexes, not the tables', async () => {
      const { db } = app.services.database;
      const plans = [
        [db.selectFrom('reservations').selectAll().where(atAddress('email', 'a@example.com')), 'reservations_customer'],
        [db.selectFrom('subscriptions').selectAll().where(atAddress('email', 'a@example.com')), 'subscriptions_customer'],
        [db.deleteFrom('preorder_customers').where('email', '=', 'a@example.com'), 'preorder_customers_email'],
        // As the outbox store writes it: the channel a literal, which the partial index's condition must match.
        [
          db.selectFrom('outbox').selectAll().where('channel', '=', sql.lit('email')).where(atAddress('destination', 'a@example.com')),
          'outbox_customer',
        ],
      ] as const;
      for (const [query, index] of plans) {
        const plan = await explain(db, dialect, query.compile());
        assert.match(plan, new RegExp(index), `${index}: ${plan}`);
      }
    });
  });
}

/**
 * The plan of a query. PostgreSQL is told to avoid sequential scans, as it rightly would on a big
 * table (on a test's few rows a scan is cheaper), so the plan shows whether the index can serve it.
 */
async function explain(db: Kysely<Tables>, dialect: Dialect, query: CompiledQuery): Promise<string> {
  if (dialect === 'sqlite') {
    const result = await db.executeQuery<Record<string, unknown>>(
      CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]),
    );
    return JSON.stringify(result.rows);
  }
  return db.connection().execute(async (connection) => {
    await connection.executeQuery(CompiledQuery.raw('set enable_seqscan = off'));
    try {
      const result = await connection.executeQuery<Record<string, unknown>>(
        CompiledQuery.raw(`explain ${query.sql}`, [...query.parameters]),
      );
      return JSON.stringify(result.rows);
    } finally {
      await connection.executeQuery(CompiledQuery.raw('reset enable_seqscan'));
    }
  });
}
