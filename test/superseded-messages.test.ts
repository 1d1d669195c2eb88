import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { createLogger } from '../src/log.ts';
import { createDelivery } from '../src/messaging/delivery/delivery.ts';
import { Dispatcher } from '../src/messaging/delivery/dispatcher.ts';
import { erasePersonalData } from '../src/personal-data/personal-data.ts';
import { DIALECTS, type TestApp } from './helpers/app.ts';
import { FAST_DISPATCH, startSmtpTestApp } from './helpers/email-app.ts';
import type { SmtpReceiver } from './helpers/smtp-receiver.ts';
import { settle, waitUntil } from './helpers/wait.ts';

// An email is checked against its record right before every attempt, and again when staff send it
// again: one the record has contradicted since it was queued is never delivered, and shows as
// superseded. Through the whole service with a real SMTP receiver, on both dialects.

const PRODUCT = 'kumo-vco-2';

for (const dialect of DIALECTS) {
  describe(`messages that are true when they arrive (${dialect})`, () => {
    let smtp: SmtpReceiver;
    let app: TestApp;
    let close: () => Promise<void>;
    before(async () => {
      ({ app, smtp, close } = await startSmtpTestApp({
        dialect,
        env: { PUBLIC_BASE_URL: 'https://shop.example.jp' },
        dispatcher: FAST_DISPATCH,
      }));
    });
    after(() => close());
    beforeEach(() => {
      smtp.mails.length = 0;
      smtp.failNext(0);
    });

    async function reserve(email: string): Promise<string> {
      const response = await app.request('/api/reservation', {
        method: 'POST',
        body: JSON.stringify({ name: '山田 太郎', email, productSlug: PRODUCT }),
      });
      return (await app.read('/api/reservation', response)).success().reservationId;
    }
    const move = async (id: string, status: string) =>
      (await app.call('/api/admin-reservations-status', { id, productSlug: PRODUCT, status })).success();
    const emailsAbout = async (id: string) =>
      (await app.call('/api/admin/messages/list', { recordId: id, channel: 'email' })).success().messages;
    /** The record's emails once none is pending, by kind. */
    const settledEmails = (id: string) =>
      waitUntil(async () => {
        const messages = await emailsAbout(id);
        return messages.every((m) => m.status !== 'pending') ? Object.fromEntries(messages.map((m) => [m.kind, m])) : undefined;
      });
    const subjects = () => smtp.mails.map((mail) => mail.parsed.subject);
    /** The superseded messages the store keeps, as /metrics says. */
    const supersededInMetrics = async () => {
      const response = await app.request('/metrics', { headers: { authorization: `Bearer ${app.env.PREORDER_API_TOKEN}` } });
      const figure = /^tenpo_outbox_messages\{status="superseded"\} (\d+)$/m.exec(await response.text());
      assert.ok(figure, 'a superseded figure');
      return Number(figure[1]);
    };

    test('the provider refused the confirmations, staff cancelled, then resent every failed one: only the cancellation reaches the customer, the rest is superseded', async () => {
      smtp.failNext(2, { code: 550, message: 'Mailbox unavailable' });
      const id = await reserve('resend@example.com');
      await waitUntil(async () => (await emailsAbout(id))[0]?.status === 'dead', { what: 'the confirmation given up' });
      await move(id, 'confirmed');
      await waitUntil(async () => (await emailsAbout(id)).filter((m) => m.status === 'dead').length === 2, {
        what: 'the confirmation of the status given up too',
      });
      await move(id, 'cancelled');
      await smtp.waitForMails(1);
      assert.deepEqual(subjects(), ['ご予約をキャンセルしました（Kumo VCO II）']);

      // 送信失敗 → select all → 再送: what the console sends.
      const dead = (await app.call('/api/admin/messages/list', { status: 'dead', pageSize: 100 })).success().messages;
      const deadHere = dead.filter((m) => m.recordId === id);
      assert.equal(deadHere.length, 2);
      const supersededBefore = await supersededInMetrics();
      const answer = (await app.call('/api/admin/messages/retry', { ids: deadHere.map((m) => m.id) })).success();
      assert.deepEqual(answer, {
        success: true,
        retriedCount: 0,
        retriedIds: [],
        errors: deadHere.map((m) => ({ id: m.id, error: 'Message is superseded', code: 'message_superseded' })),
      });
      const emails = await settledEmails(id);
      assert.deepEqual(Object.fromEntries(Object.entries(emails).map(([kind, m]) => [kind, m.status])), {
        'reservation-received': 'superseded',
        'reservation-confirmed': 'superseded',
        'reservation-cancelled': 'sent',
      });
      assert.equal(emails['reservation-confirmed']!.sentAt, null, 'never sent');
      const listed = (await app.call('/api/admin/messages/list', { status: 'superseded', recordId: id })).success();
      assert.equal(listed.total, 2, 'the filter finds them');
      assert.equal(await supersededInMetrics(), supersededBefore + 2, '/metrics counts them');
      // The reservation's page: its history shows each email as it stands, and no resend (none was made).
      const history = (await app.call('/api/admin/reservations/get', { id })).success().history;
      assert.deepEqual(
        history.flatMap((entry) => (entry.type === 'message' && entry.channel === 'email' ? [[entry.kind, entry.status]] : [])),
        [
          ['reservation-received', 'superseded'],
          ['reservation-confirmed', 'superseded'],
          ['reservation-cancelled', 'sent'],
        ],
      );
      assert.deepEqual(
        history.filter((entry) => entry.type === 'retry'),
        [],
      );

      // Asked again, the answer stays the same and nothing moves.
      const again = (await app.call('/api/admin/messages/retry', { ids: [deadHere[0]!.id] })).success();
      assert.deepEqual(again.errors, [{ id: deadHere[0]!.id, error: 'Message is superseded', code: 'message_superseded' }]);
      await settle(200);
      assert.deepEqual(subjects(), ['ご予約をキャンセルしました（Kumo VCO II）'], 'no contradicting email was delivered');
    });

    test('a retry of a message still true is sent; if the record changes before its attempt, the attempt supersedes it', async () => {
      smtp.failNext(2, { code: 550, message: 'Mailbox unavailable' });
      const id = await reserve('changed-after-retry@example.com');
      await waitUntil(async () => (await emailsAbout(id))[0]?.status === 'dead', { what: 'the confirmation given up' });
      await move(id, 'confirmed');
      await waitUntil(async () => (await emailsAbout(id)).filter((m) => m.status === 'dead').length === 2, {
        what: 'the confirmation of the status given up',
      });
      const confirmed = (await emailsAbout(id)).find((m) => m.kind === 'reservation-confirmed')!;
      // The dispatcher is held, so the retried message waits: staff retry, then move the reservation back.
      await app.services.dispatcher.stop();
      const answer = (await app.call('/api/admin/messages/retry', { ids: [confirmed.id] })).success();
      assert.deepEqual(answer.retriedIds, [confirmed.id], 'still true when retried');
      await app.call('/api/admin-reservations-status', { id, productSlug: PRODUCT, status: 'pending', notifyCustomer: false });
      app.services.dispatcher.start();
      const emails = await settledEmails(id);
      assert.equal(emails['reservation-confirmed']!.status, 'superseded');
      await settle(200);
      assert.deepEqual(subjects(), [], 'nothing reached the customer');
      const history = (await app.call('/api/admin/reservations/get', { id })).success().history;
      const retries = history.filter((entry) => entry.type === 'retry');
      assert.deepEqual(
        retries.map(({ at, ...entry }) => (assert.ok(Date.parse(at)), entry)),
        [{ type: 'retry', actor: 'staff', staffId: null, staffName: null, messageId: confirmed.id }],
      );
      const shown = history.find((entry) => entry.type === 'message' && entry.messageId === confirmed.id);
      assert.equal(shown?.type === 'message' && shown.status, 'superseded');
    });

    test('two moves before the first email went: only the last one is sent', async () => {
      await app.services.dispatcher.stop();
      const id = await reserve('quick-moves@example.com');
      await move(id, 'confirmed');
      await move(id, 'cancelled');
      app.services.dispatcher.start();
      const emails = await settledEmails(id);
      assert.deepEqual(Object.fromEntries(Object.entries(emails).map(([kind, m]) => [kind, m.status])), {
        'reservation-received': 'superseded',
        'reservation-confirmed': 'superseded',
        'reservation-cancelled': 'sent',
      });
      assert.deepEqual(subjects(), ['ご予約をキャンセルしました（Kumo VCO II）']);
      const dashboard = (await app.call('/api/admin-dashboard-stats', {})).success();
      assert.ok(dashboard.outbox.superseded >= 2, 'the dashboard counts them');
      const metrics = await (await app.request('/metrics', { headers: { authorization: `Bearer ${app.env.PREORDER_API_TOKEN}` } })).text();
      assert.match(metrics, /tenpo_outbox_delivery_attempts_total\{channel="email",outcome="superseded"\} [1-9]/);
    });

    test('a customer’s data erased while a retried email of theirs is being delivered: nothing is delivered', async () => {
      smtp.failNext(1, { code: 550, message: 'Mailbox unavailable' });
      const address = 'erased-during-retry@example.com';
      const id = await reserve(address);
      await waitUntil(async () => (await emailsAbout(id))[0]?.status === 'dead', { what: 'the confirmation given up' });
      const [dead] = await emailsAbout(id);
      // Staff retry; the customer's erasure lands the moment the dispatcher has claimed the message,
      // before it is sent: the real delivery (render, check, SMTP) behind a claim that erases first.
      await app.services.dispatcher.stop();
      assert.deepEqual((await app.call('/api/admin/messages/retry', { ids: [dead!.id] })).success().retriedIds, [dead!.id]);
      const delivery = await createDelivery(app.services.config, createLogger('silent'), app.services.database);
      const erasing = new Dispatcher({
        database: app.services.database,
        addressKeySecret: app.services.config.email.addressKeySecret,
        emailEvents: app.services.emailEvents,
        log: createLogger('silent'),
        timings: FAST_DISPATCH,
        deliver: async (message, standing) => {
          await erasePersonalData(app.services.database, app.services.config.email.addressKeySecret, address);
          return delivery.deliver(message, standing);
        },
      });
      try {
        erasing.start();
        await waitUntil(() => erasing.attemptCounts().length > 0, { what: 'the attempt' });
        assert.deepEqual(erasing.attemptCounts(), [{ channel: 'email', outcome: 'withdrawn', count: 1 }]);
      } finally {
        await erasing.stop();
        await delivery.close();
        app.services.dispatcher.start();
      }
      await settle(200);
      assert.deepEqual(smtp.mails, [], 'nothing delivered');
      assert.deepEqual(await emailsAbout(id), [], 'erased');
    });
  });
}
