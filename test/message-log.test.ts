import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Success } from './helpers/answers.ts';
import { openDatabase } from '../src/db/database.ts';
import { createLogger } from '../src/log.ts';
import { ADMIN_TOKEN, DIALECTS, startTestApp, type TestApp } from './helpers/app.ts';
import { freshTarget } from './helpers/dialects.ts';
import { storedMessage } from './helpers/outbox.ts';
import { startEmailTestApp } from './helpers/email-app.ts';
import type { HttpReceiver } from './helpers/http-receiver.ts';
import { waitUntil } from './helpers/wait.ts';

// Through real HTTP on both dialects: the message log lists what the outbox holds, newest
// first, filtered and paged as the archive lists; a dead message retried is delivered again, seen
// at the real email API receiver; what was kept long enough is deleted at start.

type Listed = Success<'/api/admin/messages/list'>['messages'][number];

for (const dialect of DIALECTS) {
  describe(`message log (${dialect})`, () => {
    let app: TestApp;
    let api: HttpReceiver;
    let close: () => Promise<void>;
    before(async () => {
      // Two attempts, so a failing provider gives a message up within milliseconds.
      ({ app, api, close } = await startEmailTestApp({ dialect, webhooks: ['reservation', 'restock'], dispatcher: { maxAttempts: 2 } }));
    });
    after(() => close());

    const list = (body: Record<string, unknown>) => app.call('/api/admin/messages/list', body);
    const retry = (ids: unknown) => app.call('/api/admin/messages/retry', { ids });
    async function reserve(email: string): Promise<string> {
      const response = await app.request('/api/reservation', {
        method: 'POST',
        body: JSON.stringify({ name: '山田 太郎', email, productSlug: 'kumo-vco-2' }),
      });
      return (await app.read('/api/reservation', response)).success().reservationId;
    }
    /** Every message about a record once none of them is pending any more. */
    const settledAbout = (recordId: string) =>
      waitUntil(async () => {
        const { messages } = (await list({ recordId })).success();
        return messages.length > 0 && messages.every((m) => m.status !== 'pending') ? messages : undefined;
      });

    test('a reservation’s email and chat notice: who, what kind, how it went; never a webhook URL', async () => {
      const id = await reserve('log-one@example.com');
      const messages = await settledAbout(id);
      const byChannel = Object.fromEntries(messages.map((m) => [m.channel, m]));
      const email = byChannel.email!;
      assert.deepEqual(Object.keys(email).sort(), [
        'attempts',
        'channel',
        'createdAt',
        'id',
        'kind',
        'lastError',
        'recordId',
        'reservation',
        'sentAt',
        'status',
        'to',
      ]);
      const { number } = (await app.call('/api/admin/reservations/get', { id })).success().reservation;
      assert.deepEqual(
        { ...email, id: '', createdAt: '', sentAt: '' },
        {
          id: '',
          recordId: id,
          reservation: { number, name: '山田 太郎' },
          channel: 'email',
          kind: 'reservation-received',
          to: 'log-one@example.com',
          status: 'sent',
          attempts: 1,
          lastError: null,
          createdAt: '',
          sentAt: '',
        },
      );
      assert.ok(email.sentAt! >= email.createdAt);
      const chat = byChannel.chat!;
      assert.deepEqual([chat.kind, chat.to, chat.status, chat.recordId], ['reservation', 'reservation', 'sent', id]);
      assert.deepEqual(chat.reservation, { number, name: '山田 太郎' }, 'the log names the reservation as staff know it');
      assert.ok(!JSON.stringify(messages).includes(api.url), 'no webhook URL');
    });

    test('newest first with ties by id, filtered by record, status and channel, paged as the archive lists', async () => {
      const first = await reserve('page-a@example.com');
      const second = await reserve('page-b@example.com');
      await settledAbout(first);
      await settledAbout(second);
      const all = (await list({ pageSize: 100 })).success();
      const order = (a: Listed, b: Listed) => (a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1);
      assert.deepEqual(all.messages, [...all.messages].sort(order));
      const stored = await app.services.database.db
        .selectFrom('outbox')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      assert.equal(all.total, Number(stored.n));
      assert.deepEqual(
        (await list({ recordId: second })).success().messages.map((m) => m.recordId),
        [second, second],
      );

      const emails = (await list({ channel: 'email', pageSize: 100 })).success();
      assert.ok(emails.messages.length > 0 && emails.messages.every((m) => m.channel === 'email'));
      assert.deepEqual(
        emails.messages,
        all.messages.filter((m) => m.channel === 'email'),
      );
      const sentChats = (await list({ channel: 'chat', status: 'sent', pageSize: 100 })).success();
      assert.deepEqual(
        sentChats.messages,
        all.messages.filter((m) => m.channel === 'chat' && m.status === 'sent'),
      );
      assert.equal((await list({ status: 'dead', recordId: second })).success().total, 0);
      assert.deepEqual((await list({ status: '', channel: '', recordId: '' })).success().total, all.total);

      const paged = (await list({ page: '2', pageSize: '2' })).success();
      assert.deepEqual(
        { ...paged, messages: paged.messages.map((m) => m.id) },
        {
          success: true,
          messages: all.messages.slice(2, 4).map((m) => m.id),
          total: all.total,
          page: 2,
          pageSize: 2,
          totalPages: Math.ceil(all.total / 2),
        },
      );
      const defaults = (await list({})).success();
      assert.deepEqual([defaults.page, defaults.pageSize], [1, 20]);
      assert.deepEqual((await list({ page: 0 })).success().page, 1);
      const beyond = (await list({ page: 2 ** 40 })).success();
      assert.deepEqual([beyond.messages, beyond.total], [[], all.total]);
    });

    test('bad filters and paging are 400s naming the field; unknown records and odd text list nothing', async () => {
      const cases: [Record<string, unknown>, string, string][] = [
        [{ status: 'delivered' }, 'Invalid status', 'status'],
        [{ status: 1 }, 'Invalid status', 'status'],
        [{ channel: 'sms' }, 'Invalid channel', 'channel'],
        [{ channel: ['email'] }, 'Invalid channel', 'channel'],
        [{ recordId: 12 }, 'recordId must be a string', 'recordId'],
        [{ recordId: 'res_\u0000' }, 'recordId must not contain NUL', 'recordId'],
        [{ page: 'one' }, 'page must be a positive integer', 'page'],
        [{ page: 1.5 }, 'page must be a positive integer', 'page'],
        [{ pageSize: 0 }, 'pageSize must be between 1 and 100', 'pageSize'],
        [{ pageSize: 101 }, 'pageSize must be between 1 and 100', 'pageSize'],
      ];
      for (const [body, error, field] of cases) {
        const failure = (await list(body)).failure(400);
        assert.equal(failure.error, error, JSON.stringify(body));
        assert.equal(failure.details?.[0]?.field, field, JSON.stringify(body));
      }
      for (const recordId of ['res_ないよ', '"; drop table outbox; --', '%', '__proto__']) {
        assert.equal((await list({ recordId })).success().total, 0, recordId);
      }
      const proto = await app.request('/api/admin/messages/list', {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        body: '{"__proto__": {"status": "dead"}, "pageSize": 1}',
      });
      assert.equal((await app.read('/api/admin/messages/list', proto)).success().pageSize, 1);
      for (const body of ['[]', 'null', '"x"', '{']) {
        const response = await app.request('/api/admin/messages/list', {
          method: 'POST',
          headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
          body,
        });
        assert.equal((await app.read('/api/admin/messages/list', response)).failure(400).error, 'Invalid JSON body', body);
      }
    });

    test('401 before the body is read, 413 for a huge body', async () => {
      for (const path of ['/api/admin/messages/list', '/api/admin/messages/retry'] as const) {
        for (const authorization of [undefined, 'Bearer wrong', `Basic ${ADMIN_TOKEN}`]) {
          const response = await app.request(path, { method: 'POST', headers: authorization ? { authorization } : {}, body: '{not json' });
          const failure = (await app.read(path, response)).failure(401);
          assert.equal(failure.error, 'Unauthorized');
        }
        const huge = await app.request(path, {
          method: 'POST',
          headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
          body: JSON.stringify({ ids: ['x'.repeat(70_000)] }),
        });
        assert.equal((await app.read(path, huge)).failure(413).error, 'Payload too large');
      }
    });

    test('retry: a dead email goes back to pending with its attempts reset and arrives; others are reported', async () => {
      api.failAlways(500);
      const id = await reserve('dead@example.com');
      const dead = (await settledAbout(id)).find((m) => m.channel === 'email')!;
      assert.deepEqual([dead.status, dead.attempts, dead.sentAt], ['dead', 2, null]);
      assert.match(dead.lastError!, /^HTTP 500/);
      const sentOne = (await list({ status: 'sent', pageSize: 1 })).success().messages[0]!;
      api.failAlways(0);
      const before = api.accepted('/emails').length;

      const answer = (await retry([dead.id, dead.id, sentOne.id, 'msg-nope', 42, ''])).success();
      assert.deepEqual(answer, {
        success: true,
        retriedCount: 1,
        retriedIds: [dead.id],
        errors: [
          { id: dead.id, error: 'Message is not dead', code: 'message_not_dead' },
          { id: sentOne.id, error: 'Message is not dead', code: 'message_not_dead' },
          { id: 'msg-nope', error: 'Message not found', code: 'message_not_found' },
          { id: '', error: 'Invalid item', code: 'invalid_item' },
          { id: '', error: 'Invalid item', code: 'invalid_item' },
        ],
      });
      const accepted = await api.waitForAccepted(before + 1, '/emails');
      assert.deepEqual((accepted.at(-1)!.body as { to: string[] }).to, ['dead@example.com']);
      const again = await waitUntil(async () => {
        const found = (await list({ recordId: id, channel: 'email' })).success().messages[0]!;
        return found.status === 'sent' ? found : undefined;
      });
      assert.deepEqual([again.attempts, again.lastError], [1, null]);
      assert.equal((await retry([dead.id])).success().errors?.[0]?.error, 'Message is not dead');
    });

    test('retry: ids must be an array of 1 to 500', async () => {
      assert.equal((await app.call('/api/admin/messages/retry', {})).failure(400).error, 'ids array is required');
      assert.equal((await retry('abc')).failure(400).error, 'ids array is required');
      assert.equal((await retry([])).failure(400).error, 'ids array cannot be empty');
      assert.equal((await retry(Array.from({ length: 501 }, (_, i) => `m${i}`))).failure(400).error, 'ids array cannot exceed 500 items');
      const most = (await retry(Array.from({ length: 500 }, (_, i) => `m${i}`))).success();
      assert.deepEqual(
        [most.retriedCount, most.errors?.length, most.errors?.[499]],
        [0, 500, { id: 'm499', error: 'Message not found', code: 'message_not_found' }],
      );
    });
  });
}

