import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { ADMIN_TOKEN, DIALECTS, startTestApp, type TestApp } from './helpers/app.ts';
import { FAST_DISPATCH, startEmailTestApp } from './helpers/email-app.ts';
import type { HttpReceiver } from './helpers/http-receiver.ts';
import { startSmtpReceiver } from './helpers/smtp-receiver.ts';
import { resendEvent, signAsSvix, webhookSecret, type SignedDelivery } from './helpers/svix.ts';
import { settle, waitUntil } from './helpers/wait.ts';

// The shop's sender reputation through real HTTP on both databases: the provider's events signed
// as Svix signs them (written in helpers/svix.ts from Svix's documentation, not with the service's
// library), the suppression they make and what it stops, an SMTP server refusing one recipient
// with 550, and the staff's list and lift.

const PATH = '/api/webhooks/email';

for (const dialect of DIALECTS) {
  describe(`email reputation (${dialect})`, () => {
    const secret = webhookSecret();
    let app: TestApp;
    let api: HttpReceiver;
    let close: () => Promise<void>;
    before(async () => {
      ({ app, api, close } = await startEmailTestApp({
        dialect,
        env: { EMAIL_WEBHOOK_SECRET: secret, EMAILS_PER_ADDRESS_PER_DAY: '0', STOREFRONT_URL: 'https://www.shop.example.jp' },
      }));
    });
    after(() => close());
    beforeEach(async () => {
      const { db } = app.services.database;
      for (const table of ['email_events', 'email_suppressions', 'outbox', 'record_history', 'subscriptions', 'reservations'] as const)
        await db.deleteFrom(table).execute();
      api.requests.length = 0;
    });

    const db = () => app.services.database.db;
    const post = (delivery: SignedDelivery, headers: Record<string, string> = delivery.headers) =>
      app.request(PATH, { method: 'POST', headers, body: delivery.body });
    const send = async (event: unknown, options?: Parameters<typeof signAsSvix>[2]) =>
      app.read(PATH, await post(signAsSvix(secret, event, options)));
    const events = async () => await db().selectFrom('email_events').selectAll().orderBy('recorded_at').execute();
    const suppression = (address: string) =>
      db().selectFrom('email_suppressions').selectAll().where('address', '=', address).executeTakeFirst();

    /** The id the provider answered the email about this record with, once it is sent. */
    const providerIdOf = (recordId: string) =>
      waitUntil(async () => {
        const row = await db()
          .selectFrom('outbox')
          .select('provider_message_id')
          .where('record_id', '=', recordId)
          .where('channel', '=', 'email')
          .executeTakeFirst();
        return row?.provider_message_id;
      });

    /** A reservation by `email`; its confirmation sent, the id the provider answered with. */
    async function reserve(email: string): Promise<{ reservationId: string; emailId: string }> {
      const before = api.accepted('/emails').length;
      const response = await app.request('/api/reservation', {
        method: 'POST',
        body: JSON.stringify({ name: '山田 太郎', email, productSlug: 'kumo-vco-2' }),
      });
      const { reservationId } = (await app.read('/api/reservation', response)).success();
      await api.waitForAccepted(before + 1, '/emails');
      const emailId = await providerIdOf(reservationId);
      return { reservationId, emailId };
    }

    /** The emails about a record, as the outbox settled them. */
    const emailsAbout = (id: string) =>
      db()
        .selectFrom('outbox')
        .select(['status', 'last_error', 'payload'])
        .where('record_id', '=', id)
        .where('channel', '=', 'email')
        .orderBy('created_at')
        .execute();

    test('the id the provider answered a sent email with is kept, and an event naming it is recorded on it once', async () => {
      const { emailId } = await reserve('taro@example.com');
      // The receiver answers { id: 'msg-<n>' }, n its request count.
      assert.equal(emailId, `msg-${api.requests.length}`);
      const delivered = signAsSvix(secret, resendEvent('email.delivered', emailId));
      assert.equal((await app.read(PATH, await post(delivered))).success().outcome, 'recorded');
      const [row] = await events();
      assert.equal(row!.kind, 'delivered');
      assert.equal(row!.address, 'taro@example.com');
      assert.equal(row!.webhook_id, delivered.id);

      // Svix sends it again, signed anew with a later timestamp, when it saw no answer: the same event.
      const retried = signAsSvix(secret, resendEvent('email.delivered', emailId), { id: delivered.id, timestamp: delivered.timestamp + 1 });
      assert.equal((await app.read(PATH, await post(retried))).success().outcome, 'already_recorded');
      // The very same delivery sent again (a replay): refused, nothing stored.
      assert.equal((await app.read(PATH, await post(delivered))).failure(401).code, 'invalid_webhook_signature');
      assert.equal((await events()).length, 1);
    });

    test('a bad signature, a stale or future timestamp, or missing headers: 401 and nothing stored', async () => {
      const { emailId } = await reserve('taro@example.com');
      const event = resendEvent('email.bounced', emailId, { bounce: { type: 'Permanent', message: '550 no such user' } });
      const good = signAsSvix(secret, event);
      const cases: [string, Record<string, string>, string?][] = [
        ['another secret', signAsSvix(webhookSecret(), event).headers],
        ['a body changed after signing', good.headers, good.body.replace('Permanent', 'Transient')],
        ['a signature of another id', { ...good.headers, 'svix-id': 'msg_other' }],
        ['six minutes old', signAsSvix(secret, event, { timestamp: Math.floor(Date.now() / 1000) - 360 }).headers],
        ['six minutes ahead', signAsSvix(secret, event, { timestamp: Math.floor(Date.now() / 1000) + 360 }).headers],
        ['no svix-signature', { 'content-type': 'application/json', 'svix-id': good.id, 'svix-timestamp': String(good.timestamp) }],
        ['no headers at all', { 'content-type': 'application/json' }],
        ['a signature that is not base64', { ...good.headers, 'svix-signature': 'v1,@@@' }],
      ];
      for (const [what, headers, body] of cases) {
        const answer = await app.read(PATH, await app.request(PATH, { method: 'POST', headers, body: body ?? good.body }));
        assert.equal(answer.failure(401).code, 'invalid_webhook_signature', what);
      }
      assert.deepEqual(await events(), []);
      assert.equal(await suppression('taro@example.com'), undefined);
    });

    test('an unknown message id, or an event of another type, is acknowledged and ignored', async () => {
      assert.equal((await send(resendEvent('email.bounced', 'not-ours', { bounce: { type: 'Permanent' } }))).success().outcome, 'ignored');
      const { emailId } = await reserve('taro@example.com');
      assert.equal((await send(resendEvent('email.opened', emailId))).success().outcome, 'ignored');
      assert.equal((await send({ type: 'contact.created', data: { id: 'c_1' } })).success().outcome, 'ignored');
      assert.deepEqual(await events(), []);
    });

    test('bad inputs under a good signature: 400 with the field, nothing stored; over 64 KiB: 413', async () => {
      const { emailId } = await reserve('taro@example.com');
      const bad: [string, unknown, string][] = [
        ['not JSON', undefined, 'invalid_json_body'],
        ['an array', [], 'invalid_json_body'],
        ['no data', { type: 'email.bounced' }, 'invalid_parameters'],
        ['a number for type', { type: 7, data: { email_id: emailId } }, 'invalid_parameters'],
        ['an empty email id', { type: 'email.bounced', data: { email_id: '' } }, 'invalid_parameters'],
        ['a time that is not one', { type: 'email.bounced', created_at: 'yesterday', data: { email_id: emailId } }, 'invalid_parameters'],
        ['half a character', { type: 'email.bounced', data: { email_id: `${emailId}\ud800` } }, 'invalid_parameters'],
      ];
      for (const [what, event, code] of bad) {
        const delivery = signAsSvix(secret, event, event === undefined ? { body: '{"type":' } : {});
        assert.equal((await app.read(PATH, await post(delivery))).failure(400).code, code, what);
      }
      const polluted = signAsSvix(secret, undefined, {
        body: `{"__proto__":{"polluted":true},"type":"email.delivered","data":{"email_id":"${emailId}","__proto__":{"x":1}}}`,
      });
      assert.equal((await app.read(PATH, await post(polluted))).success().outcome, 'recorded');
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
      const huge = signAsSvix(secret, resendEvent('email.delivered', emailId, { pad: 'x'.repeat(70_000) }));
      assert.equal((await app.read(PATH, await post(huge))).failure(413).code, 'payload_too_large');
      assert.equal((await events()).length, 1, 'only the well-formed event');
    });

    test('a hard bounce suppresses the address: its next email is skipped as suppressed, and the provider gets nothing', async () => {
      const { reservationId, emailId } = await reserve('Taro+shop@Example.com');
      const bounce = resendEvent('email.bounced', emailId, {
        bounce: { type: 'Permanent', subType: 'General', message: '550 5.1.1 unknown' },
      });
      assert.equal((await send(bounce)).success().outcome, 'recorded');
      const suppressed = await suppression('taro@example.com');
      assert.equal(suppressed?.reason, 'hard_bounce', 'under the canonical address');
      assert.equal((await events())[0]!.detail, '550 5.1.1 unknown');

      const sentBefore = api.accepted('/emails').length;
      (await app.call('/api/admin-reservations-status', { id: reservationId, productSlug: 'kumo-vco-2', status: 'confirmed' })).success();
      await waitUntil(async () => (await emailsAbout(reservationId)).at(-1)?.status === 'skipped');
      const [, confirmation] = await emailsAbout(reservationId);
      assert.deepEqual([confirmation!.status, confirmation!.last_error], ['skipped', 'suppressed']);
      await settle(100);
      assert.equal(api.accepted('/emails').length, sentBefore);
      const log = (await app.call('/api/admin/messages/list', { recordId: reservationId, status: 'skipped' })).success();
      assert.equal(log.messages[0]?.lastError, 'suppressed');
    });

    test('a complaint suppresses the address and unsubscribes every restock signup of it; a restock send then skips it', async () => {
      const signUp = async (email: string, productSlug: string) => {
        const response = await app.request('/api/notify', { method: 'POST', body: JSON.stringify({ email, productSlug }) });
        return (await app.read('/api/notify', response)).success().subscriptionId;
      };
      const first = await signUp('hanako@example.com', 'kumo-vco-2');
      const second = await signUp('Hanako+synth@example.com', 'tsuki-dual-lfo');
      const other = await signUp('jiro@example.com', 'tsuki-dual-lfo');
      (await app.call('/api/admin/notify/send', { productSlug: 'kumo-vco-2' })).success();
      await api.waitForAccepted(1, '/emails');
      const emailId = await providerIdOf(first);
      assert.equal((await send(resendEvent('email.complained', emailId))).success().outcome, 'recorded');
      assert.equal((await suppression('hanako@example.com'))?.reason, 'complaint');
      const statuses = await db().selectFrom('subscriptions').select(['id', 'status']).orderBy('created_at').execute();
      assert.deepEqual(
        statuses.map((s) => [s.id, s.status]),
        [
          [first, 'unsubscribed'],
          [second, 'unsubscribed'],
          [other, 'pending'],
        ],
      );
      const history = (await app.call('/api/admin/notify/get', { id: second, productSlug: 'tsuki-dual-lfo' })).success();
      assert.ok(history.history.some((entry) => entry.type === 'status' && entry.to === 'unsubscribed' && entry.actor === 'customer'));

      // Signed up again after the complaint: the restock send passes them by, the others get theirs.
      const again = await signUp('hanako@example.com', 'tsuki-dual-lfo');
      const sentBefore = api.accepted('/emails').length;
      (await app.call('/api/admin/notify/send', { productSlug: 'tsuki-dual-lfo' })).success();
      await api.waitForAccepted(sentBefore + 1, '/emails');
      await waitUntil(async () => (await emailsAbout(again)).at(-1)?.status === 'skipped');
      assert.equal((await emailsAbout(again))[0]!.last_error, 'suppressed');
      await settle(100);
      const recipients = api
        .accepted('/emails')
        .slice(sentBefore)
        .map((r) => (r.body as { to: string[] }).to[0]);
      assert.deepEqual(recipients, ['jiro@example.com']);

      // Staff cannot lift a complaint.
      const lift = await app.read(
        '/api/admin/email-suppressions/lift',
        await app.admin('/api/admin/email-suppressions/lift', { address: 'hanako@example.com', reason: 'お客様から依頼' }),
      );
      assert.equal(lift.failure(409).code, 'complaint_not_liftable');
      // Nor does the customer's own reservation mail them: only a hard bounce has that exception.
      const response = await app.request('/api/reservation', {
        method: 'POST',
        body: JSON.stringify({ name: '山田 花子', email: 'hanako@example.com', productSlug: 'kumo-vco-2' }),
      });
      const reservationId = (await app.read('/api/reservation', response)).success().reservationId;
      await waitUntil(async () => (await emailsAbout(reservationId))[0]?.last_error === 'suppressed');
    });

    test('soft bounces: two in seven days do not suppress, the third does', async () => {
      const { emailId } = await reserve('soft@example.com');
      const transient = () => resendEvent('email.bounced', emailId, { bounce: { type: 'Transient', subType: 'MailboxFull' } });
      (await send(transient())).success();
      (await send(transient())).success();
      assert.equal(await suppression('soft@example.com'), undefined);
      (await send(resendEvent('email.delivery_delayed', emailId))).success();
      assert.equal(await suppression('soft@example.com'), undefined, 'a delay is no bounce');
      (await send(transient())).success();
      assert.equal((await suppression('soft@example.com'))?.reason, 'soft_bounces');
      assert.deepEqual(
        (await events()).map((e) => e.kind),
        ['soft_bounce', 'soft_bounce', 'delayed', 'soft_bounce'],
      );
    });

    test('after a hard bounce older than 30 days, the confirmation of a reservation just made is tried once', async () => {
      const { emailId } = await reserve('back@example.com');
      (await send(resendEvent('email.bounced', emailId, { bounce: { type: 'Permanent' } }))).success();
      // Within 30 days: not even the customer's own confirmation goes.
      const recent = await app.request('/api/reservation', {
        method: 'POST',
        body: JSON.stringify({ name: '山田 太郎', email: 'back@example.com', productSlug: 'kumo-vco-2' }),
      });
      const recentId = (await app.read('/api/reservation', recent)).success().reservationId;
      await waitUntil(async () => (await emailsAbout(recentId))[0]?.status === 'skipped');

      const longAgo = new Date(Date.now() - 31 * 24 * 60 * 60_000).toISOString();
      await db().updateTable('email_suppressions').set({ since: longAgo }).where('address', '=', 'back@example.com').execute();
      const { reservationId } = await reserve('back@example.com');
      assert.equal((await emailsAbout(reservationId))[0]!.status, 'sent');
      assert.ok((await suppression('back@example.com'))?.retried_at, 'the one try is marked');
      // A status move is the shop's doing, not the customer's: still suppressed; and so is a second reservation.
      (await app.call('/api/admin-reservations-status', { id: reservationId, productSlug: 'kumo-vco-2', status: 'confirmed' })).success();
      const response = await app.request('/api/reservation', {
        method: 'POST',
        body: JSON.stringify({ name: '山田 太郎', email: 'back@example.com', productSlug: 'kumo-vco-2' }),
      });
      const secondId = (await app.read('/api/reservation', response)).success().reservationId;
      await waitUntil(async () => (await emailsAbout(secondId))[0]?.status === 'skipped');
      await waitUntil(async () => (await emailsAbout(reservationId)).at(-1)?.status === 'skipped');
    });

    test('staff list the suppressions and lift a hard bounce with a reason; a new bounce suppresses again', async () => {
      const { emailId } = await reserve('lift@example.com');
      (await send(resendEvent('email.bounced', emailId, { bounce: { type: 'Permanent' } }))).success();
      const list = (await app.call('/api/admin/email-suppressions/list', {})).success();
      assert.deepEqual(
        list.suppressions.map((s) => [s.address, s.reason, s.erased]),
        [['lift@example.com', 'hard_bounce', false]],
      );
      assert.equal((await app.call('/api/admin/email-suppressions/list', { reason: 'complaint' })).success().total, 0);
      const one = (address: string) => app.call('/api/admin/email-suppressions/list', { address });
      assert.deepEqual(
        (await one('Lift+tag@EXAMPLE.com')).success().suppressions.map((s) => s.address),
        ['lift@example.com'],
      );
      assert.equal((await one('other@example.com')).success().total, 0);
      assert.equal((await one('x'.repeat(321))).failure(400).code, 'invalid_parameters');
      const lifted = (
        await app.call('/api/admin/email-suppressions/lift', {
          address: 'Lift+x@Example.com',
          reason: '  お客様からメールボックスが直ったと連絡  ',
        })
      ).success();
      assert.equal(lifted.lifted.address, 'lift@example.com');
      const row = await suppression('lift@example.com');
      assert.equal(row?.lift_reason, 'お客様からメールボックスが直ったと連絡');
      assert.equal(row?.lifted_by, null, 'the bearer token is no one’s account');
      assert.equal((await app.call('/api/admin/email-suppressions/list', {})).success().total, 0);
      const again = await app.read(
        '/api/admin/email-suppressions/lift',
        await app.admin('/api/admin/email-suppressions/lift', { address: 'lift@example.com', reason: 'もう一度' }),
      );
      assert.equal(again.failure(404).code, 'suppression_not_found');
      // Mailed again: the next email goes, and a new bounce suppresses it again.
      const { emailId: next } = await reserve('lift@example.com');
      (await send(resendEvent('email.bounced', next, { bounce: { type: 'Permanent' } }))).success();
      assert.equal((await suppression('lift@example.com'))?.lifted_at, null);
    });

    test('a customer’s export shows their suppression; the erase keeps only a keyed hash, so they still get nothing', async () => {
      const { emailId } = await reserve('erase.me@gmail.com');
      (await send(resendEvent('email.complained', emailId))).success();
      const exported = (await app.call('/api/admin/personal-data/export', { email: 'EraseMe+x@gmail.com' })).success();
      assert.deepEqual(
        exported.suppressions.map((s) => [s.address, s.reason, s.liftedAt]),
        [['eraseme@gmail.com', 'complaint', null]],
      );
      const erased = (await app.call('/api/admin/personal-data/erase', { email: 'erase.me@gmail.com' })).success().erased;
      assert.equal(erased.suppressions, 1);
      const rows = await db().selectFrom('email_suppressions').selectAll().execute();
      assert.equal(rows.length, 1);
      assert.match(rows[0]!.address, /^erased:[0-9a-f]{32}$/);
      assert.deepEqual(await events(), [], 'what the provider said of the address goes with it');
      const again = (await app.call('/api/admin/personal-data/export', { email: 'erase.me@gmail.com' })).success();
      assert.deepEqual(
        again.suppressions.map((s) => [s.erased, s.reason]),
        [[true, 'complaint']],
      );

      const response = await app.request('/api/reservation', {
        method: 'POST',
        body: JSON.stringify({ name: '山田 太郎', email: 'Erase.Me@gmail.com', productSlug: 'kumo-vco-2' }),
      });
      const reservationId = (await app.read('/api/reservation', response)).success().reservationId;
      await waitUntil(async () => (await emailsAbout(reservationId))[0]?.last_error === 'suppressed');
      assert.equal((await app.call('/api/admin/email-suppressions/list', {})).success().suppressions[0]?.erased, true);
    });

    test('the dashboard shows bounces, complaints and the restock complaint rate against 0.3 %; /metrics counts events by kind', async () => {
      const metric = async (kind: string) => {
        const text = await (await app.request('/metrics', { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).text();
        return Number(new RegExp(`^tenpo_email_events_total\\{kind="${kind}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
      };
      const before = { complaint: await metric('complaint'), hard: await metric('hard_bounce'), soft: await metric('soft_bounce') };
      for (const email of ['a@example.com', 'b@example.com', 'c@example.com']) {
        const response = await app.request('/api/notify', { method: 'POST', body: JSON.stringify({ email, productSlug: 'kumo-vco-2' }) });
        (await app.read('/api/notify', response)).success();
      }
      (await app.call('/api/admin/notify/send', { productSlug: 'kumo-vco-2' })).success();
      await api.waitForAccepted(3, '/emails');
      const restock = await waitUntil(async () => {
        const rows = await db().selectFrom('outbox').select(['provider_message_id', 'destination']).where('status', '=', 'sent').execute();
        return rows.length === 3 ? rows : undefined;
      });
      (await send(resendEvent('email.complained', restock[0]!.provider_message_id!))).success();
      const { emailId } = await reserve('d@example.com');
      (await send(resendEvent('email.bounced', emailId, { bounce: { type: 'Permanent' } }))).success();
      (await send(resendEvent('email.bounced', restock[1]!.provider_message_id!, { bounce: { type: 'Transient' } }))).success();

      const { deliverability } = (await app.call('/api/admin-dashboard-stats', {})).success();
      assert.deepEqual(deliverability, {
        hardBounces: 1,
        softBounces: 1,
        complaints: 1,
        restockSent: 3,
        restockComplaints: 1,
        restockComplaintRate: 1 / 3,
        complaintRateLimit: 0.003,
      });
      assert.deepEqual(
        [await metric('complaint'), await metric('hard_bounce'), await metric('soft_bounce')],
        [before.complaint + 1, before.hard + 1, before.soft + 1],
      );
    });

    test('a staff account, not only an owner, sees the list and lifts a bounce, and is named as who lifted it', async () => {
      const { emailId } = await reserve('staff.lifts@example.com');
      (await send(resendEvent('email.bounced', emailId, { bounce: { type: 'Permanent' } }))).success();
      const account = { email: 'tanaka@example.jp', name: '田中', role: 'staff', password: 'tanaka password!' } as const;
      await db().deleteFrom('staff').where('email', '=', account.email).execute();
      const { staff } = (await app.call('/api/admin/staff/create', account)).success();
      const origin = 'https://shop.example.jp';
      const signIn = await app.request('/api/admin/session', {
        method: 'POST',
        headers: { origin },
        body: JSON.stringify({ email: account.email, password: account.password }),
      });
      assert.equal(signIn.status, 200);
      const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
      const asStaff = async <P extends '/api/admin/email-suppressions/list' | '/api/admin/email-suppressions/lift'>(
        path: P,
        body: unknown,
      ) => app.read(path, await app.request(path, { method: 'POST', headers: { cookie, origin }, body: JSON.stringify(body) }));
      const listed = (await asStaff('/api/admin/email-suppressions/list', {})).success();
      assert.deepEqual(
        listed.suppressions.map((s) => s.address),
        ['staff.lifts@example.com'],
      );
      (await asStaff('/api/admin/email-suppressions/lift', { address: 'staff.lifts@example.com', reason: '電話で確認' })).success();
      assert.equal((await suppression('staff.lifts@example.com'))?.lifted_by, staff.id);
    });

    test('the suppression routes: 401 before validation, bad inputs named, unknown 404', async () => {
      for (const path of ['/api/admin/email-suppressions/list', '/api/admin/email-suppressions/lift'] as const) {
        const unauthorized = await app.request(path, { method: 'POST', body: '{"reason": 7}' });
        assert.equal((await app.read(path, unauthorized)).failure(401).code, 'unauthorized');
      }
      const lift = (body: unknown) =>
        app.admin('/api/admin/email-suppressions/lift', body).then((r) => app.read('/api/admin/email-suppressions/lift', r));
      for (const body of [
        {},
        { address: 'nobody@example.com' },
        { address: 'nobody@example.com', reason: '   ' },
        { address: 'nobody@example.com', reason: 'x'.repeat(501) },
        { address: 'not an address', reason: '理由' },
        { address: 42, reason: '理由' },
        { address: 'a@example.com\u0000', reason: '理由' },
        { address: `${'a'.repeat(320)}@example.com`, reason: '理由' },
      ])
        assert.equal((await lift(body)).failure(400).code, 'invalid_parameters', JSON.stringify(body).slice(0, 80));
      const polluted = await app.request('/api/admin/email-suppressions/lift', {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        body: '{"__proto__": {"reason": "x"}, "address": "nobody@example.com", "reason": "理由"}',
      });
      assert.equal((await app.read('/api/admin/email-suppressions/lift', polluted)).failure(404).code, 'suppression_not_found');
      const list = (body: unknown) =>
        app.admin('/api/admin/email-suppressions/list', body).then((r) => app.read('/api/admin/email-suppressions/list', r));
      assert.equal((await list({ reason: 'bounced' })).failure(400).code, 'invalid_parameters');
      assert.equal((await list({ pageSize: 101 })).failure(400).code, 'invalid_parameters');
      assert.equal((await list({ page: 999_999_999 })).success().suppressions.length, 0);
    });
  });

  test(`without EMAIL_WEBHOOK_SECRET the route answers 404 and stores nothing (${dialect})`, async () => {
    const app = await startTestApp({ dialect });
    try {
      const delivery = signAsSvix(webhookSecret(), resendEvent('email.complained', 'msg-1'));
      const answer = await app.read(PATH, await app.request(PATH, { method: 'POST', headers: delivery.headers, body: delivery.body }));
      assert.equal(answer.failure(404).code, 'webhook_not_configured');
      assert.equal((await app.services.database.db.selectFrom('email_events').selectAll().execute()).length, 0);
    } finally {
      await app.close();
    }
  });

  test(`an SMTP server refusing one recipient with 550 is a hard bounce of that address only (${dialect})`, async () => {
    const smtp = await startSmtpReceiver();
    const app = await startTestApp({
      dialect,
      env: { SMTP_URL: smtp.url, EMAIL_FROM: 'tenpo <shop@tenpo.example>', RATE_LIMIT_PER_MINUTE: '0' },
      dispatcher: FAST_DISPATCH,
    });
    try {
      smtp.refuseRecipient('gone@example.com', {
        code: 550,
        message: '5.1.1 <gone@example.com>: Recipient address rejected: User unknown',
      });
      const reserve = async (email: string) => {
        const response = await app.request('/api/reservation', {
          method: 'POST',
          body: JSON.stringify({ name: '山田 太郎', email, productSlug: 'kumo-vco-2' }),
        });
        return (await app.read('/api/reservation', response)).success().reservationId;
      };
      const gone = await reserve('Gone@example.com');
      await reserve('here@example.com');
      await smtp.waitForMails(1);
      const { db } = app.services.database;
      const refused = await waitUntil(() =>
        db.selectFrom('outbox').selectAll().where('record_id', '=', gone).where('status', '=', 'dead').executeTakeFirst(),
      );
      assert.equal(refused.attempts, 1, 'given up at once');
      assert.match(refused.last_error ?? '', /550/);
      const suppressed = await db.selectFrom('email_suppressions').selectAll().execute();
      assert.deepEqual(
        suppressed.map((s) => [s.address, s.reason]),
        [['gone@example.com', 'hard_bounce']],
      );
      const [event] = await db.selectFrom('email_events').selectAll().execute();
      assert.deepEqual([event?.kind, event?.outbox_id, event?.webhook_id], ['hard_bounce', refused.id, null]);
      assert.deepEqual(
        smtp.mails.map((m) => m.envelopeTo),
        [['here@example.com']],
      );
      const sent = await waitUntil(async () => {
        const rows = await db
          .selectFrom('outbox')
          .select('provider_message_id')
          .where('status', '=', 'sent')
          .where('channel', '=', 'email')
          .execute();
        return rows.length > 0 ? rows : undefined;
      });
      assert.deepEqual(
        sent.map((s) => s.provider_message_id),
        [smtp.mails[0]!.parsed.messageId],
        'an SMTP email is known by its Message-ID',
      );
    } finally {
      await app.close();
      await smtp.close();
    }
  });
}
