import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { DIALECTS, startTestApp, type TestApp } from './helpers/app.ts';
import { launchBrowser, recordPage, screenshot } from './helpers/browser.ts';
import { startEmailTestApp } from './helpers/email-app.ts';
import type { HttpReceiver } from './helpers/http-receiver.ts';
import { freePort } from './helpers/ports.ts';
import { EmailApiBody, SlackBody } from './helpers/sent-bodies.ts';
import { waitUntil } from './helpers/wait.ts';

// The signed link in every reservation email opens the customer's page; while pending it
// cancels, queuing the cancellation email and a chat notice; once confirmed, it says how to reach
// the shop instead. Through HTTP on both dialects, and in Chromium at laptop and phone sizes
// without JavaScript.

const WEBHOOK = '/hooks/reservation';

for (const dialect of DIALECTS) {
  describe(`the customer's reservation page (${dialect})`, () => {
    let app: TestApp;
    let api: HttpReceiver;
    let close: () => Promise<void>;
    before(async () => {
      ({ app, api, close } = await startEmailTestApp({ dialect, webhooks: ['reservation'] }));
      (
        await app.call('/api/admin/shop/update', {
          name: 'テンポ楽器',
          address: '東京都渋谷区神宮前1-2-3',
          phone: '03-1234-5678',
          contactEmail: 'shop@tenpo.example',
        })
      ).success();
    });
    after(() => close());
    beforeEach(() => (api.requests.length = 0));

    /** A reservation and the page path its confirmation email links to. */
    async function reserve(productSlug = 'kumo-vco-2'): Promise<{ id: string; path: string }> {
      const response = await app.request('/api/reservation', {
        method: 'POST',
        body: JSON.stringify({ name: '山田 "太郎" & <3', email: 'secret-address@example.com', productSlug }),
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
      // Its chat notice too, so that what arrives after this is what the test did.
      await waitUntil(() => api.accepted(WEBHOOK).some((r) => JSON.stringify(r.body).includes(reservationId)));
      api.requests.length = 0;
      return { id: reservationId, path: url };
    }
    const form = (token: string, extra: Record<string, string> = {}) =>
      app.request('/reservations/manage', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token, ...extra }).toString(),
        redirect: 'manual',
      });
    const messagesAbout = async (id: string) =>
      (await app.services.database.db.selectFrom('outbox').select('id').where('record_id', '=', id).execute()).length;
    const tokenOf = (path: string) => decodeURIComponent(path.split('token=')[1]!);

    test('the page: number, product, the status in the customer’s words, time, the shop’s name and contact; never the address; pending → a cancel form', async () => {
      const { id, path } = await reserve();
      const response = await app.request(path);
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
      assert.match(response.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
      const html = await response.text();
      for (const shown of [
        id,
        'Kumo VCO II',
        '<dd>受付中</dd>',
        '年',
        '<form method="get" action="/reservations/manage">',
        '<input type="hidden" name="ask" value="cancel">',
        'テンポ楽器',
        '東京都渋谷区神宮前1-2-3',
        '<a href="tel:0312345678">03-1234-5678</a>',
        '<a href="mailto:shop@tenpo.example">shop@tenpo.example</a>',
      ])
        assert.ok(html.includes(shown), shown);
      for (const hidden of ['secret-address', '山田', '未対応', '発送予定']) assert.ok(!html.includes(hidden), hidden);
    });

    test('a preorder’s page says when it ships and the campaign’s note', async () => {
      (
        await app.call('/api/admin/preorders/upsert', {
          productSlug: 'hayate-wavefolder',
          shipsIn: '2027年2月下旬',
          note: '入荷次第、お支払い方法をご案内します。\n<b>店頭</b>受け取りもできます。',
        })
      ).success();
      const { path } = await reserve('hayate-wavefolder');
      const html = await (await app.request(path)).text();
      assert.ok(html.includes('<dt>発送予定</dt><dd>2027年2月下旬</dd>'), html);
      assert.ok(
        html.includes('<dd class="note">入荷次第、お支払い方法をご案内します。\n&lt;b&gt;店頭&lt;/b&gt;受け取りもできます。</dd>'),
        html,
      );
    });

    test('a form cancels in two steps: without confirm it asks and changes nothing; with confirm=yes it cancels once and answers 303 to the page', async () => {
      const { id, path } = await reserve();
      const token = tokenOf(path);
      const asked = await form(token);
      assert.equal(asked.status, 200);
      const question = await asked.text();
      assert.ok(question.includes('このご予約をキャンセルしますか？'), question);
      assert.ok(question.includes('<input type="hidden" name="confirm" value="yes">'));
      assert.ok(
        question.includes(
          `<a href="/reservations/manage?token=${encodeURIComponent(token).replaceAll('&', '&amp;')}">キャンセルせずに戻る</a>`,
        ),
      );
      const before = await app.call('/api/admin/reservations/get', { id });
      assert.equal(before.success().reservation.status, 'pending', 'asking changes nothing');
      assert.equal(await messagesAbout(id), 2, 'nothing queued by asking');

      const done = await form(token, { confirm: 'yes' });
      assert.equal(done.status, 303);
      assert.equal(done.headers.get('location'), `/reservations/manage?token=${encodeURIComponent(token)}`);
      const page = await (await app.request(done.headers.get('location')!)).text();
      assert.ok(page.includes('<dd>キャンセル済み</dd>'));
      assert.ok(page.includes('このご予約はキャンセル済みです。'));
      assert.ok(!page.includes('<form'));
      const email = EmailApiBody.parse((await api.waitForAccepted(1, '/emails'))[0]!.body);
      assert.equal(email.subject, 'ご予約をキャンセルしました（Kumo VCO II）');
      const chat = SlackBody.parse((await api.waitForAccepted(1, WEBHOOK))[0]!.body);
      assert.match(chat.text, /キャンセル/);
      assert.ok(JSON.stringify(chat.blocks).includes(id));
      const reservation = (await app.call('/api/admin/reservations/get', { id })).success().reservation;
      assert.deepEqual(
        [reservation.status, reservation.respondedAt],
        ['cancelled', null],
        'the customer’s cancel is not the shop’s response',
      );

      // The same post again (a double click, a resubmitted form): nothing more, and the page as it stands.
      const again = await form(token, { confirm: 'yes' });
      assert.equal(again.status, 303);
      const asking = await (await form(token)).text();
      assert.ok(asking.includes('このご予約はキャンセル済みです。') && !asking.includes('キャンセルしますか'), 'nothing left to ask');
      assert.equal(await messagesAbout(id), 4, 'received email and chat, cancellation email and chat: nothing more');
    });

    test('a customer’s cancel that opens a full campaign again says so in the shop’s chat notice; one of a campaign still open does not', async () => {
      const productSlug = 'hayate-kyokai-delay';
      const reopened =
        '満席でしたが、このキャンセルで空きができ、再び予約を受け付けています（止めるには管理画面の予約受付で「受付を終了」）';
      (await app.call('/api/admin/preorders/upsert', { productSlug, capacity: 2 })).success();
      const cancelFrom = async (path: string) => {
        assert.equal((await form(tokenOf(path), { confirm: 'yes' })).status, 303);
        const [posted] = await api.waitForAccepted(1, WEBHOOK);
        api.requests.length = 0;
        return SlackBody.parse(posted!.body);
      };
      const first = await reserve(productSlug);
      await reserve(productSlug);
      const full = await cancelFrom(first.path);
      assert.ok(
        full.blocks[1]?.fields?.some((field) => field.text === `予約受付\n${reopened}`),
        JSON.stringify(full.blocks),
      );
      assert.ok(full.text.includes(`予約受付: ${reopened}`));
      const campaign = (await app.call('/api/admin/preorders/list', {})).success().preorders.find((p) => p.productSlug === productSlug)!;
      assert.deepEqual([campaign.state, campaign.remaining], ['open', 1], 'the seat went back: the campaign takes reservations');
      // A seat left already: nothing reopened, nothing said of it.
      const third = await reserve(productSlug);
      (await app.call('/api/admin/preorders/upsert', { productSlug, capacity: 3 })).success();
      assert.ok(!(await cancelFrom(third.path)).text.includes('予約受付:'));
    });

    test('JSON cancels in one step and answers {success, status}; a confirmed reservation is not cancelled and the page says how to reach the shop', async () => {
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
      for (const page of [await (await app.request(path)).text(), await (await form(tokenOf(path))).text()]) {
        assert.ok(page.includes('このご予約は「確定」のため、このページからはキャンセルできません。'), page);
        assert.ok(page.includes('ご予約番号を添えて下記のショップまでご連絡ください。'));
        assert.ok(page.includes('<a href="mailto:shop@tenpo.example">'), 'how to reach the shop');
        assert.ok(!page.includes('<form'));
      }
      assert.equal((await form(tokenOf(path), { confirm: 'yes' })).status, 303);
      assert.equal((await app.call('/api/admin/reservations/get', { id })).success().reservation.status, 'confirmed');
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
      const confirmed = await app.request('/reservations/manage', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
        body: `token=${encodeURIComponent(tokenOf(path))}&confirm=yes`,
      });
      assert.equal(confirmed.status, 403, 'the second step too');
      const after = await app.services.database.db
        .selectFrom('reservations')
        .select('status')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      assert.equal(after.status, 'pending');
    });

    test('a bad token is a 400 page; no token, an altered one, a subscription’s, wrong types', async () => {
      const { id, path } = await reserve();
      const token = tokenOf(path);
      for (const bad of ['', 'nope', `${id}.AAAA`, token.slice(0, -1), `${token}x`, `ntf_1.${token.split('.')[1]}`]) {
        const response = await app.request(`/reservations/manage?token=${encodeURIComponent(bad)}`);
        assert.equal(response.status, 400, bad);
        assert.ok((await response.text()).includes('リンクが無効です'));
        assert.equal((await form(bad)).status, 400);
        assert.equal((await form(bad, { confirm: 'yes' })).status, 400);
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
    (
      await app.call('/api/admin/shop/update', {
        name: 'テンポ楽器 渋谷店',
        address: '〒150-0001\n東京都渋谷区神宮前1-2-3 テンポビル2F',
        phone: '03-1234-5678',
        contactEmail: 'shop@tenpo.example',
        hours: '11:00〜19:00（水曜定休）',
      })
    ).success();
    (
      await app.call('/api/admin/preorders/upsert', {
        productSlug: 'hayate-wavefolder',
        shipsIn: '2027年2月下旬',
        note: '入荷次第、お支払い方法とお受け取り方法をメールでご案内します。',
      })
    ).success();
    browser = await launchBrowser();
  });
  // A browser that did not launch leaves `browser` unset: the app must still close, or its open
  // server keeps the file running with the launch's failure unreported.
  after(async () => {
    await browser?.close();
    await app?.close();
  });

  /** A reservation of a preorder, and its page's path as the confirmation email links to it. */
  async function reserve(): Promise<{ id: string; path: string }> {
    const response = await app.request('/api/reservation', {
      method: 'POST',
      body: JSON.stringify({ name: '山田', email: 'a@example.com', productSlug: 'hayate-wavefolder' }),
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
    return { id: reservationId, path: manageUrl.slice(manageUrl.indexOf('/reservations/manage')) };
  }
  const status = (page: Page) => page.locator('dt:text-is("状態") + dd').textContent();

  for (const [name, viewport] of [
    ['laptop', { width: 1366, height: 768 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    test(`without JavaScript at ${name} size: read, ask, cancel, land on the page, reload`, async () => {
      const { id, path } = await reserve();
      const context = await browser.newContext({ viewport, javaScriptEnabled: false });
      const page = await context.newPage();
      const record = recordPage(page);
      const posts: string[] = [];
      page.on('request', (request) => void (request.method() === 'POST' && posts.push(request.url())));
      const noOverflow = async () => {
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        assert.ok(overflow <= 0, 'nothing wider than the screen');
      };
      await page.goto(app.url + path);
      assert.equal(await page.locator('h1').textContent(), 'ご予約の確認');
      assert.equal(await status(page), '受付中');
      assert.equal(await page.locator('dt:text-is("発送予定") + dd').textContent(), '2027年2月下旬');
      assert.match(
        (await page.locator('.shop').textContent()) ?? '',
        /テンポ楽器 渋谷店.*東京都渋谷区神宮前1-2-3.*03-1234-5678.*shop@tenpo\.example/s,
      );
      await noOverflow();
      await screenshot(page, 'customer-page', `${name}-1-pending`);

      await page.getByRole('button', { name: '予約をキャンセルする…' }).click();
      await page.waitForLoadState();
      assert.match((await page.getByRole('alert').textContent()) ?? '', /このご予約をキャンセルしますか？/);
      const stillPending = await app.call('/api/admin/reservations/get', { id });
      assert.equal(stillPending.success().reservation.status, 'pending', 'asking changed nothing');
      await noOverflow();
      await screenshot(page, 'customer-page', `${name}-2-asking`);

      await page.getByRole('button', { name: 'キャンセルする', exact: true }).click();
      await page.waitForLoadState();
      // 303 to the page's own GET URL: the address bar holds the link from the email again.
      assert.equal(page.url(), app.url + path);
      assert.equal(await status(page), 'キャンセル済み');
      assert.equal(await page.getByRole('button').count(), 0);
      await noOverflow();
      await screenshot(page, 'customer-page', `${name}-3-cancelled`);

      // A reload reads the page again and posts nothing: no resubmission, no second cancellation.
      const postsBefore = posts.length;
      await page.reload();
      assert.equal(posts.length, postsBefore, 'nothing posted by the reload');
      assert.equal(await status(page), 'キャンセル済み');
      assert.deepEqual(posts, [app.url + '/reservations/manage'], 'the question is a page of its own, only the cancel posts');

      // Back, and Back again: each a page read again (the question now says it is cancelled), never a form to resubmit.
      for (const step of ['the question', 'the page first read']) {
        const back = await page.goBack();
        assert.equal(back?.status(), 200, step);
        assert.equal(await page.locator('h1').textContent(), 'ご予約の確認', step);
        assert.equal(await status(page), 'キャンセル済み', step);
        assert.equal(await page.getByRole('button').count(), 0, step);
      }
      assert.equal(page.url(), app.url + path);
      assert.equal(posts.length, 1, 'nothing posted again');
      await screenshot(page, 'customer-page', `${name}-5-back-after-cancel`);
      const history = (await app.call('/api/admin/reservations/get', { id })).success().history;
      assert.equal(history.filter((entry) => entry.type === 'status').length, 1, 'cancelled once');
      assert.deepEqual(record.errors, []);
      assert.ok(
        record.urls.every((u) => u.startsWith(app.url)),
        'loads nothing from elsewhere',
      );
      await context.close();
    });

    test(`a confirmed reservation at ${name} size: no button, and how to reach the shop instead`, async () => {
      const { id, path } = await reserve();
      (await app.call('/api/admin-reservations-status', { id, productSlug: 'hayate-wavefolder', status: 'confirmed' })).success();
      const context = await browser.newContext({ viewport, javaScriptEnabled: false });
      const page = await context.newPage();
      await page.goto(app.url + path);
      assert.equal(await status(page), '確定');
      assert.equal(await page.getByRole('button').count(), 0);
      assert.match(
        (await page.locator('body').textContent()) ?? '',
        /このページからはキャンセルできません。.*下記のショップまでご連絡ください。/s,
      );
      assert.equal(await page.locator('.shop a[href="mailto:shop@tenpo.example"]').textContent(), 'shop@tenpo.example');
      assert.equal(await page.locator('.shop a[href="tel:0312345678"]').textContent(), '03-1234-5678');
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(overflow <= 0, 'nothing wider than the screen');
      await screenshot(page, 'customer-page', `${name}-4-confirmed`);
      await context.close();
    });
  }

  test('with JavaScript on, the same two steps', async () => {
    const { path } = await reserve();
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(app.url + path);
    await page.getByRole('button', { name: '予約をキャンセルする…' }).click();
    await page.getByRole('button', { name: 'キャンセルする', exact: true }).click();
    await page.waitForURL(app.url + path);
    assert.equal(await status(page), 'キャンセル済み');
    assert.equal((await page.goBack())?.status(), 200);
    assert.equal(await status(page), 'キャンセル済み', 'Back reads the question’s page again: cancelled now');
    await context.close();
  });
});
