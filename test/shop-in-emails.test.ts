import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { DIALECTS, startTestApp, type TestApp } from './helpers/app.ts';
import { ARTIFACTS, launchBrowser, screenshot } from './helpers/browser.ts';
import { FAST_DISPATCH } from './helpers/email-app.ts';
import { startSmtpReceiver, type ReceivedMail, type SmtpReceiver } from './helpers/smtp-receiver.ts';
import { waitUntil } from './helpers/wait.ts';

// Every default email names the shop: each of the five kinds, as a real SMTP receiver gets it, ends
// with the shop's name, address, phone, contact address and hours, and a reply goes to the shop;
// the reservation kinds carry the preorder campaign's note. On both dialects; the HTML parts read
// on a 390 px phone in Chromium without scrolling sideways, the long page link wrapped, and the
// unsubscribe page the restock email links to names the shop at laptop and phone sizes.

const SHOP = {
  name: 'テンポ楽器 渋谷店',
  address: '〒150-0001\n東京都渋谷区神宮前1-2-3 テンポビル2F',
  phone: '03-1234-5678',
  contactEmail: 'shop@tenpo.example',
  hours: '11:00〜19:00（水曜定休）',
};
const SIGNATURE = [
  'テンポ楽器 渋谷店',
  '〒150-0001',
  '東京都渋谷区神宮前1-2-3 テンポビル2F',
  'TEL: 03-1234-5678',
  'メール: shop@tenpo.example',
  '営業時間: 11:00〜19:00（水曜定休）',
].join('\n');

/** The five kinds' subjects, as the default texts word them for the product used here. */
const SUBJECTS: Record<string, string> = {
  'reservation-received': 'ご予約を受け付けました（ハヤテ ウェーブフォルダー）',
  'reservation-confirmed': 'ご予約が確定しました（ハヤテ ウェーブフォルダー）',
  'reservation-fulfilled': '商品のお渡しが完了しました（ハヤテ ウェーブフォルダー）',
  'reservation-cancelled': 'ご予約をキャンセルしました（ハヤテ ウェーブフォルダー）',
  'restock-available': '【入荷のお知らせ】ハヤテ ウェーブフォルダー',
};

