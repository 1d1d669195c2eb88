import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { DIALECTS, startTestApp, type TestApp } from './helpers/app.ts';
import { FAST_DISPATCH, startEmailTestApp } from './helpers/email-app.ts';
import type { HttpReceiver } from './helpers/http-receiver.ts';
import { startSmtpReceiver, type SmtpReceiver } from './helpers/smtp-receiver.ts';
import { settle, waitUntil } from './helpers/wait.ts';

// What a provider answers decides what happens next, seen through the real receivers: an answer no
// retry can change makes the message dead at its first attempt with the provider's words in
// lastError; a Retry-After on 429 or 503 sets the next attempt's time.

async function reserve(app: TestApp, email: string): Promise<string> {
  const response = await app.request('/api/reservation', {
    method: 'POST',
    body: JSON.stringify({ name: '山田 太郎', email, productSlug: 'kumo-vco-2' }),
  });
  return (await app.read('/api/reservation', response)).success().reservationId;
}

/** The message about `recordId` on `channel`, once `done` says it is where the test wants it. */
async function messageAbout(
  app: TestApp,
  recordId: string,
  channel: 'email' | 'chat',
  done: (m: { status: string; attempts: number; lastError: string | null }) => boolean,
) {
  return waitUntil(
    async () => {
      const found = (await app.call('/api/admin/messages/list', { recordId, channel })).success().messages[0];
      return found && done(found) ? found : undefined;
    },
    // A delivery attempt is an event this waits for; 30 s only bounds the wait on a machine loaded by other work.
    { what: `the ${channel} message about ${recordId}`, timeoutMs: 30_000 },
  );
}

for (const dialect of DIALECTS) {
  describe(`provider answers over HTTP (${dialect})`, () => {
    let app: TestApp;
    let api: HttpReceiver;
    let close: () => Promise<void>;
    before(async () => {
      ({ app, api, close } = await startEmailTestApp({ dialect, webhooks: ['reservation'] }));
    });
    after(() => close());
    beforeEach(() => api.failNext(0));

    for (const status of [400, 401, 403, 422]) {
      test(`an email API ${status} is dead at once, the provider's reason kept`, async () => {
        api.failNext(1, status, { path: '/emails', body: { name: 'validation_error', message: `refused with ${status}` } });
        const id = await reserve(app, `refused-${status}@example.com`);
        const dead = await messageAbout(app, id, 'email', (m) => m.status === 'dead');
        assert.deepEqual(
          [dead.attempts, dead.lastError],
          [1, `HTTP ${status}: {"name":"validation_error","message":"refused with ${status}"}`],
        );
        await settle(200);
        assert.equal(
          api.requests.filter((r) => r.path === '/emails' && (r.body as { to: string[] }).to[0] === `refused-${status}@example.com`).length,
          1,
          'tried once',
        );
      });
    }

    test('the refusal as logged quotes no address, however the provider encoded it; the message keeps it for staff', async () => {
      const address = 'encoded-refusal@example.com';
      const quoted = [address, encodeURIComponent(address), address.replace('@', String.raw`\u0040`), address.replace('@', '&#64;')];
      api.failNext(1, 422, { path: '/emails', body: { name: 'validation_error', message: `invalid to: ${quoted.join(' / ')}` } });
      const id = await reserve(app, address);
      const dead = await messageAbout(app, id, 'email', (m) => m.status === 'dead');
      assert.match(dead.lastError!, /encoded-refusal%40example\.com/, 'staff see the provider’s words as they were');
      const logged = app.logs.find((line) => line.messageId === dead.id && typeof line.error === 'string');
      assert.ok(logged, 'the refusal is logged');
      assert.doesNotMatch(JSON.stringify(logged), /encoded-refusal/);
      assert.match(String(logged.error), /invalid to: <address> \/ <address> \/ <address> \/ <address>/);
    });

    test('408, 409 and 429 without Retry-After, and 5xx, are retried until delivered', async () => {
      for (const status of [408, 409, 429, 500]) {
        api.failNext(1, status, { path: '/emails' });
        const id = await reserve(app, `retried-${status}@example.com`);
        const sent = await messageAbout(app, id, 'email', (m) => m.status === 'sent');
        assert.equal(sent.attempts, 2, String(status));
      }
    });

    test('a chat webhook that is gone (404) is dead at once too', async () => {
      api.failNext(1, 404, { path: '/hooks/reservation', body: 'Unknown Webhook' });
      const id = await reserve(app, 'hook-gone@example.com');
      const dead = await messageAbout(app, id, 'chat', (m) => m.status === 'dead');
      assert.deepEqual([dead.attempts, dead.lastError], [1, 'HTTP 404: "Unknown Webhook"']);
    });

    for (const [status, header] of [
      [429, 'seconds'],
      [503, 'date'],
    ] as const) {
      test(`a ${status} with Retry-After (${header}) sets the next attempt that far ahead`, async () => {
        const asked = Date.now();
        const retryAfter = header === 'seconds' ? '40' : new Date(asked + 40_000).toUTCString();
        api.failNext(1, status, { path: '/emails', headers: { 'retry-after': retryAfter } });
        const id = await reserve(app, `later-${status}@example.com`);
        await messageAbout(app, id, 'email', (m) => m.attempts === 1 && m.lastError !== null);
        const answered = Date.now();
        const row = await app.services.database.db
          .selectFrom('outbox')
          .select(['status', 'next_attempt_at'])
          .where('record_id', '=', id)
          .where('channel', '=', 'email')
          .executeTakeFirstOrThrow();
        const next = Date.parse(row.next_attempt_at);
        assert.equal(row.status, 'pending');
        // An HTTP date has whole seconds: up to 1 s earlier than asked + 40 s.
        assert.ok(
          next >= asked + 39_000 && next <= answered + 40_000,
          `next attempt ${row.next_attempt_at}, answered between ${new Date(asked).toISOString()} and ${new Date(answered).toISOString()}`,
        );
      });
    }
  });
}

describe('provider answers over SMTP', () => {
  let smtp: SmtpReceiver;
  let app: TestApp;
  before(async () => {
    smtp = await startSmtpReceiver();
    app = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '0', SMTP_URL: smtp.url }, dispatcher: FAST_DISPATCH });
  });
  after(async () => {
    await app.close();
    await smtp.close();
  });

  test('a 5xx reply is dead at once with the server’s words; a 4xx one is retried and delivered', async () => {
    smtp.failNext(1, { code: 550, message: '5.1.1 <nobody@example.com>: Recipient address rejected' });
    const refused = await reserve(app, 'nobody@example.com');
    const dead = await messageAbout(app, refused, 'email', (m) => m.status === 'dead');
    assert.equal(dead.attempts, 1);
    assert.match(dead.lastError!, /550 5\.1\.1 <nobody@example\.com>: Recipient address rejected/);

    smtp.failNext(1);
    const delayed = await reserve(app, 'later@example.com');
    const sent = await messageAbout(app, delayed, 'email', (m) => m.status === 'sent');
    assert.equal(sent.attempts, 2);
    assert.deepEqual(
      smtp.mails.map((mail) => mail.envelopeTo),
      [['later@example.com']],
    );
  });
});
