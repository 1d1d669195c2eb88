import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, describe, test } from 'node:test';
import type { DispatcherTimings } from '../src/messaging/delivery/dispatcher.ts';
import { countUndelivered } from '../src/messaging/figures.ts';
import { formatJapanTime } from '../src/text/japan-format.ts';
import { claimDueMessages, enqueueMessages } from '../src/messaging/outbox/store.ts';
import { DIALECTS, startTestApp, type Dialect, type TestApp } from './helpers/app.ts';
import { startSmtpTestApp } from './helpers/email-app.ts';
import { startHttpReceiver, type HttpReceiver, type ReceivedRequest } from './helpers/http-receiver.ts';
import { outboxStatusCounts } from './helpers/outbox.ts';
import { createTestDatabase } from './helpers/postgres.ts';
import { EmailApiBody, SlackBody } from './helpers/sent-bodies.ts';
import type { SmtpReceiver } from './helpers/smtp-receiver.ts';
import { settle, waitUntil } from './helpers/wait.ts';

// Reservation notifications end to end: the outbox, the dispatcher and real receivers (a local HTTP
// server as the email API and the chat webhook, smtp-server for SMTP), on both dialects.

const FAST: Partial<DispatcherTimings> = { pollIntervalMs: 25, retryBaseMs: 40, retryCapMs: 150, leaseMs: 5_000, maxAttempts: 5 };
const API_KEY = 're_test_key_do_not_log';
const WEBHOOK_PATH = '/services/T000/B000/webhook-secret-path';
const valid = { name: '山田 太郎', email: 'Taro@Example.com', productSlug: 'kumo-vco-2' };

async function reserve(app: TestApp, body: object = valid): Promise<string> {
  const response = await app.request('/api/reservation', { method: 'POST', body: JSON.stringify(body) });
  return (await app.read('/api/reservation', response)).success().reservationId;
}

function receiverEnv(receiver: HttpReceiver): Record<string, string> {
  return {
    RATE_LIMIT_PER_MINUTE: '0',
    EMAIL_PROVIDER_API_KEY: API_KEY,
    EMAIL_API_URL: `${receiver.url}/emails`,
    EMAIL_FROM: 'tenpo <shop@tenpo.example>',
    RESERVATION_WEBHOOK_URL: `${receiver.url}${WEBHOOK_PATH}`,
  };
}

async function outboxRows(app: TestApp) {
  return app.services.database.db.selectFrom('outbox').selectAll().orderBy('idempotency_key').execute();
}

