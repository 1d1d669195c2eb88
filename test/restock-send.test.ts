import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { sql } from 'kysely';
import { z } from 'zod';
import type { DispatcherTimings } from '../src/messaging/delivery/dispatcher.ts';
import { SEND_BATCH_SIZE, sendRestockNotices } from '../src/subscriptions/restock-send.ts';
import { unsubscribeToken } from '../src/messaging/links.ts';
import { DIALECTS, startTestApp, type Dialect, type TestApp } from './helpers/app.ts';
import { startHttpReceiver, type HttpReceiver } from './helpers/http-receiver.ts';
import { EmailApiBody } from './helpers/sent-bodies.ts';
import { startSmtpReceiver, type ReceivedMail, type SmtpReceiver } from './helpers/smtp-receiver.ts';
import { settle } from './helpers/wait.ts';

// The restock send and the unsubscribe links, end to end on both dialects: the emails arrive at a
// real SMTP server, the chat messages at a local HTTP server, and the links in the emails are
// followed back to the service (unsubscribe, the admin's notify send).

const FAST: Partial<DispatcherTimings> = { pollIntervalMs: 25, retryBaseMs: 40, retryCapMs: 150, leaseMs: 5_000, maxAttempts: 5 };
const BASE = 'https://tenpo.shop.example.jp';
/** The storefront, where the product pages are: a host of its own, as a shop's usually is. */
const STOREFRONT = 'https://www.shop.example.jp';
const PUBLIC_PATH = '/public/webhook-secret';
const RESTOCK_PATH = '/restock/webhook-secret';
const PAGE_TYPE = 'text/html; charset=utf-8';

/** The link as the email gives it, pointed at the app under test instead of the public host. */
const local = (app: TestApp, link: string) => link.replace(BASE, app.url);

/** A header of the message as sent, unfolded (mailparser files List-* headers under one key). */
function rawHeader(mail: ReceivedMail, name: string): string | undefined {
  const head = mail.raw.slice(0, mail.raw.search(/\r?\n\r?\n/)).replace(/\r?\n[ \t]+/g, ' ');
  return head
    .split(/\r?\n/)
    .find((line) => line.toLowerCase().startsWith(`${name.toLowerCase()}:`))
    ?.slice(name.length + 1)
    .trim();
}

function unsubscribeLink(mail: ReceivedMail): string {
  const header = /^<([^>]+)>$/.exec(rawHeader(mail, 'List-Unsubscribe') ?? '');
  assert.ok(header, 'a List-Unsubscribe header with one URL in angle brackets');
  return header[1]!;
}