for (const dialect of DIALECTS) {
  describe(`the shop in every email (${dialect})`, () => {
    let smtp: SmtpReceiver;
    let app: TestApp;
    const received = new Map<string, ReceivedMail>();
    before(async () => {
      smtp = await startSmtpReceiver();
      app = await startTestApp({
        dialect,
        env: {
          RATE_LIMIT_PER_MINUTE: '0',
          SMTP_URL: smtp.url,
          EMAIL_FROM: 'tenpo <no-reply@tenpo.example>',
          PUBLIC_BASE_URL: 'https://shop.example.jp',
        },
        dispatcher: FAST_DISPATCH,
      });
      (await app.call('/api/admin/shop/update', SHOP)).success();
      (
        await app.call('/api/admin/preorders/upsert', {
          productSlug: 'hayate-wavefolder',
          shipsIn: '2027年2月下旬',
          note: '入荷次第、お支払い方法とお受け取り方法をメールでご案内します。',
        })
      ).success();
      const reserve = async (email: string) => {
        const response = await app.request('/api/reservation', {
          method: 'POST',
          body: JSON.stringify({ name: '山田 太郎', email, productSlug: 'hayate-wavefolder' }),
        });
        return (await app.read('/api/reservation', response)).success().reservationId;
      };
      // Each kind once, one after another, so none is superseded by the next before it goes.
      const next = async (count: number) => waitUntil(() => smtp.mails.length >= count, { what: `${count} mails` });
      const move = (id: string, status: string) =>
        app.call('/api/admin-reservations-status', { id, productSlug: 'hayate-wavefolder', status });
      const first = await reserve('taro@example.com');
      await next(1);
      (await move(first, 'confirmed')).success();
      await next(2);
      (await move(first, 'fulfilled')).success();
      await next(3);
      const second = await reserve('hanako@example.com');
      await next(4);
      (await move(second, 'cancelled')).success();
      await next(5);
      const signup = await app.request('/api/notify', {
        method: 'POST',
        body: JSON.stringify({ email: 'waiting@example.com', productSlug: 'hayate-wavefolder' }),
      });
      (await app.read('/api/notify', signup)).success();
      (await app.call('/api/admin/notify/send', { productSlug: 'hayate-wavefolder' })).success();
      await next(6);
      for (const [kind, subject] of Object.entries(SUBJECTS)) {
        const mail = smtp.mails.find((m) => m.parsed.subject === subject);
        assert.ok(mail, `${kind}: ${smtp.mails.map((m) => m.parsed.subject).join(' / ')}`);
        received.set(kind, mail);
      }
      if (dialect === 'sqlite') {
        // The five as received, for people to read (test-artifacts/emails/).
        const dir = join(ARTIFACTS, 'emails');
        mkdirSync(dir, { recursive: true });
        for (const [kind, mail] of received) writeFileSync(join(dir, `${kind}.eml`), mail.raw);
      }
    });
    after(async () => {
      await app.close();
      await smtp.close();
    });

    test('each of the five kinds ends with the shop’s name, address, phone, contact address and hours, in its text and its HTML', () => {
      assert.equal(received.size, 5);
      for (const [kind, mail] of received) {
        assert.ok(mail.parsed.text?.endsWith(`\n\n${SIGNATURE}\n`), `${kind}:\n${mail.parsed.text}`);
        assert.ok(
          String(mail.parsed.html).includes(`<p>${SIGNATURE.replaceAll('\n', '<br>\n')}</p>\n</body>`),
          `${kind}: ${mail.parsed.html}`,
        );
        assert.doesNotMatch(mail.parsed.text ?? '', /送信専用/, `${kind}: no longer says it cannot be answered`);
      }
    });

    test('a reply goes to the shop; the restock email, an advertisement, also carries its unsubscribe headers', () => {
      for (const [kind, mail] of received) {
        assert.deepEqual(
          mail.parsed.replyTo?.value.map((a) => a.address),
          ['shop@tenpo.example'],
          kind,
        );
        assert.deepEqual(
          mail.parsed.from?.value.map((a) => a.address),
          ['no-reply@tenpo.example'],
        );
      }
      const restock = received.get('restock-available')!;
      // Folded onto a second line by the sender: a header's value may follow its name's line.
      assert.match(restock.raw, /^List-Unsubscribe:\s+<https:\/\/shop\.example\.jp\/api\/notify\/unsubscribe\?token=/m);
      assert.match(restock.parsed.text ?? '', /下記のショップからお送りしています/);
    });

    test('the receipt and the confirmation say when it ships (発送予定) and carry the campaign’s note, as the page they link to does', async () => {
      for (const kind of ['reservation-received', 'reservation-confirmed'] as const) {
        const { text, html } = received.get(kind)!.parsed;
        assert.ok(text?.includes('\n\n入荷次第、お支払い方法とお受け取り方法をメールでご案内します。\n\n'), kind);
        assert.match(text ?? '', /\n受付日時: [^\n]+\n発送予定: 2027年2月下旬\n/, kind);
        assert.ok(html && html.includes('発送予定: 2027年2月下旬'), kind);
      }
      const link = /https:\/\/shop\.example\.jp(\/reservations\/manage\?token=\S+)/.exec(
        received.get('reservation-received')!.parsed.text!,
      )![1]!;
      const page = await (await app.request(link)).text();
      assert.ok(page.includes('<dt>発送予定</dt><dd>2027年2月下旬</dd>'));
      assert.ok(page.includes('テンポ楽器 渋谷店'));
    });

    test('the unsubscribe page the restock email links to names the shop and how to reach it; so does a broken link’s page', async () => {
      const link = /https:\/\/shop\.example\.jp(\/api\/notify\/unsubscribe\?token=\S+)/.exec(
        received.get('restock-available')!.parsed.text!,
      )![1]!;
      for (const path of [link, '/api/notify/unsubscribe?token=broken']) {
        const page = await (await app.request(path)).text();
        for (const shown of [
          'テンポ楽器 渋谷店',
          '東京都渋谷区神宮前1-2-3 テンポビル2F',
          '<a href="tel:0312345678">',
          '<a href="mailto:shop@tenpo.example">',
          '営業時間: 11:00〜19:00（水曜定休）',
        ])
          assert.ok(page.includes(shown), `${path}: ${shown}`);
      }
    });

    test('a confirmed reservation’s email says how to reach the shop for a cancel, instead of pointing at a page that cannot do it', () => {
      const text = received.get('reservation-confirmed')!.parsed.text!;
      assert.match(text, /確定したご予約のキャンセルは、下記までご連絡ください/);
      assert.ok(text.endsWith(`${SIGNATURE}\n`));
    });

    if (dialect === 'sqlite') {
      test('on a 390 px phone each HTML part fits the screen: the long page link wraps', async () => {
        let browser: Browser | undefined;
        try {
          browser = await launchBrowser();
          const context = await browser.newContext({ viewport: { width: 390, height: 844 }, javaScriptEnabled: false });
          for (const [kind, mail] of received) {
            const page = await context.newPage();
            await page.setContent(String(mail.parsed.html));
            const [scrollWidth, clientWidth] = await page.evaluate(() => [
              document.documentElement.scrollWidth,
              document.documentElement.clientWidth,
            ]);
            assert.ok(scrollWidth <= clientWidth, `${kind}: ${scrollWidth} px wide on a ${clientWidth} px screen`);
            const longest = await page.evaluate(() => Math.max(...[...document.querySelectorAll('a')].map((a) => a.textContent!.length)));
            if (kind !== 'restock-available') assert.ok(longest > 100, `${kind}: a link long enough to need wrapping (${longest})`);
            await screenshot(page, 'emails', `${kind}-phone`);
            await page.close();
          }
        } finally {
          await browser?.close();
        }
      });

      test('the unsubscribe page, opened from the restock email in Chromium at laptop and phone sizes, says it is done and names the shop', async () => {
        const link = /https:\/\/shop\.example\.jp(\/api\/notify\/unsubscribe\?token=\S+)/.exec(
          received.get('restock-available')!.parsed.text!,
        )![1]!;
        let browser: Browser | undefined;
        try {
          browser = await launchBrowser();
          for (const [size, viewport] of [
            ['laptop', { width: 1366, height: 768 }],
            ['phone', { width: 390, height: 844 }],
          ] as const) {
            const context = await browser.newContext({ viewport, javaScriptEnabled: false });
            const page = await context.newPage();
            await page.goto(app.url + link);
            assert.equal(await page.locator('h1').textContent(), '配信を停止しました');
            assert.equal(await page.locator('.shop strong').textContent(), SHOP.name);
            assert.equal(await page.locator('.shop a[href="mailto:shop@tenpo.example"]').textContent(), SHOP.contactEmail);
            assert.equal(await page.locator('.shop a[href="tel:0312345678"]').textContent(), SHOP.phone);
            const [scrollWidth, clientWidth] = await page.evaluate(() => [
              document.documentElement.scrollWidth,
              document.documentElement.clientWidth,
            ]);
            assert.ok(scrollWidth <= clientWidth, `${size}: ${scrollWidth} px wide on a ${clientWidth} px screen`);
            await screenshot(page, 'emails', `unsubscribed-${size}`);
            await context.close();
          }
        } finally {
          await browser?.close();
        }
      });
    }
  });
}