/** A store that outlives one app, so a second can start on it. */
async function persistentDatabaseUrl(dialect: Dialect): Promise<{ url: string; remove(): void }> {
  if (dialect === 'postgres') return { url: await createTestDatabase(), remove: () => {} };
  const dir = mkdtempSync(join(tmpdir(), 'tenpo-outbox-'));
  return { url: `sqlite:${join(dir, 'tenpo.db')}`, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

function byKey(requests: ReceivedRequest[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of requests) {
    const key =
      r.path === '/emails' ? `email:${r.headers['idempotency-key']}` : `chat:${JSON.stringify(SlackBody.parse(r.body).blocks[1])}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** Once deliveries have settled: `count` accepted, none twice, one confirmation email for each of `ids`. */
async function assertEachSentOnce(receiver: HttpReceiver, count: number, ids: string[]): Promise<void> {
  await settle(300);
  const accepted = receiver.accepted();
  assert.equal(accepted.length, count);
  assert.ok([...byKey(accepted).values()].every((n) => n === 1));
  assert.deepEqual(
    accepted
      .filter((r) => r.path === '/emails')
      .map((r) => r.headers['idempotency-key'])
      .sort(),
    ids.map((id) => `reservation/${id}/confirmation-email`).sort(),
  );
}

for (const dialect of DIALECTS) {
  describe(`notifications through the email API and the webhook (${dialect})`, () => {
    let receiver: HttpReceiver;
    let app: TestApp;
    before(async () => {
      receiver = await startHttpReceiver();
    });
    afterEach(async () => {
      await app?.close();
      receiver.requests.length = 0;
      receiver.failNext(0);
      receiver.failAlways(0);
      receiver.delayAnswers(0);
    });
    after(() => receiver.close());

    test('the confirmation email and the chat notice each arrive once, with everything they must say', async () => {
      app = await startTestApp({ dialect, env: receiverEnv(receiver), dispatcher: FAST });
      const id = await reserve(app);
      const [email] = await receiver.waitForAccepted(1, '/emails');
      const [chat] = await receiver.waitForAccepted(1, WEBHOOK_PATH);

      assert.equal(email!.headers.authorization, `Bearer ${API_KEY}`);
      assert.equal(email!.headers['idempotency-key'], `reservation/${id}/confirmation-email`);
      assert.match(String(email!.headers['content-type']), /application\/json/);
      const sent = EmailApiBody.parse(email!.body);
      assert.deepEqual(Object.keys(sent).sort(), ['from', 'html', 'subject', 'text', 'to']);
      assert.equal(sent.from, 'tenpo <shop@tenpo.example>');
      assert.deepEqual(sent.to, ['taro@example.com']);
      assert.equal(sent.subject, 'ご予約を受け付けました（Kumo VCO II）');
      for (const part of [sent.text, sent.html]) {
        for (const expected of ['山田 太郎 様', id, 'Kumo VCO II', '¥42,000', '今後の流れ'])
          assert.ok(part.includes(expected), `${expected} in ${part.slice(0, 40)}`);
      }

      assert.deepEqual(Object.keys(chat!.body as object), ['text', 'mrkdwn', 'blocks'], 'Slack-style for a non-Discord host');
      const { text } = SlackBody.parse(chat!.body);
      for (const expected of ['Kumo VCO II', 'kumo-vco-2', '山田 太郎', 'taro@example.com', id])
        assert.ok(text.includes(expected), expected);
      const createdAt = (await app.call('/api/admin-reservations-list', {})).success().reservations[0]!.createdAt;
      assert.ok(text.includes(`\n受付日時: ${formatJapanTime(createdAt)}\n`), 'the time, in Japan time');
      assert.equal(text.split(formatJapanTime(createdAt)).length - 1, 1, 'said once');
      assert.ok(!JSON.stringify(chat!.body).includes(createdAt), 'never a raw UTC time');
      assert.ok(text.endsWith(`管理画面で予約を開く: ${app.services.config.publicBaseUrl}/admin#/reservations?record=${id}`), text);

      await settle(200);
      assert.equal(receiver.requests.length, 2, 'nothing is sent twice');
      const rows = await outboxRows(app);
      assert.deepEqual(
        rows.map((r) => [r.status, r.attempts, r.record_id]),
        [
          ['sent', 1, id],
          ['sent', 1, id],
        ],
      );
      assert.ok(rows.every((r) => r.sent_at !== null && r.locked_until === null));
    });

    test('a failing provider delays no response and loses no message; each arrives exactly once', async () => {
      // Retries wait at least 100 ms, so no retry can succeed before both answers are in.
      app = await startTestApp({ dialect, env: receiverEnv(receiver), dispatcher: { ...FAST, retryBaseMs: 200, retryCapMs: 200 } });
      receiver.failNext(6, 503);
      const ids = [await reserve(app), await reserve(app, { ...valid, email: 'hanako@example.com' })];
      assert.equal(receiver.accepted().length, 0, 'the answers came before any delivery succeeded');
      await receiver.waitForAccepted(2, '/emails');
      await receiver.waitForAccepted(2, WEBHOOK_PATH);
      await assertEachSentOnce(receiver, 4, ids);
      const rows = await outboxRows(app);
      assert.ok(rows.every((r) => r.status === 'sent'));
      assert.equal(
        rows.reduce((sum, r) => sum + r.attempts, 0),
        4 + 6,
        'every failed attempt was counted',
      );
      assert.ok(app.logs.some((l) => l.msg === 'outbox: delivery failed; will retry' && l.error === 'HTTP 503: {"error":"unavailable"}'));
    });

    test('after the last attempt a message is given up: dead, logged, counted', async () => {
      app = await startTestApp({ dialect, env: receiverEnv(receiver), dispatcher: { ...FAST, maxAttempts: 3 } });
      receiver.failAlways(500);
      await reserve(app);
      await waitUntil(async () => (await outboxStatusCounts(app.services.database.db)).dead === 2, { what: 'two dead messages' });
      assert.deepEqual(await outboxStatusCounts(app.services.database.db), { pending: 0, sent: 0, skipped: 0, dead: 2, superseded: 0 });
      assert.deepEqual(await countUndelivered(app.services.database.db), { pending: 0, dead: 2 }, 'the dashboard counts');
      assert.equal(receiver.requests.length, 6, 'three attempts each');
      const givenUp = app.logs.filter((l) => l.msg === 'outbox: message given up after its last attempt');
      assert.equal(givenUp.length, 2);
      assert.ok(givenUp.every((l) => l.level === 50 && l.attempts === 3));
      await settle(200);
      assert.equal(receiver.requests.length, 6, 'a dead message is not tried again');
    });

    test('deliveries run in parallel', async () => {
      app = await startTestApp({ dialect, env: receiverEnv(receiver), dispatcher: FAST });
      receiver.delayAnswers(150);
      for (let i = 0; i < 6; i++) await reserve(app);
      await receiver.waitForAccepted(12);
      assert.ok(receiver.maxConcurrent >= 4, `at most ${receiver.maxConcurrent} at once`);
    });

    test('secrets never reach the log', async () => {
      app = await startTestApp({ dialect, env: receiverEnv(receiver), dispatcher: FAST });
      receiver.failNext(2, 502);
      await reserve(app);
      await receiver.waitForAccepted(2);
      const logged = JSON.stringify(app.logs);
      assert.ok(!logged.includes(API_KEY));
      assert.ok(!logged.includes('webhook-secret-path'));
    });
  });

  describe(`the outbox across restarts and instances (${dialect})`, () => {
    let receiver: HttpReceiver;
    let store: { url: string; remove(): void };
    const apps: TestApp[] = [];
    before(async () => {
      receiver = await startHttpReceiver();
    });
    afterEach(async () => {
      await Promise.all(apps.splice(0).map((a) => a.close()));
      store?.remove();
      receiver.requests.length = 0;
      receiver.failAlways(0);
    });
    after(() => receiver.close());

    const start = async (timings: Partial<DispatcherTimings> = FAST) => {
      const app = await startTestApp({ dialect, env: { ...receiverEnv(receiver), DATABASE_URL: store.url }, dispatcher: timings });
      apps.push(app);
      return app;
    };

    test('a restart in the middle of retrying loses nothing and sends nothing twice', async () => {
      store = await persistentDatabaseUrl(dialect);
      receiver.failAlways(503);
      const first = await start({ ...FAST, retryBaseMs: 300, retryCapMs: 300 });
      const ids = [await reserve(first), await reserve(first), await reserve(first)];
      await waitUntil(() => receiver.requests.length >= 6, { what: 'a first, failed attempt of every message' });
      await first.close();
      apps.splice(apps.indexOf(first), 1);
      const failedSoFar = receiver.requests.length;

      receiver.failAlways(0);
      const second = await start();
      await receiver.waitForAccepted(6);
      await assertEachSentOnce(receiver, 6, ids);
      assert.ok(failedSoFar >= 6);
      assert.deepEqual(await outboxStatusCounts(second.services.database.db), { pending: 0, sent: 6, skipped: 0, dead: 0, superseded: 0 });
    });

    test('messages a crashed instance had claimed are delivered once its lease runs out', async () => {
      store = await persistentDatabaseUrl(dialect);
      const app = await start();
      const db = app.services.database.db;
      // Another instance queues two messages, claims them for 400 ms, and dies without settling them.
      await app.services.dispatcher.stop();
      const now = Date.now();
      await enqueueMessages(db, [
        {
          idempotencyKey: 'crash/1',
          queuedAt: new Date(now).toISOString(),
          message: {
            channel: 'email',
            to: 'a@example.com',
            email: {
              template: 'restock-available',
              facts: { productName: 's', price: null, productUrl: 'https://shop.example/p', unsubscribeUrl: 'https://shop.example/u' },
            },
          },
        },
        {
          idempotencyKey: 'crash/2',
          queuedAt: new Date(now).toISOString(),
          message: {
            channel: 'chat',
            webhook: 'reservation',
            content: { title: 'crash', fields: [], timestamp: new Date(now).toISOString() },
          },
        },
      ]);
      const claimed = await claimDueMessages(db, app.services.database.dialect, {
        now: new Date(now).toISOString(),
        leaseUntil: new Date(now + 400).toISOString(),
        limit: 10,
      });
      assert.equal(claimed.length, 2);
      app.services.dispatcher.start();
      await settle(150);
      assert.equal(receiver.requests.length, 0, 'the lease is respected while it lasts');
      await receiver.waitForAccepted(2);
      await settle(200);
      assert.equal(receiver.requests.length, 2);
      const rows = await outboxRows(app);
      assert.deepEqual(
        rows.map((r) => [r.status, r.attempts]),
        [
          ['sent', 2],
          ['sent', 2],
        ],
      );
    });

    test('several instances on one store share the work and send each message once', async () => {
      store = await persistentDatabaseUrl(dialect);
      const instances = [
        await start({ ...FAST, concurrency: 3 }),
        await start({ ...FAST, concurrency: 3 }),
        await start({ ...FAST, concurrency: 3 }),
      ];
      const ids = [];
      for (let i = 0; i < 30; i++) ids.push(await reserve(instances[i % 3]!, { ...valid, email: `buyer${i}@example.com` }));
      await receiver.waitForAccepted(60);
      await settle(300);
      const accepted = receiver.accepted();
      assert.equal(accepted.length, 60);
      assert.ok([...byKey(accepted).values()].every((count) => count === 1));
      assert.equal(new Set(accepted.filter((r) => r.path === '/emails').map((r) => r.headers['idempotency-key'])).size, 30);
    });
  });

  describe(`email through SMTP (${dialect})`, () => {
    let smtp: SmtpReceiver;
    let app: TestApp;
    let close: () => Promise<void>;
    before(async () => {
      ({ app, smtp, close } = await startSmtpTestApp({ dialect, env: { EMAIL_FROM: 'tenpo <shop@tenpo.example>' }, dispatcher: FAST }));
    });
    after(() => close());

    test('a Japanese confirmation in text and HTML, to the customer only', async () => {
      const id = await reserve(app);
      const [mail] = await smtp.waitForMails(1);
      const { parsed, envelopeTo } = mail!;
      assert.deepEqual(envelopeTo, ['taro@example.com']);
      assert.deepEqual(
        parsed.from?.value.map((a) => [a.name, a.address]),
        [['tenpo', 'shop@tenpo.example']],
      );
      assert.equal((parsed.to as { text: string }).text, 'taro@example.com');
      assert.equal(parsed.subject, 'ご予約を受け付けました（Kumo VCO II）');
      assert.match(parsed.messageId ?? '', /^<[0-9a-f]{32}@tenpo\.example>$/);
      for (const expected of ['山田 太郎 様', id, 'Kumo VCO II', '¥42,000', '今後の流れ']) {
        assert.ok(parsed.text?.includes(expected), `text: ${expected}`);
        assert.ok(String(parsed.html).includes(expected), `html: ${expected}`);
      }
      // The dispatcher records a delivery just after it, so wait for the record rather than race it.
      const counts = await waitUntil(
        async () => {
          const now = await outboxStatusCounts(app.services.database.db);
          return now.sent === 1 && now.skipped === 1 ? now : undefined;
        },
        { what: 'the email recorded sent and the chat notice skipped' },
      );
      assert.equal(counts.sent, 1);
      assert.equal(counts.skipped, 1, 'no webhook configured: the chat notice is skipped');
    });

    test('a name with `<`, `>`, `&` and quotes (markup itself the form refuses) injects no HTML; one with CR/LF (refused by the form, but a row kept from elsewhere may hold it) injects no header', async () => {
      smtp.mails.length = 0;
      const id = await reserve(app, { ...valid, name: "\"><3 & 'x' >_<" });
      const [received] = await smtp.waitForMails(1);
      const html = String(received!.parsed.html);
      assert.ok(html.includes('&quot;&gt;&lt;3 &amp; &#39;x&#39; &gt;_&lt; 様'), 'escaped');
      assert.ok(received!.parsed.text?.includes("\"><3 & 'x' >_< 様"));

      await app.services.database.db
        .updateTable('reservations')
        .set({ name: '山田\r\nBcc: victim@example.com\r\n太郎' })
        .where('id', '=', id)
        .execute();
      smtp.mails.length = 0;
      assert.equal(
        (await app.admin('/api/admin-reservations-status', { id, productSlug: valid.productSlug, status: 'confirmed' })).status,
        200,
      );
      const [confirmed] = await smtp.waitForMails(1);
      const { parsed, envelopeTo, raw } = confirmed!;
      assert.deepEqual(envelopeTo, ['taro@example.com'], 'no extra recipient');
      assert.equal(parsed.bcc, undefined);
      assert.equal(parsed.headers.get('bcc'), undefined);
      assert.doesNotMatch(raw, /^Bcc:/im);
    });

    test('a refused message is retried and arrives once, under the same Message-ID', async () => {
      smtp.mails.length = 0;
      smtp.failNext(2);
      await reserve(app);
      await smtp.waitForMails(1);
      await settle(300);
      assert.equal(smtp.mails.length, 1);
      assert.ok(!JSON.stringify(app.logs).includes('smtp-secret-password'), 'the SMTP password is never logged');
    });
  });

  describe(`no provider configured (${dialect})`, () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp({ dialect, env: { RATE_LIMIT_PER_MINUTE: '0' }, dispatcher: FAST });
    });
    after(() => app.close());

    test('the email is written to the log and counted as skipped; the chat notice is skipped silently', async () => {
      const id = await reserve(app);
      await waitUntil(async () => (await outboxStatusCounts(app.services.database.db)).skipped === 2, { what: 'both skipped' });
      const skipped = app.logs.filter((l) => l.msg === 'email skipped: no provider configured');
      assert.equal(skipped.length, 1);
      assert.equal(skipped[0]!.to, 'taro@example.com');
      assert.ok(String(skipped[0]!.text).includes(id));
      assert.ok(
        app.logs.some((l) => String(l.msg).startsWith('no email provider configured')),
        'said once at start',
      );
      assert.ok(!app.logs.some((l) => /chat|webhook/i.test(String(l.msg))), 'nothing about the webhook');
      assert.deepEqual(await outboxStatusCounts(app.services.database.db), { pending: 0, sent: 0, skipped: 2, dead: 0, superseded: 0 });
    });
  });
}