for (const dialect of DIALECTS) {
  describe(`POST /api/admin/notify/send and the unsubscribe link (${dialect})`, () => {
    let app: TestApp;
    let smtp: SmtpReceiver;
    let chat: HttpReceiver;
    before(async () => {
      smtp = await startSmtpReceiver();
      chat = await startHttpReceiver();
      app = await startTestApp({
        dialect,
        env: {
          RATE_LIMIT_PER_MINUTE: '0',
          SMTP_URL: smtp.url,
          EMAIL_FROM: 'tenpo <shop@tenpo.example>',
          PUBLIC_BASE_URL: BASE,
          STOREFRONT_URL: STOREFRONT,
          PUBLIC_WEBHOOK_URL: `${chat.url}${PUBLIC_PATH}`,
          RESTOCK_WEBHOOK_URL: `${chat.url}${RESTOCK_PATH}`,
        },
        dispatcher: FAST,
      });
    });
    after(async () => {
      await app.close();
      await smtp.close();
      await chat.close();
    });
    beforeEach(async () => {
      await app.services.database.db.deleteFrom('subscriptions').execute();
      await app.services.database.db.deleteFrom('outbox').execute();
    });
    afterEach(async () => {
      // Let deliveries of this test finish before the next one counts.
      await settle(150);
      smtp.mails.length = 0;
      chat.requests.length = 0;
    });

    const signUp = async (email: string, productSlug = 'kumo-vco-2') => {
      const response = await app.request('/api/notify', { method: 'POST', body: JSON.stringify({ email, productSlug }) });
      return (await app.read('/api/notify', response)).success().subscriptionId;
    };
    const send = (productSlug: unknown) => app.call('/api/admin/notify/send', { productSlug });
    const row = (id: string) =>
      app.services.database.db.selectFrom('subscriptions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

    test('every active pending subscriber gets one Japanese email with the product link, the unsubscribe link and both headers', async () => {
      const waiting = [await signUp('Taro@Example.com'), await signUp('hanako@example.com'), await signUp('jiro@example.com')];
      const otherProduct = await signUp('taro@example.com', 'tsuki-dual-lfo');
      const archived = await signUp('archived@example.com');
      await app.admin('/api/admin/notify/archive', { ids: [{ id: archived, productSlug: 'kumo-vco-2' }] });
      const unsubscribed = await signUp('gone@example.com');
      await app.admin('/api/admin-notify-status', { id: unsubscribed, productSlug: 'kumo-vco-2', status: 'unsubscribed' });
      const notifiedBefore = await signUp('told@example.com');
      await app.admin('/api/admin-notify-status', { id: notifiedBefore, productSlug: 'kumo-vco-2', status: 'notified' });
      const toldAt = (await row(notifiedBefore)).notified_at;

      const before = new Date().toISOString();
      const { status, body } = await send('kumo-vco-2');
      assert.equal(status, 200);
      assert.deepEqual(body, { success: true, notifiedCount: 3, remaining: 0 });

      for (const id of waiting) {
        const r = await row(id);
        assert.equal(r.status, 'notified');
        assert.ok(r.notified_at! >= before && r.notified_at! <= new Date().toISOString());
      }
      assert.equal((await row(otherProduct)).status, 'pending');
      assert.deepEqual([(await row(archived)).status, (await row(archived)).notified_at], ['pending', null]);
      assert.equal((await row(unsubscribed)).status, 'unsubscribed');
      assert.equal((await row(notifiedBefore)).notified_at, toldAt, 'an earlier notification is left alone');

      const mails = await smtp.waitForMails(3);
      await settle(200);
      assert.equal(smtp.mails.length, 3, 'one email each, no more');
      assert.deepEqual(mails.map((m) => m.envelopeTo[0]).sort(), ['hanako@example.com', 'jiro@example.com', 'taro@example.com']);
      const links = new Set<string>();
      for (const mail of mails) {
        const { parsed } = mail;
        assert.equal(parsed.subject, '【入荷のお知らせ】Kumo VCO II');
        assert.equal(rawHeader(mail, 'List-Unsubscribe-Post'), 'List-Unsubscribe=One-Click');
        const link = unsubscribeLink(mail);
        links.add(link);
        assert.match(link, /^https:\/\/tenpo\.shop\.example\.jp\/api\/notify\/unsubscribe\?token=ntf_\d+-[a-z0-9]{10}\.[\w-]{43}$/);
        assert.ok(!link.includes('@') && !link.includes(mail.envelopeTo[0]!.split('@')[0]!), 'no personal data in the link');
        for (const part of [parsed.text ?? '', String(parsed.html)]) {
          for (const expected of ['入荷しました', 'Kumo VCO II', `${STOREFRONT}/products/kumo-vco-2`, link, '配信停止'])
            assert.ok(part.includes(expected), `${expected} in ${part.slice(0, 30)}`);
        }
      }
      assert.equal(links.size, 3, 'each subscriber has a link of their own');

      const announcements = await chat.waitForAccepted(1, PUBLIC_PATH);
      assert.equal(announcements.length, 1);
      const announcement = JSON.stringify(announcements[0]!.body);
      assert.ok(announcement.includes('Kumo VCO II') && announcement.includes(`${STOREFRONT}/products/kumo-vco-2`));
      assert.ok(!announcement.includes(BASE), "the product page is the storefront's, not tenpo's");
      assert.ok(!announcement.includes('@'), 'no address');
      for (const id of waiting) assert.ok(!announcement.includes(id), 'no subscription id');
    });

    test('a second send notifies nobody: no email, no announcement', async () => {
      await signUp('taro@example.com');
      assert.deepEqual((await send('kumo-vco-2')).body, { success: true, notifiedCount: 1, remaining: 0 });
      await smtp.waitForMails(1);
      await chat.waitForAccepted(1, PUBLIC_PATH);
      assert.deepEqual((await send('kumo-vco-2')).body, { success: true, notifiedCount: 0, remaining: 0 });
      await settle(300);
      assert.equal(smtp.mails.length, 1);
      assert.equal(chat.accepted(PUBLIC_PATH).length, 1);
      const emails = await app.services.database.db
        .selectFrom('outbox')
        .select('id')
        .where('channel', '=', 'email')
        .where('destination', '=', 'taro@example.com')
        .execute();
      assert.equal(emails.length, 1);
    });

    test('waves: `limit` notifies the oldest first and says how many still wait; the public hears of it with the last wave', async () => {
      const ids: string[] = [];
      for (const n of [1, 2, 3, 4, 5]) ids.push(await signUp(`wave${n}@example.com`));
      const sendSome = (limit: number) => app.call('/api/admin/notify/send', { productSlug: 'kumo-vco-2', limit });
      const notified = async () =>
        (await app.services.database.db.selectFrom('subscriptions').select('id').where('status', '=', 'notified').execute()).map(
          (r) => r.id,
        );

      assert.deepEqual((await sendSome(2)).success(), { success: true, notifiedCount: 2, remaining: 3 });
      assert.deepEqual((await notified()).sort(), ids.slice(0, 2).sort(), 'the two oldest');
      await smtp.waitForMails(2);
      assert.deepEqual((await sendSome(2)).success(), { success: true, notifiedCount: 2, remaining: 1 });
      assert.deepEqual((await notified()).sort(), ids.slice(0, 4).sort(), 'then the next two');
      await smtp.waitForMails(4);
      await settle(200);
      assert.equal(chat.accepted(PUBLIC_PATH).length, 0, 'subscribers are still waiting: nothing public yet');
      assert.deepEqual((await sendSome(5)).success(), { success: true, notifiedCount: 1, remaining: 0 });
      await chat.waitForAccepted(1, PUBLIC_PATH);
      await smtp.waitForMails(5);
      assert.deepEqual(
        smtp.mails.map((mail) => mail.envelopeTo[0]).sort(),
        [1, 2, 3, 4, 5].map((n) => `wave${n}@example.com`),
        'each once',
      );
      assert.deepEqual((await sendSome(5)).success(), { success: true, notifiedCount: 0, remaining: 0 });
      await settle(200);
      assert.equal(chat.accepted(PUBLIC_PATH).length, 1, 'one announcement');
    });

    test('limit: an integer from 1 to 100,000, else 400 Invalid parameters naming it; a missing product is said first', async () => {
      await signUp('limit@example.com');
      for (const limit of [0, -1, 1.5, 100_001, '5', null, true]) {
        const failure = (await app.call('/api/admin/notify/send', { productSlug: 'kumo-vco-2', limit })).failure(400);
        assert.deepEqual(
          [failure.error, failure.code, failure.details?.map((d) => d.field)],
          ['Invalid parameters', 'invalid_parameters', ['limit']],
          String(limit),
        );
      }
      assert.equal((await app.call('/api/admin/notify/send', { limit: 0 })).failure(400).error, 'Missing required fields: productSlug');
      assert.equal((await row(await signUp('still@example.com'))).status, 'pending', 'nothing sent by a refused request');
      assert.deepEqual((await app.call('/api/admin/notify/send', { productSlug: 'kumo-vco-2', limit: 100_000 })).success(), {
        success: true,
        notifiedCount: 2,
        remaining: 0,
      });
    });

    test('two waves at once notify each subscriber once, never more than the two limits', async () => {
      for (const n of [1, 2, 3, 4, 5]) await signUp(`both${n}@example.com`);
      const answers = await Promise.all([2, 2].map((limit) => app.call('/api/admin/notify/send', { productSlug: 'kumo-vco-2', limit })));
      const counts = answers.map((answer) => answer.success().notifiedCount);
      assert.equal(counts[0]! + counts[1]!, 4, counts.join());
      const pending = await app.services.database.db.selectFrom('subscriptions').select('id').where('status', '=', 'pending').execute();
      assert.equal(pending.length, 1);
    });

    test('moved back to pending by an administrator, a subscriber is told again at the next send', async () => {
      const id = await signUp('taro@example.com');
      await send('kumo-vco-2');
      await smtp.waitForMails(1);
      assert.equal((await app.admin('/api/admin-notify-status', { id, productSlug: 'kumo-vco-2', status: 'pending' })).status, 200);
      assert.deepEqual((await send('kumo-vco-2')).body, { success: true, notifiedCount: 1, remaining: 0 });
      await smtp.waitForMails(2);
    });

    test('the link unsubscribes: GET shows a short Japanese page, repeating it is harmless; the one-click POST answers 200', async () => {
      const [taro, hanako] = [await signUp('taro@example.com'), await signUp('hanako@example.com')];
      await send('kumo-vco-2');
      const mails = await smtp.waitForMails(2);
      const linkOf = (email: string) => local(app, unsubscribeLink(mails.find((m) => m.envelopeTo[0] === email)!));

      for (let i = 0; i < 2; i++) {
        const page = await fetch(linkOf('taro@example.com'));
        assert.equal(page.status, 200);
        assert.equal(page.headers.get('content-type'), PAGE_TYPE);
        assert.equal(page.headers.get('cache-control'), 'no-store');
        assert.equal(page.headers.get('referrer-policy'), 'no-referrer');
        const html = await page.text();
        assert.ok(html.includes('<html lang="ja">') && html.includes('配信を停止しました') && html.includes('「Kumo VCO II」'));
        assert.equal((await row(taro)).status, 'unsubscribed');
      }
      assert.equal((await row(hanako)).status, 'notified', 'one link, one subscription');

      // RFC 8058: the mail client POSTs `List-Unsubscribe=One-Click` to the List-Unsubscribe URL.
      for (let i = 0; i < 2; i++) {
        const oneClick = await fetch(linkOf('hanako@example.com'), {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'List-Unsubscribe=One-Click',
        });
        assert.equal(oneClick.status, 200);
        assert.equal((await row(hanako)).status, 'unsubscribed');
      }
      assert.equal((await send('kumo-vco-2')).success().notifiedCount, 0);
    });

    test('a pending subscriber can unsubscribe too, and HEAD (a link checker) changes nothing', async () => {
      const id = await signUp('taro@example.com');
      const link = `${app.url}/api/notify/unsubscribe?token=${unsubscribeToken(app.services.config.unsubscribeSecret, id)}`;
      const head = await fetch(link, { method: 'HEAD' });
      assert.equal(head.status, 200);
      assert.equal((await row(id)).status, 'pending');
      assert.equal((await fetch(link)).status, 200);
      assert.equal((await row(id)).status, 'unsubscribed');
      assert.equal((await send('kumo-vco-2')).success().notifiedCount, 0);
    });

    test('a tampered, foreign, unknown or missing token → the 400 page, and nothing changes', async () => {
      const id = await signUp('taro@example.com');
      const secret = app.services.config.unsubscribeSecret;
      const good = unsubscribeToken(secret, id);
      const tokens = [
        good.slice(0, -2) + (good.endsWith('AA') ? 'BB' : 'AA'),
        unsubscribeToken('another-secret', id),
        unsubscribeToken(secret, 'ntf_1000000000000-aaaaaaaaaa'),
        `${good}x`,
        id,
        '',
        '<script>alert(1)</script>',
      ];
      const queries = [...tokens.map((t) => `?token=${encodeURIComponent(t)}`), '', `?token=${good}&token=${good}`, '?tok=1'];
      for (const query of queries) {
        for (const method of ['GET', 'POST']) {
          const response = await app.request(`/api/notify/unsubscribe${query}`, { method });
          assert.equal(response.status, 400, `${method} ${query}`);
          assert.equal(response.headers.get('content-type'), PAGE_TYPE);
          const html = await response.text();
          assert.ok(html.includes('リンクが無効です'));
          assert.ok(!html.includes('<script>'), 'nothing of the request is shown');
        }
      }
      assert.equal((await app.request('/api/notify/unsubscribe', { method: 'HEAD' })).status, 400);
      assert.equal((await row(id)).status, 'pending');
    });

    test('the unsubscribe path serves GET, HEAD and POST; others → 405', async () => {
      const response = await app.request('/api/notify/unsubscribe', { method: 'DELETE' });
      assert.equal(response.status, 405);
      assert.equal(response.headers.get('allow'), 'GET, POST, HEAD, OPTIONS');
    });

    test('the product must exist; a missing or empty productSlug → 400', async () => {
      assert.deepEqual((await send('no-such-module')).failure(404), {
        success: false,
        error: 'Product not found',
        code: 'unknown_product',
      });
      for (const productSlug of [undefined, '', 42, null, ['kumo-vco-2'], 'kumo\u0000']) {
        assert.equal((await send(productSlug)).failure(400).error, 'Missing required fields: productSlug');
      }
    });

    test('each subscription is notified in the transaction that queues its email: a batch that fails leaves its subscribers pending', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 12; i++) ids.push(await signUp(`buyer${String(i).padStart(2, '0')}@example.com`));
      const db = app.services.database.db;
      // Refuses to queue the email of the 9th subscriber, who is in the third batch of four.
      if (dialect === 'sqlite') {
        await sql`create trigger refuse_email before insert on outbox when new.destination = 'buyer08@example.com' begin select raise(abort, 'refused'); end`.execute(
          db,
        );
      } else {
        await sql
          .raw(
            `create function refuse_email() returns trigger as $$ begin if new.destination = 'buyer08@example.com' then raise exception 'refused'; end if; return new; end $$ language plpgsql`,
          )
          .execute(db);
        await sql.raw('create trigger refuse_email before insert on outbox for each row execute function refuse_email()').execute(db);
      }
      const deps = {
        database: app.services.database,
        catalog: app.services.catalog,
        messaging: app.services.messaging,
        wakeDispatcher: () => app.services.dispatcher.wake(),
      };
      try {
        await assert.rejects(sendRestockNotices(deps, { productSlug: 'kumo-vco-2' }, { batchSize: 4 }));
      } finally {
        await sql
          .raw(dialect === 'sqlite' ? 'drop trigger refuse_email' : 'drop trigger refuse_email on outbox; drop function refuse_email')
          .execute(db);
      }
      const statuses = await Promise.all(ids.map(async (id) => (await row(id)).status));
      assert.deepEqual(statuses, [...Array(8).fill('notified'), ...Array(4).fill('pending')]);
      const queued = async () =>
        (await db.selectFrom('outbox').select('record_id').where('channel', '=', 'email').execute()).map((m) => m.record_id).sort();
      assert.deepEqual(await queued(), ids.slice(0, 8).sort());
      assert.equal(
        chat.accepted(PUBLIC_PATH).length +
          (await db.selectFrom('outbox').select('id').where('destination', '=', 'public').execute()).length,
        0,
        'no announcement yet',
      );

      // Sending again finishes the job: the rest, and the one announcement.
      assert.deepEqual(await sendRestockNotices(deps, { productSlug: 'kumo-vco-2' }, { batchSize: 4 }), {
        ok: true,
        notifiedCount: 4,
        remaining: 0,
      });
      assert.deepEqual(await queued(), [...ids].sort());
      await smtp.waitForMails(12);
      await chat.waitForAccepted(1, PUBLIC_PATH);
    });

    test('two sends at once notify each subscriber once between them', async () => {
      const now = Date.now();
      await app.services.database.db
        .insertInto('subscriptions')
        .values(
          Array.from({ length: 300 }, (_, i) => ({
            id: `ntf_${now}-${String(i).padStart(10, '0')}`,
            email: `s${i}@example.com`,
            product_slug: 'kumo-vco-2',
            status: 'pending',
            created_at: new Date(now + i).toISOString(),
            updated_at: new Date(now + i).toISOString(),
          })),
        )
        .execute();
      const deps = {
        database: app.services.database,
        catalog: app.services.catalog,
        messaging: app.services.messaging,
        wakeDispatcher: () => {},
      };
      const results = await Promise.all([1, 2, 3].map(() => sendRestockNotices(deps, { productSlug: 'kumo-vco-2' }, { batchSize: 20 })));
      assert.equal(
        results.reduce((sum, r) => sum + (r.ok ? r.notifiedCount : 0), 0),
        300,
      );
      const emails = await app.services.database.db.selectFrom('outbox').select('record_id').where('channel', '=', 'email').execute();
      assert.equal(emails.length, 300);
      assert.equal(new Set(emails.map((e) => e.record_id)).size, 300);
      app.services.dispatcher.wake();
      // 300 deliveries over SMTP: on a loaded machine that takes longer than a single email's wait.
      const mails = await smtp.waitForMails(300, 60_000);
      await settle(300);
      assert.equal(mails.length, 300, 'no second email to anyone');
    });

    test('batches cover everyone once, whatever the batch size; the last batch queues the one announcement', async () => {
      for (let i = 0; i < 10; i++) await signUp(`buyer${i}@example.com`);
      const deps = {
        database: app.services.database,
        catalog: app.services.catalog,
        messaging: app.services.messaging,
        wakeDispatcher: () => {},
      };
      assert.deepEqual(await sendRestockNotices(deps, { productSlug: 'kumo-vco-2' }, { batchSize: 5 }), {
        ok: true,
        notifiedCount: 10,
        remaining: 0,
      });
      const outbox = await app.services.database.db
        .selectFrom('outbox')
        .select(['channel', 'destination'])
        .where('destination', '<>', 'restock')
        .execute();
      assert.equal(outbox.filter((m) => m.channel === 'email').length, 10);
      assert.equal(new Set(outbox.map((m) => m.destination)).size, 11);
      assert.equal(outbox.filter((m) => m.destination === 'public').length, 1);
      app.services.dispatcher.wake();
      await smtp.waitForMails(10);
    });
  });
}

