import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { DEFAULT_DISPATCHER_TIMINGS, type DispatcherTimings } from '../src/messaging/delivery/dispatcher.ts';
import { retryDelayMs } from '../src/messaging/delivery/retry-delay.ts';
import { DIALECTS, startTestApp } from './helpers/app.ts';
import { startHttpReceiver } from './helpers/http-receiver.ts';
import { outboxStatusCounts } from './helpers/outbox.ts';
import { waitUntil } from './helpers/wait.ts';

// The email API and the chat webhooks down for a real 60 s while reservations, restock signups and a
// restock send queue messages: the API refuses connections, the webhooks answer 503. Afterwards
// everything arrives, once, and nothing is given up.
//
// The retry delays are the production ones (2 s doubling, jittered down by up to half, 16 attempts)
// except their cap, 12 s instead of 15 min, so the first attempt after the outage comes within
// 12 s rather than the ~64 s production reaches by then. Fewer attempts fit in 60 s in production
// than here; the last test shows the production schedule outlasting such an outage by far.

const OUTAGE_MS = 60_000;
const TIMINGS: Partial<DispatcherTimings> = { retryCapMs: 12_000 };

describe('the email API and the webhooks down for 60 s', { concurrency: true }, () => {
  for (const dialect of DIALECTS) {
    test(`everything is delivered afterwards, once, and nothing is given up (${dialect})`, async (t) => {
      // Both down, as services answering 503: a port left free for the outage could be taken by another
      // test's server meanwhile, which then accepted the emails (seen once with two suites running).
      const emailApi = await startHttpReceiver();
      after(() => emailApi.close());
      emailApi.failAlways(503);
      const hooks = await startHttpReceiver();
      after(() => hooks.close());
      hooks.failAlways(503);
      const app = await startTestApp({
        dialect,
        dispatcher: TIMINGS,
        env: {
          RATE_LIMIT_PER_MINUTE: '0',
          EMAIL_PROVIDER_API_KEY: 're_test',
          EMAIL_API_URL: `${emailApi.url}/emails`,
          RESERVATION_WEBHOOK_URL: `${hooks.url}/reservation`,
          RESTOCK_WEBHOOK_URL: `${hooks.url}/restock`,
          PUBLIC_WEBHOOK_URL: `${hooks.url}/public`,
        },
      });
      after(() => app.close());
      const outageStarted = Date.now();

      // Queued as the outage begins: 3 reservations (email + chat each), 3 restock signups (chat
      // each), and the restock send to them (an email each, one public announcement).
      const post = async (path: string, body: unknown) => {
        const response = await app.request(path, { method: 'POST', body: JSON.stringify(body) });
        assert.equal(response.status, 200, await response.clone().text());
      };
      for (let i = 0; i < 3; i++) {
        await post('/api/reservation', { name: `客 ${i}`, email: `buyer${i}@example.com`, productSlug: 'kumo-vco-2' });
        await post('/api/notify', { email: `waiting${i}@example.com`, productSlug: 'tsuki-dual-lfo' });
      }
      const send = await app.admin('/api/admin/notify/send', { productSlug: 'tsuki-dual-lfo' });
      assert.deepEqual(await send.json(), { success: true, notifiedCount: 3, remaining: 0 });
      // And one more halfway through.
      await sleepUntil(outageStarted + OUTAGE_MS / 2);
      await post('/api/reservation', { name: '客 3', email: 'buyer3@example.com', productSlug: 'kumo-vco-2' });

      await sleepUntil(outageStarted + OUTAGE_MS);
      const failedAttempts = hooks.requests.length;
      const counts = await outboxStatusCounts(app.services.database.db);
      assert.deepEqual(counts, { pending: 15, sent: 0, skipped: 0, dead: 0, superseded: 0 }, 'nothing got through, nothing was given up');
      emailApi.failAlways(0);
      hooks.failAlways(0);
      const restored = Date.now();

      await waitUntil(async () => (await outboxStatusCounts(app.services.database.db)).sent === 15, {
        timeoutMs: 20_000,
        what: 'all 15 messages sent',
      }).catch(async (error: Error) => {
        const left = await app.services.database.db
          .selectFrom('outbox')
          .select(['channel', 'destination', 'attempts', 'next_attempt_at', 'locked_until', 'last_error'])
          .where('status', '!=', 'sent')
          .execute();
        throw new Error(`${error.message}, ${Date.now() - restored} ms after the outage; not sent: ${JSON.stringify(left)}`);
      });
      const deliveredIn = Date.now() - restored;
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.deepEqual(await outboxStatusCounts(app.services.database.db), { pending: 0, sent: 15, skipped: 0, dead: 0, superseded: 0 });

      const emailKeys = emailApi.accepted('/emails').map((r) => String(r.headers['idempotency-key']));
      assert.equal(emailKeys.length, 7, '3 confirmations, 3 restock emails, 1 more confirmation');
      assert.equal(new Set(emailKeys).size, 7);
      const chats = hooks.accepted().map((r) => `${r.path} ${JSON.stringify(r.body)}`);
      assert.deepEqual(
        hooks
          .accepted()
          .map((r) => r.path)
          .sort(),
        ['/public', ...Array(4).fill('/reservation'), ...Array(3).fill('/restock')].sort(),
      );
      assert.equal(new Set(chats).size, 8, 'each chat message once');

      const rows = await app.services.database.db.selectFrom('outbox').select(['attempts']).execute();
      const mostAttempts = Math.max(...rows.map((r) => r.attempts));
      assert.ok(
        mostAttempts < DEFAULT_DISPATCHER_TIMINGS.maxAttempts,
        `${mostAttempts} attempts, fewer than the ${DEFAULT_DISPATCHER_TIMINGS.maxAttempts} before a message is given up`,
      );
      assert.ok(app.logs.some((l) => l.msg === 'outbox: delivery failed; will retry' && l.level === 40));
      assert.ok(!app.logs.some((l) => l.msg === 'outbox: message given up after its last attempt'));
      t.diagnostic(
        `${dialect}: ${failedAttempts} failed webhook attempts during the outage; at most ${mostAttempts} attempts for a message; all 15 delivered ${deliveredIn} ms after the outage ended`,
      );
    });
  }
});

test('with the production schedule a message first tried as a 60 s outage begins is tried at most 7 times in it, again within 64 s of its end, and given up only after 50 minutes or more', () => {
  const { retryBaseMs: baseMs, retryCapMs: capMs, maxAttempts } = DEFAULT_DISPATCHER_TIMINGS;
  for (const jitter of [0, 0.5, 0.999]) {
    // attemptAt[n] is when attempt n + 1 happens; the delay after attempt n is retryDelayMs(n).
    const attemptAt = [0];
    for (let attempt = 1; attempt < maxAttempts; attempt++)
      attemptAt.push(attemptAt.at(-1)! + retryDelayMs(attempt, { baseMs, capMs }, () => jitter));
    const inOutage = attemptAt.filter((at) => at < OUTAGE_MS).length;
    const nextAfter = attemptAt.find((at) => at >= OUTAGE_MS)!;
    assert.ok(inOutage <= 7, `jitter ${jitter}: ${inOutage} attempts in the outage`);
    assert.ok(nextAfter - OUTAGE_MS <= 64_000, `jitter ${jitter}: tried again ${nextAfter - OUTAGE_MS} ms after it`);
    assert.ok(attemptAt.at(-1)! >= 50 * 60_000, `jitter ${jitter}: the last attempt ${attemptAt.at(-1)} ms after the first`);
  }
});

function sleepUntil(time: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, time - Date.now())));
}
