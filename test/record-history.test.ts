import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { DIALECTS, startTestApp, type TestApp } from './helpers/app.ts';
import { emailFacts } from './helpers/outbox.ts';
import { waitUntil } from './helpers/wait.ts';

// A record's own page over the admin API (POST /api/admin/reservations/get and
// /api/admin/notify/get) with its history, written in the transaction of each change (a status
// move by staff or by the customer, a memo edit, archiving and restoring, the restock send, an
// unsubscribe), with the record's messages as they stand, and erased with the record. Real HTTP on
// both dialects. Staff's retries of its messages: test/superseded-messages.test.ts.

const GET_PATHS = ['/api/admin/reservations/get', '/api/admin/notify/get'] as const;
const PRODUCT = 'kumo-vco-2';

/** The changes of a history (its messages left out, which a test of its own checks) without their times, which the tests check on their own. */
const withoutTimes = (entries: { at: string; type: string }[]) =>
  entries
    .filter((entry) => entry.type !== 'message')
    .map((entry) => Object.fromEntries(Object.entries(entry).filter(([key]) => key !== 'at')));

for (const dialect of DIALECTS) {
  describe(`a record and its history (${dialect})`, () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp({ dialect, env: { RATE_LIMIT_PER_MINUTE: '0', PUBLIC_BASE_URL: 'https://shop.example.jp' } });
    });
    after(() => app.close());
    beforeEach(async () => {
      await app.services.database.db.deleteFrom('record_history').execute();
    });

    async function reserve(): Promise<string> {
      const response = await app.request('/api/reservation', {
        method: 'POST',
        body: JSON.stringify({ name: '山田 太郎', email: 'taro@example.com', productSlug: PRODUCT }),
      });
      return (await app.read('/api/reservation', response)).success().reservationId;
    }
    const move = (id: string, status: string, extra: object = {}) =>
      app.call('/api/admin-reservations-status', { id, productSlug: PRODUCT, status, ...extra });
    const get = (id: string) => app.call('/api/admin/reservations/get', { id });
    const historyRows = (id: string) =>
      app.services.database.db.selectFrom('record_history').selectAll().where('record_id', '=', id).execute();

    test('401 before the body is looked at', async () => {
      for (const path of GET_PATHS) {
        for (const body of ['not json', JSON.stringify({ id: 5 }), 'x'.repeat(70 * 1024)]) {
          for (const headers of [{}, { authorization: 'Bearer wrong' }] as Record<string, string>[]) {
            const response = await app.request(path, { method: 'POST', headers, body });
            assert.equal(response.status, 401, `${path} ${body.slice(0, 10)}`);
            assert.deepEqual(await response.json(), { success: false, error: 'Unauthorized', code: 'unauthorized' });
          }
        }
      }
    });

    test('bad inputs: 400 with the field named, 404 for an unknown id, 413 for a huge body; never a 500', async () => {
      for (const path of GET_PATHS) {
        for (const body of [
          {},
          { id: 5 },
          { id: '' },
          { id: null },
          { id: ['res_x'] },
          { id: 'a\u0000b' },
          JSON.parse('{"__proto__": {"id": "res_x"}}'),
        ]) {
          const failure = (await app.call(path, body)).failure(400);
          assert.equal(failure.error, 'Missing required field: id', JSON.stringify(body));
          assert.deepEqual(
            failure.details?.map((d) => d.field),
            ['id'],
          );
        }
        assert.equal((await app.call(path, [])).failure(400).error, 'Invalid JSON body');
        const notFound = path.includes('reservations') ? 'Reservation not found' : 'Subscription not found';
        for (const id of ['res_nope', '予約番号', '🎛️'.repeat(50), "x' or 1=1 --"])
          assert.equal((await app.call(path, { id })).failure(404).error, notFound);
        assert.equal((await app.admin(path, { id: 'x'.repeat(70 * 1024) })).status, 413);
      }
    });

    test('staff moves and memo edits, each once, with whether the customer was emailed; the customer’s own cancel; archive and restore', async () => {
      const id = await reserve();
      assert.deepEqual(withoutTimes((await get(id)).success().history), [], 'taking a reservation is its creation, not a change');
      const confirmed = (await move(id, 'confirmed', { notes: '入金確認済み' })).success().reservation;
      (await move(id, 'confirmed', { notes: '入金確認済み' })).success(); // the same request again changes nothing
      (await move(id, 'confirmed', { notes: '入金確認済み、12月発送' })).success();
      (await move(id, 'pending', { notifyCustomer: false })).success();
      (await move(id, 'fulfilled')).failure(409); // refused: not written
      (await move(id, 'confirmed', { notifyCustomer: false, expectedUpdatedAt: confirmed.updatedAt })).failure(409);
      (await move(id, 'cancelled', { notifyCustomer: false })).success();
      (await move(id, 'pending')).success();
      // The customer cancels on their own page, from the link in their email.
      const manageUrl = (await emailFacts(app.services.database.db, id))!.manageUrl!;
      const cancel = await app.request('/reservations/manage', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token: decodeURIComponent(manageUrl.split('token=')[1]!) }),
      });
      assert.equal(cancel.status, 200);
      (await app.call('/api/admin/reservations/archive', { ids: [{ id, productSlug: PRODUCT }] })).success();
      (await app.call('/api/admin/reservations/unarchive', { ids: [{ id, productSlug: PRODUCT }] })).success();
      (await app.call('/api/admin/reservations/archive', { ids: [{ id, productSlug: PRODUCT }] })).success();

      const answer = (await get(id)).success();
      assert.equal(answer.reservation.id, id);
      assert.equal(answer.reservation.status, 'cancelled');
      assert.equal(answer.reservation.notes, '入金確認済み、12月発送');
      assert.ok(answer.reservation.archivedAt, 'archived, and still found');
      assert.ok(answer.reservation.respondedAt);
      assert.deepEqual(withoutTimes(answer.history), [
        { type: 'status', actor: 'staff', from: 'pending', to: 'confirmed', customerEmailed: true, staffId: null, staffName: null },
        { type: 'memo', actor: 'staff', before: '', after: '入金確認済み', staffId: null, staffName: null },
        { type: 'memo', actor: 'staff', before: '入金確認済み', after: '入金確認済み、12月発送', staffId: null, staffName: null },
        { type: 'status', actor: 'staff', from: 'confirmed', to: 'pending', customerEmailed: false, staffId: null, staffName: null },
        { type: 'status', actor: 'staff', from: 'pending', to: 'cancelled', customerEmailed: false, staffId: null, staffName: null },
        { type: 'status', actor: 'staff', from: 'cancelled', to: 'pending', customerEmailed: false, staffId: null, staffName: null },
        { type: 'status', actor: 'customer', from: 'pending', to: 'cancelled', customerEmailed: true, staffId: null, staffName: null },
        { type: 'archived', actor: 'staff', staffId: null, staffName: null },
        { type: 'unarchived', actor: 'staff', staffId: null, staffName: null },
        { type: 'archived', actor: 'staff', staffId: null, staffName: null },
      ]);
      // Oldest first, each at the time the record's updatedAt took, the last one its current value.
      const times = answer.history.map((entry) => Date.parse(entry.at));
      assert.deepEqual(
        [...times].sort((a, b) => a - b),
        times,
      );
      const changes = answer.history.filter((entry) => entry.type !== 'message');
      assert.equal(changes[0]!.at, confirmed.updatedAt);
      assert.equal(changes.at(-1)!.at, answer.reservation.updatedAt);
    });

    test('a change and its history line are one transaction: a store failure mid-change leaves neither', async () => {
      const id = await reserve();
      // The history table refuses the write: the move must roll back with it.
      await app.services.database.db.schema.alterTable('record_history').renameTo('record_history_away').execute();
      try {
        const response = await app.admin('/api/admin-reservations-status', { id, productSlug: PRODUCT, status: 'confirmed', notes: 'x' });
        assert.equal(response.status, 500);
      } finally {
        await app.services.database.db.schema.alterTable('record_history_away').renameTo('record_history').execute();
      }
      const now = (await get(id)).success();
      assert.deepEqual([now.reservation.status, now.reservation.notes, withoutTimes(now.history)], ['pending', '', []]);
      const emails = await app.services.database.db.selectFrom('outbox').select('id').where('record_id', '=', id).execute();
      assert.equal(emails.length, 2, 'only the reservation’s own email and chat: the confirmation was rolled back');
    });

    test('erasing a reservation erases its history', async () => {
      const id = await reserve();
      (await move(id, 'confirmed', { notes: '山田様 090-0000-0000' })).success();
      assert.equal((await historyRows(id)).length, 1);
      (await app.call('/api/admin-reservations-delete', { id, productSlug: PRODUCT })).success();
      assert.deepEqual(await historyRows(id), []);
      assert.equal((await get(id)).failure(404).error, 'Reservation not found');
    });

    test('a subscription: staff moves, the restock send and the customer’s unsubscribe', async () => {
      const signup = async () =>
        (
          await app.read(
            '/api/notify',
            await app.request('/api/notify', {
              method: 'POST',
              body: JSON.stringify({ email: 'hanako@example.com', productSlug: PRODUCT }),
            }),
          )
        ).success().subscriptionId;
      const id = await signup();
      (await app.call('/api/admin-notify-status', { id, productSlug: PRODUCT, status: 'unsubscribed' })).success();
      (await app.call('/api/admin-notify-status', { id, productSlug: PRODUCT, status: 'pending' })).success();
      (await app.call('/api/admin/notify/send', { productSlug: PRODUCT })).success();
      const link = (await emailFacts(app.services.database.db, id))!.unsubscribeUrl!;
      const path = link.slice(link.indexOf('/api/notify/unsubscribe'));
      assert.equal((await app.request(path)).status, 200);
      assert.equal((await app.request(path)).status, 200, 'again: no second line');
      const answer = (await app.call('/api/admin/notify/get', { id })).success();
      assert.equal(answer.subscription.status, 'unsubscribed');
      assert.equal(answer.subscription.archivedAt, null);
      assert.deepEqual(withoutTimes(answer.history), [
        { type: 'status', actor: 'staff', from: 'pending', to: 'unsubscribed', customerEmailed: null, staffId: null, staffName: null },
        { type: 'status', actor: 'staff', from: 'unsubscribed', to: 'pending', customerEmailed: null, staffId: null, staffName: null },
        { type: 'status', actor: 'staff', from: 'pending', to: 'notified', customerEmailed: true, staffId: null, staffName: null },
        { type: 'status', actor: 'customer', from: 'notified', to: 'unsubscribed', customerEmailed: null, staffId: null, staffName: null },
      ]);
      assert.equal(answer.history.filter((entry) => entry.type !== 'message').at(-1)!.at, answer.subscription.updatedAt);
    });

    test('its messages as they stand now, each where it was queued: after the change that queued it', async () => {
      // Each message settled before the next change, so the first email is sent (skipped), not
      // superseded by the confirmation queued after it (the dispatcher gathers its claims).
      const settled = () =>
        waitUntil(async () => {
          const entries = (await get(id)).success().history;
          return entries.every((entry) => entry.type !== 'message' || entry.status !== 'pending') ? entries : undefined;
        });
      const id = await reserve();
      await settled();
      const confirmed = (await move(id, 'confirmed')).success().reservation;
      const history = await settled();
      const reservation = (await get(id)).success().reservation;
      const messageIds = history.flatMap((entry) => (entry.type === 'message' ? [entry.messageId] : []));
      assert.equal(new Set(messageIds).size, 3);
      // The history entry of a message skipped at its one attempt, no member of staff named.
      const skipped = (at: string, channel: string, kind: string, to: string) => ({
        type: 'message',
        at,
        channel,
        kind,
        status: 'skipped',
        attempts: 1,
        to,
        lastError: null,
        staffId: null,
        staffName: null,
      });
      // No provider or webhook is configured here: each message is skipped. The two queued with the
      // reservation share its time, in either order.
      const [first, second, ...rest] = history.map((entry) => {
        const { at, messageId, sentAt, ...fields } = entry as typeof entry & { messageId?: string; sentAt?: string | null };
        assert.ok(messageId === undefined || messageIds.includes(messageId));
        assert.ok(sentAt === undefined || typeof sentAt === 'string', 'a skipped message has its time');
        return { ...fields, at: at === reservation.createdAt ? 'taken' : at === confirmed.updatedAt ? 'confirmed' : at };
      });
      assert.deepEqual(
        [...[first, second].sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y))), ...rest],
        [
          skipped('taken', 'chat', 'reservation', 'reservation'),
          skipped('taken', 'email', 'reservation-received', 'taro@example.com'),
          {
            type: 'status',
            actor: 'staff',
            at: 'confirmed',
            from: 'pending',
            to: 'confirmed',
            customerEmailed: true,
            staffId: null,
            staffName: null,
          },
          skipped('confirmed', 'email', 'reservation-confirmed', 'taro@example.com'),
        ],
      );
    });
  });
}