for (const dialect of DIALECTS) {
  describe(`the send does not wait for delivery (${dialect})`, () => {
    test('answers with the count while the email provider is still holding its answers; the emails arrive afterwards', async () => {
      const api = await startHttpReceiver();
      const app = await startTestApp({
        dialect,
        env: { RATE_LIMIT_PER_MINUTE: '0', EMAIL_PROVIDER_API_KEY: 'key', EMAIL_API_URL: `${api.url}/emails`, PUBLIC_BASE_URL: BASE },
        dispatcher: FAST,
      });
      try {
        for (const email of ['taro@example.com', 'hanako@example.com']) {
          await app.request('/api/notify', { method: 'POST', body: JSON.stringify({ email, productSlug: 'kumo-vco-2' }) });
        }
        api.delayAnswers(1_000);
        const started = performance.now();
        const response = await app.admin('/api/admin/notify/send', { productSlug: 'kumo-vco-2' });
        assert.deepEqual(await response.json(), { success: true, notifiedCount: 2, remaining: 0 });
        assert.ok(performance.now() - started < 1_000, 'answered before any delivery could finish');
        assert.equal(api.requests.length, 0);
        const delivered = await api.waitForAccepted(2, '/emails');
        assert.ok(
          delivered.every((r) => EmailApiBody.parse(r.body).headers?.['List-Unsubscribe-Post'] === 'List-Unsubscribe=One-Click'),
          'the headers reach the email API too',
        );
      } finally {
        await app.close();
        await api.close();
      }
    });
  });
}

