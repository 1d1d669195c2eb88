import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import type { DispatcherTimings } from '../src/messaging/delivery/dispatcher.ts';
import { DIALECTS, startTestApp, type TestApp } from './helpers/app.ts';
import { launchBrowser, recordPage, screenshot } from './helpers/browser.ts';
import { startHttpReceiver, type HttpReceiver } from './helpers/http-receiver.ts';
import { freePort } from './helpers/ports.ts';
import { EmailApiBody, SlackBody } from './helpers/sent-bodies.ts';
import { waitUntil } from './helpers/wait.ts';

// The signed link in every reservation email opens the customer's page; while pending it
// cancels, queuing the cancellation email and a chat notice. Through HTTP on both dialects, and in
// Chromium at laptop and phone sizes without JavaScript.

const FAST: Partial<DispatcherTimings> = { pollIntervalMs: 25, retryBaseMs: 40, retryCapMs: 100, leaseMs: 5_000 };
const WEBHOOK = '/services/T000/B000/reservation-hook';

for (const dialect of DIALECTS) {
  describe(`the customer's reservation page (${dialect})`, () => {
    let app: TestApp;
    let api: HttpReceiver;
    before(async () => {
      api = await startHttpReceiver();
      app = await startTestApp({
        dialect,
        env: {
          RATE_LIMIT_PER_MINUTE: '0',
          EMAIL_PROVIDER_API_KEY: 're_test',
          EMAIL_API_URL: `${api.url}/emails`,
          RESERVATION_WEBHOOK_URL: `${api.url}${WEBHOOK}`,
          PUBLIC_BASE_URL: 'https://shop.example.jp',
        },
        dispatcher: FAST,
      });
    });
    after(async () => {
      await app.close();
      await api.close();
    });
    beforeEach(() => (api.requests.length = 0));

    /** A reservation and the page path its confirmation email links to. */
    async function reserve(): Promise<{ id: string; path: string }> {
      const response = await app.request('/api/reservation', {
        method: 'POST',
        body: JSON.stringify({ name: '山田 <太郎>', email: 'secret-address@example.com', productSlug: 'kumo-vco-2' }),
      });
      const { reservationId } = (await app.read('/api/reservation', response)).success();
      const sent = await waitUntil(() =>
        api
          .accepted('/emails')
          .map((r) => EmailApiBody.parse(r.body))
          .find((b) => b.text.includes(reservationId)),
      );
      const url = /https:\/\/shop\.example\.jp(\/reservations\/manage\?token=\S+)/.exec(sent.text)?.[1];
      assert.ok(url, sent.text);
      assert.ok(sent.html.includes(`href="https://shop.example.jp${url.replaceAll('&', '&amp;')}"`));
      api.requests.length = 0;
      return { id: reservationId, path: url };
    }
    const form = (token: string) =>
      app.request('/reservations/manage', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `token=${encodeURIComponent(token)}`,
      });
    const tokenOf = (path: string) => decodeURIComponent(path.split('token=')[1]!);

    test('the page shows number, product, status and time, never the address; pending → a cancel form', async () => {
      const { id, path } = await reserve();
      const response = await app.request(path);
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
      assert.match(response.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
      const html = await response.text();
      for (const shown of [id, 'Kumo VCO II', '未対応', '年', '<form method="post" action="/reservations/manage">'])
        assert.ok(html.includes(shown), shown);
      assert.ok(!html.includes('secret-address'));
      assert.ok(!html.includes('山田'), 'the page needs no name either');
    });

    test('a form POST cancels once: the cancellation email and a chat notice; again changes nothing and says why', async () => {
      const { id, path } = await reserve();
      const response = await form(tokenOf(path));
      assert.equal(response.status, 200);
      const html = await response.text();
      assert.ok(html.includes('ご予約をキャンセルしました'));
      assert.ok(html.includes('キャンセル') && !html.includes('<form'));
      const email = EmailApiBody.parse((await api.waitForAccepted(1, '/emails'))[0]!.body);
      assert.equal(email.subject, 'ご予約をキャンセルしました（Kumo VCO II）');
      const chat = SlackBody.parse((await api.waitForAccepted(1, WEBHOOK))[0]!.body);
      assert.match(chat.text, /キャンセル/);
      assert.ok(JSON.stringify(chat.blocks).includes(id));
      const again = await form(tokenOf(path));
      assert.equal(again.status, 200);
      assert.ok((await again.text()).includes('このご予約はすでにキャンセルされています。'));
      const status = (await app.call('/api/admin-reservations-list', {})).success().reservations.find((r) => r.id === id)?.status;
      assert.equal(status, 'cancelled');
      const rows = await app.services.database.db.selectFrom('outbox').select('channel').where('record_id', '=', id).execute();
      assert.equal(rows.length, 4, 'received email and chat, cancellation email and chat: nothing more');
    });

    test('JSON answers {success, status}; a confirmed reservation is not cancelled and says why', async () => {
      const { id, path } = await reserve();
      (await app.call('/api/admin-reservations-status', { id, productSlug: 'kumo-vco-2', status: 'confirmed' })).success();
      const json = (body: unknown) =>
        app.request('/reservations/manage', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      const refused = await json({ token: tokenOf(path) });
      assert.equal(refused.status, 409);
      assert.deepEqual(await refused.json(), {
        success: false,
        status: 'confirmed',
        error: 'Reservation is not pending',
        code: 'reservation_not_pending',
      });
      const page = await (await form(tokenOf(path))).text();
      assert.ok(page.includes('このご予約は「確定」のため、このページからはキャンセルできません。'));
      (await app.call('/api/admin-reservations-status', { id, productSlug: 'kumo-vco-2', status: 'pending' })).success();
      const cancelled = await json({ token: tokenOf(path) });
      assert.equal(cancelled.status, 200);
      assert.deepEqual(await cancelled.json(), { success: true, status: 'cancelled' });
    });

    test('a cross-site form post is refused before anything changes; the service’s own origin is not', async () => {
      const { id, path } = await reserve();
      const post = (origin: string) =>
        app.request('/reservations/manage', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
          body: `token=${encodeURIComponent(tokenOf(path))}`,
        });
      assert.equal((await post('https://evil.example')).status, 403);
      const row = await app.services.database.db.selectFrom('reservations').select('status').where('id', '=', id).executeTakeFirstOrThrow();
      assert.equal(row.status, 'pending');
      assert.equal((await post('https://shop.example.jp')).status, 200);
    });

    test('a bad token is a 400 page; no token, an altered one, a subscription’s, wrong types', async () => {
      const { id, path } = await reserve();
      const token = tokenOf(path);
      for (const bad of ['', 'nope', `${id}.AAAA`, token.slice(0, -1), `${token}x`, `ntf_1.${token.split('.')[1]}`]) {
        const response = await app.request(`/reservations/manage?token=${encodeURIComponent(bad)}`);
        assert.equal(response.status, 400, bad);
        assert.ok((await response.text()).includes('リンクが無効です'));
        assert.equal((await form(bad)).status, 400);
      }
      assert.equal((await app.request('/reservations/manage')).status, 400);
      assert.equal((await app.request('/reservations/manage?token=a&token=b')).status, 400);
      for (const body of ['{"token": 5}', '{"__proto__": {"token": "x"}}', 'not json', '[]']) {
        const response = await app.request('/reservations/manage', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        assert.equal(response.status, 400, body);
      }
      const rows = await app.services.database.db
        .selectFrom('reservations')
        .select('status')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      assert.equal(rows.status, 'pending');
    });
  });
}

describe('the customer page in Chromium', () => {
  let app: TestApp;
  let browser: Browser;
  before(async () => {
    // The page posts to its own origin, which must be PUBLIC_BASE_URL's to pass the cross-site check.
    const port = await freePort();
    app = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '0', PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${port}` } });
    browser = await launchBrowser();
  });
  // A browser that did not launch leaves `browser` unset: the app must still close, or its open
  // server keeps the file running with the launch's failure unreported.
  after(async () => {
    await browser?.close();
    await app?.close();
  });

  for (const [name, viewport] of [
    ['laptop', { width: 1366, height: 768 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    test(`without JavaScript at ${name} size: read, cancel, read again`, async () => {
      const response = await app.request('/api/reservation', {
        method: 'POST',
        body: JSON.stringify({ name: '山田', email: 'a@example.com', productSlug: 'kumo-vco-2' }),
      });
      const { reservationId } = (await app.read('/api/reservation', response)).success();
      const row = await waitUntil(() =>
        app.services.database.db
          .selectFrom('outbox')
          .select('payload')
          .where('record_id', '=', reservationId)
          .where('channel', '=', 'email')
          .executeTakeFirst(),
      );
      const manageUrl = (JSON.parse(row.payload) as { facts: { manageUrl: string } }).facts.manageUrl;
      const context = await browser.newContext({ viewport, javaScriptEnabled: false });
      const page = await context.newPage();
      const record = recordPage(page);
      await page.goto(app.url + manageUrl.slice(manageUrl.indexOf('/reservations/manage')));
      assert.equal(await page.locator('h1').textContent(), 'ご予約の確認');
      assert.equal(await page.locator('dd').nth(2).textContent(), '未対応');
      const overflow = await page
        .evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
        .catch(() => 0);
      assert.ok(overflow <= 0, 'nothing wider than the screen');
      await screenshot(page, 'customer-page', `${name}-1-pending`);
      await page.getByRole('button', { name: '予約をキャンセルする' }).click();
      await page.waitForLoadState();
      assert.match((await page.locator('.notice').textContent()) ?? '', /キャンセルしました/);
      assert.equal(await page.locator('dd').nth(2).textContent(), 'キャンセル');
      assert.equal(await page.getByRole('button').count(), 0);
      await screenshot(page, 'customer-page', `${name}-2-cancelled`);
      assert.deepEqual(record.errors, []);
      assert.ok(
        record.urls.every((u) => u.startsWith(app.url)),
        'loads nothing from elsewhere',
      );
      await context.close();
    });
  }
});