for (const dialect of DIALECTS) {
  test(`retention (${dialect}): a start deletes what was sent, skipped or given up longer ago than OUTBOX_RETENTION_DAYS, nothing else`, async () => {
    const target = await freshTarget(dialect);
    const DAY = 86_400_000;
    const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();
    const seeded = await openDatabase(target, createLogger('silent'));
    const row = (id: string, status: string, days: { created: number; sent?: number; died?: number }) =>
      storedMessage(id, status, {
        createdAt: ago(days.created),
        sentAt: days.sent === undefined ? undefined : ago(days.sent),
        diedAt: days.died === undefined ? undefined : ago(days.died),
      });
    await seeded.db
      .insertInto('outbox')
      .values([
        ...Array.from({ length: 2_500 }, (_, i) => row(`old-${i}`, i % 3 === 0 ? 'skipped' : 'sent', { created: 40, sent: 40 })),
        row('old-dead', 'dead', { created: 50, died: 36 }),
        row('kept-sent', 'sent', { created: 34, sent: 34 }),
        row('kept-dead', 'dead', { created: 50, died: 34 }),
        row('kept-pending', 'pending', { created: 400 }),
      ])
      .execute();
    await seeded.close();
    const app = await startTestApp({
      dialect,
      env: { DATABASE_URL: target.dialect === 'sqlite' ? `sqlite:${target.path}` : target.url, OUTBOX_RETENTION_DAYS: '35' },
    });
    try {
      const left = await waitUntil(
        async () => {
          const { messages, total } = (await app.call('/api/admin/messages/list', { pageSize: 100 })).success();
          return total === 3 ? messages : undefined;
        },
        { what: 'the purge at start' },
      );
      assert.deepEqual(left.map((m) => m.id).sort(), ['kept-dead', 'kept-pending', 'kept-sent']);
    } finally {
      await app.close();
    }
  });
}