describe('what the restock email and the unsubscribe page show is escaped', () => {
  let dir: string;
  let app: TestApp;
  let smtp: SmtpReceiver;
  const NAME = '<script>alert(1)</script> & "VCO"';
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tenpo-catalog-'));
    const products = z.array(z.looseObject({})).parse(JSON.parse(readFileSync('data/products.json', 'utf8')));
    writeFileSync(join(dir, 'products.json'), JSON.stringify([{ ...products[0], slug: 'evil-vco', name: NAME, detailHref: null }]));
    smtp = await startSmtpReceiver();
    app = await startTestApp({
      env: { RATE_LIMIT_PER_MINUTE: '0', CATALOG_PATH: join(dir, 'products.json'), SMTP_URL: smtp.url, PUBLIC_BASE_URL: BASE },
      dispatcher: FAST,
    });
  });
  after(async () => {
    await app.close();
    await smtp.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a product name with markup, and a product without a page (the link is the front page)', async () => {
    await app.request('/api/notify', { method: 'POST', body: JSON.stringify({ email: 'taro@example.com', productSlug: 'evil-vco' }) });
    assert.equal((await app.call('/api/admin/notify/send', { productSlug: 'evil-vco' })).success().notifiedCount, 1);
    const [mail] = await smtp.waitForMails(1);
    const html = String(mail!.parsed.html);
    assert.ok(!html.includes('<script>'));
    assert.ok(html.includes('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;VCO&quot;'));
    assert.ok(mail!.parsed.text?.includes(`商品ページを見る:\n${BASE}/\n`));
    const page = await (await fetch(local(app, unsubscribeLink(mail!)))).text();
    assert.ok(!page.includes('<script>'));
    assert.ok(page.includes('「&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;VCO&quot;」'));
  });
});

