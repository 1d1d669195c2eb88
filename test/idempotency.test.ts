import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { startKeyPurge } from '../src/idempotency/purge.ts';
import { createLogger } from '../src/log.ts';
import { DIALECTS, startTestApp, type TestApp } from './helpers/app.ts';
import { startHttpReceiver, type HttpReceiver } from './helpers/http-receiver.ts';
import { rawClient } from './helpers/raw-http.ts';
import { settle, waitUntil } from './helpers/wait.ts';

// Idempotency-Key on the public forms over real HTTP on both dialects, with the email API
// and the chat webhook as real receivers, and the service's clock set by the test (keys live 24 h).

const REUSED = 'Idempotency-Key reused with a different request';
const INVALID = 'Idempotency-Key must be 1 to 255 visible ASCII characters';
const HOUR = 60 * 60 * 1000;
const valid = { name: '山田 太郎', email: 'taro@example.com', productSlug: 'kumo-vco-2' };

for (const dialect of DIALECTS) {
  describe(`Idempotency-Key on the public forms (${dialect})`, () => {
    let receiver: HttpReceiver;
    let app: TestApp;
    // In the past, so the messages it dates are due at once for the dispatcher, which keeps real time.
    const clock = { now: new Date('2026-01-05T00:00:00.000Z') };
    let nextClient = 1;
    /** Each test's requests come from a client of their own (behind one trusted proxy), so keys never meet across tests. */
    let from = '';
    before(async () => {
      receiver = await startHttpReceiver();
      app = await startTestApp({
        dialect,
        now: () => clock.now,
        dispatcher: { pollIntervalMs: 25 },
        env: {
          RATE_LIMIT_PER_MINUTE: '0',
          TRUST_PROXY: 'true',
          EMAIL_PROVIDER_API_KEY: 're_test',
          EMAIL_API_URL: `${receiver.url}/emails`,
          RESERVATION_WEBHOOK_URL: `${receiver.url}/reservation`,
          RESTOCK_WEBHOOK_URL: `${receiver.url}/restock`,
        },
      });
    });
    afterEach(() => {
      receiver.requests.length = 0;
      from = `198.51.100.${nextClient++}`;
    });
    after(async () => {
      await app.close();
      await receiver.close();
    });
    from = `198.51.100.${nextClient++}`;

    const post = (path: '/api/reservation' | '/api/notify', body: unknown, key?: string, client = from) =>
      app.request(path, {
        method: 'POST',
        headers: { 'x-forwarded-for': client, ...(key === undefined ? {} : { 'idempotency-key': key }) },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
    const reserve = async (body: unknown, key?: string, client?: string) =>
      (await app.read('/api/reservation', await post('/api/reservation', body, key, client))).success().reservationId;
    const db = () => app.services.database.db;
    const reservationsOf = (email: string) => db().selectFrom('reservations').select(['id']).where('email', '=', email).execute();
    /** The deliveries the receiver accepted about a record: emails by their Idempotency-Key, chat posts by the id they show. */
    const deliveredAbout = (path: string, id: string) =>
      receiver.accepted(path).filter((r) => String(r.headers['idempotency-key'] ?? '').includes(id) || JSON.stringify(r.body).includes(id))
        .length;
    /** Waits until the email and the chat notice of reservation `id` have arrived, then a little longer for any second one. */
    const deliveredOnce = async (id: string) => {
      await waitUntil(() => deliveredAbout('/emails', id) >= 1 && deliveredAbout('/reservation', id) >= 1, {
        what: `the messages of ${id}`,
      });
      await settle(300);
      assert.deepEqual([deliveredAbout('/emails', id), deliveredAbout('/reservation', id)], [1, 1]);
    };
    const messagesOf = (recordIds: string[]) =>
      recordIds.length === 0 ? Promise.resolve([]) : db().selectFrom('outbox').select(['id']).where('record_id', 'in', recordIds).execute();

    test('the same key and request answers the first reservation again: one record, one email, one chat notice', async () => {
      const body = { ...valid, email: 'again@example.com' };
      const first = await post('/api/reservation', body, 'order-1');
      assert.equal(first.status, 200);
      const answer = await first.text();
      // The same request, serialised otherwise: other key order and spacing, \u escapes, the address's
      // case, an extra field the form ignores. Each is answered with the very same bytes.
      const retries = [
        JSON.stringify(body),
        `{ "productSlug": "kumo-vco-2", "email": "AGAIN@example.com", "name": "\\u5c71\\u7530 \\u592a\\u90ce" }`,
        JSON.stringify({ ...body, name: `  ${body.name}  `, coupon: 'ignored' }),
      ];
      for (const retry of retries) {
        const again = await post('/api/reservation', retry, 'order-1');
        assert.equal(again.status, 200);
        assert.equal(await again.text(), answer, retry);
      }
      const rows = await reservationsOf('again@example.com');
      assert.deepEqual(
        rows.map((r) => r.id),
        [JSON.parse(answer).reservationId],
      );
      assert.equal((await messagesOf([rows[0]!.id])).length, 2, 'one email and one chat notice queued');
      await deliveredOnce(rows[0]!.id);
    });

    test('the key with another request is 422 and writes nothing; the first answer stays', async () => {
      const id = await reserve({ ...valid, email: 'first@example.com' }, 'order-2');
      for (const other of [
        { ...valid, email: 'second@example.com' },
        { ...valid, email: 'first@example.com', name: '別の 名前' },
        { ...valid, email: 'first@example.com', productSlug: 'tsuki-dual-lfo' },
      ]) {
        const refused = await app.read('/api/reservation', await post('/api/reservation', other, 'order-2'));
        assert.deepEqual(refused.failure(422), { success: false, error: REUSED, code: 'idempotency_key_reused' });
      }
      // A form's key is the client's on both forms: a restock signup is another request.
      assert.deepEqual(
        (
          await app.read('/api/notify', await post('/api/notify', { email: 'first@example.com', productSlug: 'kumo-vco-2' }, 'order-2'))
        ).failure(422),
        { success: false, error: REUSED, code: 'idempotency_key_reused' },
      );
      assert.equal((await reservationsOf('second@example.com')).length, 0);
      assert.equal((await db().selectFrom('subscriptions').select('id').where('email', '=', 'first@example.com').execute()).length, 0);
      assert.equal(await reserve({ ...valid, email: 'first@example.com' }, 'order-2'), id, 'the first request still gets its answer');
    });

    test('keys are per client: another address with the same key is another request', async () => {
      const body = { ...valid, email: 'shared-key@example.com' };
      const mine = await reserve(body, 'order-3', '203.0.113.10');
      const theirs = await reserve(body, 'order-3', '203.0.113.11');
      assert.notEqual(mine, theirs);
      assert.equal((await reservationsOf('shared-key@example.com')).length, 2);
    });

    test('without the header part 1 holds: the same body twice is two reservations', async () => {
      const body = { ...valid, email: 'no-key@example.com' };
      assert.notEqual(await reserve(body), await reserve(body));
      assert.equal((await reservationsOf('no-key@example.com')).length, 2);
    });

    test('twenty requests with one key at once: one reservation, one email, one chat notice, twenty equal answers', async () => {
      const body = { ...valid, email: 'rush@example.com' };
      const answers = await Promise.all(Array.from({ length: 20 }, () => reserve(body, 'rush-key')));
      assert.equal(new Set(answers).size, 1);
      assert.deepEqual(
        (await reservationsOf('rush@example.com')).map((r) => r.id),
        [answers[0]],
      );
      await deliveredOnce(answers[0]!);
    });

    test('twenty requests with one key and two bodies at once: one of each kind of answer per body, never two records', async () => {
      const bodies = [
        { ...valid, email: 'mixed-a@example.com' },
        { ...valid, email: 'mixed-b@example.com' },
      ];
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          post('/api/reservation', bodies[i % 2], 'mixed-key').then((r) => app.read('/api/reservation', r)),
        ),
      );
      const written = [...(await reservationsOf('mixed-a@example.com')), ...(await reservationsOf('mixed-b@example.com'))];
      assert.equal(written.length, 1, 'one of the two requests won the key');
      for (const answer of answers) {
        if (answer.status === 200) assert.equal(answer.success().reservationId, written[0]!.id);
        else assert.deepEqual(answer.failure(422), { success: false, error: REUSED, code: 'idempotency_key_reused' });
      }
      assert.equal(answers.filter((a) => a.status === 200).length, 10);
    });

    test('a restock signup: the same key and request answers the first id, another request 422, twenty at once one subscription and one notice', async () => {
      const body = { email: 'Waits@Example.com', productSlug: 'tsuki-dual-lfo' };
      const signUp = async (b: unknown, key: string) =>
        (await app.read('/api/notify', await post('/api/notify', b, key))).success().subscriptionId;
      const ids = await Promise.all(Array.from({ length: 20 }, () => signUp(body, 'signup-key')));
      assert.equal(new Set(ids).size, 1);
      assert.equal(await signUp({ ...body, email: 'waits@example.com' }, 'signup-key'), ids[0]);
      assert.deepEqual(
        (await app.read('/api/notify', await post('/api/notify', { ...body, productSlug: 'kumo-vco-2' }, 'signup-key'))).failure(422),
        { success: false, error: REUSED, code: 'idempotency_key_reused' },
      );
      const rows = await db().selectFrom('subscriptions').select('id').where('email', '=', 'waits@example.com').execute();
      assert.deepEqual(
        rows.map((r) => r.id),
        [ids[0]],
      );
      await waitUntil(() => deliveredAbout('/restock', ids[0]!) >= 1, { what: 'the restock notice' });
      await settle(300);
      assert.equal(deliveredAbout('/restock', ids[0]!), 1);
    });

    test('a signup whose address already waits answers that subscription, and its key keeps that id', async () => {
      const body = { email: 'already@example.com', productSlug: 'kumo-vco-2' };
      const signUp = async (key?: string) => (await app.read('/api/notify', await post('/api/notify', body, key))).success().subscriptionId;
      const waiting = await signUp();
      assert.equal(await signUp('twin-key'), waiting);
      const stored = await db().selectFrom('idempotency_keys').select('record_id').where('key', '=', 'twin-key').execute();
      assert.deepEqual(
        stored.map((row) => row.record_id),
        [waiting],
      );
      assert.equal(await signUp('twin-key'), waiting);
    });

    test('a replay takes no second seat of a preorder campaign; a refused request is not remembered, so its retry is tried again', async () => {
      const slug = 'tsuki-dual-lfo';
      const upsert = (fields: Record<string, unknown>) => app.call('/api/admin/preorders/upsert', { productSlug: slug, ...fields });
      const remaining = async () => (await (await upsert({})).success()).preorder.remaining;
      (await upsert({ capacity: 2, perCustomerLimit: null, opensAt: null, closesAt: null })).success();
      const mine = { ...valid, email: 'seat@example.com', productSlug: slug };
      const id = await reserve(mine, 'seat-key');
      for (let i = 0; i < 5; i++) assert.equal(await reserve(mine, 'seat-key'), id);
      assert.equal(await remaining(), 1, 'replays took no seat');
      await reserve({ ...mine, email: 'last-seat@example.com' }, 'someone-else');
      assert.equal(await remaining(), 0);

      // Sold out: refused, and the refusal is not kept as the key's answer.
      const late = { ...mine, email: 'late@example.com' };
      const refused = await app.read('/api/reservation', await post('/api/reservation', late, 'late-key'));
      assert.deepEqual(refused.failure(409), { success: false, error: '予約数が上限に達しました', code: 'preorder_sold_out' });
      assert.equal((await db().selectFrom('idempotency_keys').select('key').where('key', '=', 'late-key').execute()).length, 0);
      // A seat is freed: the same key, retried, now reserves (and is then kept).
      (await upsert({ capacity: 3 })).success();
      const lateId = await reserve(late, 'late-key');
      assert.equal(await reserve(late, 'late-key'), lateId);
      assert.equal(await remaining(), 0);
      assert.equal((await reservationsOf('late@example.com')).length, 1);
      (await app.call('/api/admin/preorders/delete', { productSlug: slug, force: true })).success();
    });

    test('an unknown product (400) is not remembered either, and neither is invalid input', async () => {
      const unknown = await app.read(
        '/api/reservation',
        await post('/api/reservation', { ...valid, productSlug: 'no-such-module' }, 'typo-key'),
      );
      assert.deepEqual(unknown.failure(400), { success: false, error: '指定された商品が見つかりません', code: 'product_not_found' });
      assert.equal(
        (await app.read('/api/reservation', await post('/api/reservation', { ...valid, email: 'not-an-address' }, 'typo-key'))).status,
        400,
      );
      // The corrected request with the same key is a new one, not a 422.
      const id = await reserve({ ...valid, email: 'typo@example.com' }, 'typo-key');
      assert.equal(await reserve({ ...valid, email: 'typo@example.com' }, 'typo-key'), id);
    });

    test('a key answers for 24 hours; then it is free, and the purge deletes it in batches', async () => {
      const body = { ...valid, email: 'day@example.com' };
      const start = clock.now;
      try {
        const id = await reserve(body, 'day-key');
        clock.now = new Date(start.getTime() + 24 * HOUR - 1);
        assert.equal(await reserve(body, 'day-key'), id, 'still answered a moment before 24 hours');
        clock.now = new Date(start.getTime() + 24 * HOUR);
        const next = await reserve(body, 'day-key');
        assert.notEqual(next, id, 'after 24 hours the same request is a new reservation');
        assert.equal(await reserve(body, 'day-key'), next);

        // The purge: 2,500 expired keys and the live one; batches of 1,000.
        const expired = new Date(clock.now.getTime() - HOUR).toISOString();
        const rows = Array.from({ length: 2500 }, (_, i) => ({
          client: '192.0.2.1',
          key: `old-${i}`,
          fingerprint: 'x',
          record_id: `res_${i}`,
          created_at: expired,
          expires_at: expired,
        }));
        for (let i = 0; i < rows.length; i += 500)
          await db()
            .insertInto('idempotency_keys')
            .values(rows.slice(i, i + 500))
            .execute();
        const purge = startKeyPurge(db(), createLogger('silent'), { intervalMs: 60_000, batchSize: 1000, now: () => clock.now });
        await purge.run();
        await purge.close();
        const left = await db().selectFrom('idempotency_keys').select(['key']).where('expires_at', '<=', clock.now.toISOString()).execute();
        assert.deepEqual(left, []);
        const live = await db().selectFrom('idempotency_keys').select(['key', 'record_id']).where('key', '=', 'day-key').execute();
        assert.deepEqual(
          live.map((row) => [row.key, row.record_id]),
          [['day-key', next]],
        );
      } finally {
        clock.now = start;
      }
    });

    test('the stored answer keeps no name and no address', async () => {
      await reserve({ ...valid, name: '秘密 花子', email: 'private@example.com' }, 'private-key');
      const rows = await db().selectFrom('idempotency_keys').selectAll().where('key', '=', 'private-key').execute();
      assert.equal(rows.length, 1);
      const stored = JSON.stringify(rows);
      for (const secret of ['秘密', '花子', 'private@example.com', 'example.com']) assert.ok(!stored.includes(secret), secret);
      assert.match(rows[0]!.fingerprint, /^[0-9a-f]{64}$/);
      // Nor can it be confirmed by hashing a guess: the fingerprint is keyed by the service's secret.
      const guess = JSON.stringify(['reservation', '秘密 花子', 'private@example.com', valid.productSlug]);
      assert.notEqual(rows[0]!.fingerprint, createHash('sha256').update(guess).digest('hex'));
    });

    test('a write that fails leaves neither the record nor the key: the retry is the first', async () => {
      // The outbox refuses this address, so the transaction holding the reservation and its key rolls back.
      const boom = 'boom@example.com';
      if (dialect === 'sqlite') {
        await sql
          .raw(
            `create trigger refuse_boom before insert on outbox when new.destination = '${boom}' begin select raise(abort, 'refused'); end`,
          )
          .execute(db());
      } else {
        await sql
          .raw(
            `create function refuse_boom() returns trigger language plpgsql as $$ begin if new.destination = '${boom}' then raise exception 'refused'; end if; return new; end $$`,
          )
          .execute(db());
        await sql.raw('create trigger refuse_boom before insert on outbox for each row execute function refuse_boom()').execute(db());
      }
      try {
        const failed = await post('/api/reservation', { ...valid, email: boom }, 'boom-key');
        assert.equal(failed.status, 500);
        assert.equal((await reservationsOf(boom)).length, 0);
        assert.equal((await db().selectFrom('idempotency_keys').select('key').where('key', '=', 'boom-key').execute()).length, 0);
      } finally {
        await sql.raw('drop trigger refuse_boom' + (dialect === 'postgres' ? ' on outbox' : '')).execute(db());
      }
      const id = await reserve({ ...valid, email: boom }, 'boom-key');
      assert.deepEqual(
        (await reservationsOf(boom)).map((r) => r.id),
        [id],
      );
    });

    test('a malformed key is 400 before anything is written; two keys in one request too', async () => {
      const client = rawClient(app.url);
      try {
        for (const key of ['', ' ', 'k'.repeat(256), 'two words', Buffer.from('キー').toString('latin1')]) {
          const answer = await client.send({
            method: 'POST',
            target: '/api/reservation',
            headers: [
              ['Idempotency-Key', key],
              ['X-Forwarded-For', from],
            ],
            body: Buffer.from(JSON.stringify({ ...valid, email: 'bad-key@example.com' })),
          });
          assert.deepEqual(
            [answer.status, JSON.parse(answer.body.toString())],
            [400, { success: false, error: INVALID, code: 'invalid_idempotency_key' }],
            JSON.stringify(key),
          );
        }
        const twice = await client.send({
          method: 'POST',
          target: '/api/notify',
          headers: [
            ['Idempotency-Key', 'a'],
            ['Idempotency-Key', 'b'],
          ],
          body: Buffer.from(JSON.stringify({ email: 'bad-key@example.com', productSlug: 'kumo-vco-2' })),
        });
        assert.deepEqual(
          [twice.status, JSON.parse(twice.body.toString())],
          [400, { success: false, error: INVALID, code: 'invalid_idempotency_key' }],
        );
      } finally {
        client.close();
      }
      assert.equal((await reservationsOf('bad-key@example.com')).length, 0);
      assert.equal((await db().selectFrom('subscriptions').select('id').where('email', '=', 'bad-key@example.com').execute()).length, 0);
    });
  });

  test(`replays count against the rate limit like any request (${dialect})`, async () => {
    const app = await startTestApp({ dialect, env: { RATE_LIMIT_PER_MINUTE: '3' } });
    try {
      const send = () =>
        app.request('/api/reservation', { method: 'POST', headers: { 'idempotency-key': 'limited' }, body: JSON.stringify(valid) });
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await send()).status);
      assert.deepEqual(statuses, [200, 200, 200, 429]);
    } finally {
      await app.close();
    }
  });
}