describe('UNSUBSCRIBE_SECRET', () => {
  test('signs the links when set; a link signed with the secret derived from the admin token is then refused', async () => {
    const app = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '0', UNSUBSCRIBE_SECRET: 'a-secret-of-its-own' } });
    const derived = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '0' } });
    try {
      const response = await app.request('/api/notify', {
        method: 'POST',
        body: JSON.stringify({ email: 'taro@example.com', productSlug: 'kumo-vco-2' }),
      });
      const id = (await app.read('/api/notify', response)).success().subscriptionId;
      const link = (secret: string) => `/api/notify/unsubscribe?token=${unsubscribeToken(secret, id)}`;
      assert.notEqual(derived.services.config.unsubscribeSecret, 'a-secret-of-its-own');
      assert.equal((await app.request(link(derived.services.config.unsubscribeSecret))).status, 400);
      assert.equal((await app.request(link('a-secret-of-its-own'))).status, 200);
    } finally {
      await app.close();
      await derived.close();
    }
  });
});

/** Subscriptions written straight to the store, 500 a statement. */
async function seedSubscriptions(app: TestApp, count: number): Promise<void> {
  const now = Date.now();
  for (let start = 0; start < count; start += 500) {
    const rows = Array.from({ length: Math.min(500, count - start) }, (_, j) => {
      const i = start + j;
      return {
        id: `ntf_${now}-${String(i).padStart(10, '0')}`,
        email: `subscriber${i}@example.com`,
        product_slug: 'kumo-vco-2',
        status: 'pending',
        created_at: new Date(now + i).toISOString(),
        updated_at: new Date(now + i).toISOString(),
      };
    });
    await app.services.database.db.insertInto('subscriptions').values(rows).execute();
  }
}

/** A full garbage collection on demand, to measure what is still held rather than what awaits collection. */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

const MB = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

for (const dialect of DIALECTS) {
  describe(`a send to 10,000 subscribers (${dialect})`, () => {
    test('notifies all of them, batch by batch in bounded memory, and answers with the count', async (t) => {
      // No email provider, and logs at warn: the dispatcher settles the emails as skipped in the
      // background, and the test's memory holds neither the emails nor log lines about them.
      const app = await startTestApp({
        dialect: dialect as Dialect,
        env: { RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'warn', PUBLIC_BASE_URL: BASE },
      });
      const COUNT = 10_000;
      const db = app.services.database.db;
      const count = async (query: Promise<{ n: number | string }>) => Number((await query).n);
      const send = async () => {
        return (await app.call('/api/admin/notify/send', { productSlug: 'kumo-vco-2' })).success().notifiedCount;
      };
      try {
        await seedSubscriptions(app, COUNT);

        // 1. As in production: timed, with the peak of the heap as sampled along the way.
        const baseline = process.memoryUsage();
        let peakHeap = baseline.heapUsed;
        let peakRss = baseline.rss;
        const sampler = setInterval(() => {
          const { heapUsed, rss } = process.memoryUsage();
          peakHeap = Math.max(peakHeap, heapUsed);
          peakRss = Math.max(peakRss, rss);
        }, 2);
        const started = performance.now();
        assert.equal(await send(), COUNT);
        const ms = performance.now() - started;
        clearInterval(sampler);
        const timed = `${dialect}: ${COUNT} subscribers notified in ${Math.round(ms)} ms; peak heap +${MB(peakHeap - baseline.heapUsed)} MB (of ${MB(peakHeap)} MB), peak RSS +${MB(peakRss - baseline.rss)} MB`;
        t.diagnostic(timed);
        console.log(timed);

        assert.equal(
          await count(
            db
              .selectFrom('subscriptions')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .where('status', '=', 'notified')
              .where('notified_at', 'is not', null)
              .executeTakeFirstOrThrow(),
          ),
          COUNT,
        );
        assert.equal(
          await count(
            db
              .selectFrom('outbox')
              .select((eb) => eb.fn.count<number>('record_id').distinct().as('n'))
              .where('channel', '=', 'email')
              .executeTakeFirstOrThrow(),
          ),
          COUNT,
        );
        assert.equal(
          await count(
            db
              .selectFrom('outbox')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .where('destination', '=', 'public')
              .executeTakeFirstOrThrow(),
          ),
          1,
        );
        assert.equal(await send(), 0, 'sending again notifies nobody');

        // 2. What each batch leaves behind. The send wakes the dispatcher once after each batch has
        // committed; there, after a full collection, the heap holds no more than a few MB beyond
        // where it started. Kept for the whole send, ten thousand rendered emails would hold more
        // than 30 MB by the last batch.
        await db.updateTable('subscriptions').set({ status: 'pending', notified_at: null }).execute();
        const gc = collector();
        gc();
        const start = process.memoryUsage().heapUsed;
        let held = 0;
        let batches = 0;
        const deps = {
          database: app.services.database,
          catalog: app.services.catalog,
          messaging: app.services.messaging,
          wakeDispatcher: () => {
            batches += 1;
            gc();
            held = Math.max(held, process.memoryUsage().heapUsed - start);
            app.services.dispatcher.wake();
          },
        };
        assert.deepEqual(await sendRestockNotices(deps, { productSlug: 'kumo-vco-2' }), { ok: true, notifiedCount: COUNT, remaining: 0 });
        // The batch that finds fewer than a full batch is the last; here it finds none.
        assert.equal(batches, COUNT / SEND_BATCH_SIZE + 1);
        const retained = `${dialect}: at most ${MB(held)} MB more held at the end of any of the ${batches} batches than before the send`;
        t.diagnostic(retained);
        console.log(retained);
        assert.ok(held < 16 * 1024 * 1024, retained);
      } finally {
        await app.close();
      }
    });
  });
}
