import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { ARTIFACTS, screenshot } from './helpers/browser.ts';
import { consoleSuite, noSidewaysScroll, SIZES } from './helpers/console.ts';
import { startSmtpReceiver, type SmtpReceiver } from './helpers/smtp-receiver.ts';
import { settle, waitUntil } from './helpers/wait.ts';

// What staff do after a provider outage, in the console in Chromium at laptop and phone sizes, with
// a real SMTP receiver: a reservation's receipt and confirmation were given up, staff then cancelled
// it and the cancellation went out; under 送信失敗 they select everything and resend. The dialog
// says a resend is checked against the record first, nothing contradicting the cancellation reaches
// the customer, and the list and the reservation's page show both emails as 送信取りやめ.

const SHOTS = 'admin-console-superseded';
const PRODUCT = 'kumo-vco-2';
const SUPERSEDED = '送信取りやめ（状況が変わったため）';

let smtp: SmtpReceiver;

const ui = consoleSuite(async () => {
  smtp = await startSmtpReceiver();
  return {
    env: { SMTP_URL: smtp.url, PUBLIC_BASE_URL: 'https://shop.example.jp' },
    // Two attempts before a message is given up, so the outage ends in 送信失敗 soon.
    dispatcher: { pollIntervalMs: 25, retryBaseMs: 40, retryCapMs: 100, maxAttempts: 2 },
  };
});
after(() => smtp?.close());

const rows = (page: Page) => page.locator('table.records tbody tr:not(.row-note)');
const mailsTo = (address: string) => smtp.mails.filter((m) => m.envelopeTo.includes(address));
const emailsAbout = async (id: string) => (await ui.api.call('/api/admin/messages/list', { recordId: id, channel: 'email' })).messages;

/** The outage: the receipt and the confirmation of a new reservation given up; then it is cancelled and that email goes. */
async function confirmedThenCancelledAfterAnOutage(email: string): Promise<string> {
  smtp.failNext(1000);
  const { reservationId: id } = await ui.api.call('/api/reservation', { name: '山田 太郎', email, productSlug: PRODUCT });
  await waitUntil(async () => (await emailsAbout(id))[0]?.status === 'dead', { what: 'the receipt given up' });
  await ui.api.call('/api/admin-reservations-status', { id, productSlug: PRODUCT, status: 'confirmed' });
  await waitUntil(async () => (await emailsAbout(id)).filter((m) => m.status === 'dead').length === 2, {
    what: 'the confirmation given up',
  });
  smtp.failNext(0);
  await ui.api.call('/api/admin-reservations-status', { id, productSlug: PRODUCT, status: 'cancelled' });
  await waitUntil(() => mailsTo(email).length === 1, { what: 'the cancellation delivered' });
  return id;
}

for (const [size, viewport] of SIZES) {
  describe(`送信失敗 resent after the reservation was cancelled (${size})`, () => {
    test('select all, resend: the dialog says each is checked first; nothing is sent; the list and the reservation’s page show 送信取りやめ', async () => {
      const email = `outage-${size}@example.com`;
      const id = await confirmedThenCancelledAfterAnOutage(email);

      const page = await ui.signedIn('messages?status=dead', viewport);
      await page.locator('.pager .page', { hasText: '（全 2 件）' }).first().waitFor();
      assert.deepEqual(await rows(page).locator('.message-status').allTextContents(), Array(2).fill('送信失敗（試行 2 回）'));
      await page.locator('table.records thead input[type=checkbox]').check();
      await page.click('.selection button:has-text("選択した送信失敗を再送")');
      const dialog = page.locator('dialog.confirm');
      await dialog.locator('text=選択した送信失敗の 2 件をもう一度送信します。').waitFor();
      assert.match((await dialog.textContent()) ?? '', /内容が事実と合わなくなったメールは送信せず「送信取りやめ」にします。/);
      await screenshot(page, SHOTS, `${size}-1-resend-dialog`);
      await noSidewaysScroll(page);
      await dialog.locator('button.primary').click();
      await page.waitForFunction(
        () =>
          document.querySelector('main > .notice')?.textContent ===
          '2 件は再送しませんでした（その後ご予約や登録の状況が変わり、内容が事実と合わなくなったため、送信を取りやめました）。',
      );
      await page.locator('.placeholder', { hasText: '該当するメッセージはありません。' }).waitFor();
      await screenshot(page, SHOTS, `${size}-2-resend-refused`);

      // 送信取りやめ in the status filter: both, each never sent, with the attempts the outage took.
      await page.selectOption('#messages-status', 'superseded');
      const ours = rows(page).filter({ hasText: email });
      await waitUntil(async () => (await ours.count()) === 2, { what: 'both under 送信取りやめ' });
      assert.deepEqual(await ours.locator('.message-status').allTextContents(), Array(2).fill(`${SUPERSEDED}（試行 2 回）`));
      assert.deepEqual(await ours.locator('td[data-label=送信日時]').allTextContents(), ['—', '—']);
      assert.deepEqual((await ours.locator('td[data-label=種類]').allTextContents()).sort(), ['予約受付', '予約確定']);
      // 対象 names the reservation as staff know it: its number and name, not its id.
      const { reservation } = await ui.api.call('/api/admin/reservations/get', { id });
      assert.deepEqual(await ours.locator('td[data-label=対象]').allTextContents(), Array(2).fill(`${reservation.number} 山田 太郎`));
      await screenshot(page, SHOTS, `${size}-3-superseded-list`);
      await noSidewaysScroll(page);

      // The reservation's page: each email as it stands now.
      await page.goto(`${ui.app.url}/admin#/reservations?record=${id}`);
      await page.locator('.timeline .what', { hasText: 'メール「キャンセル」' }).waitFor();
      const whats = await page.locator('.timeline .what').allTextContents();
      for (const [kind, state] of [
        ['予約受付', SUPERSEDED],
        ['予約確定', SUPERSEDED],
        ['キャンセル', '送信済み'],
      ])
        assert.ok(whats.includes(`メール「${kind}」（${email}）: ${state}`), `${kind}: ${whats.join(' / ')}`);
      assert.ok(!whats.some((what) => what.includes('を再送')), 'no resend was made');
      // The moves say what became of their emails: the confirmation's was withdrawn, the cancellation's sent.
      assert.ok(whats.includes('ステータスを「未対応」から「確定」に変更（お客様へのメールは送信取りやめ）'), whats.join(' / '));
      assert.ok(whats.includes('ステータスを「確定」から「キャンセル」に変更（お客様にメールを送信）'), whats.join(' / '));
      await screenshot(page, SHOTS, `${size}-4-record-page`);
      await noSidewaysScroll(page);

      // The dashboard counts the withdrawn emails among those not sent, and says why.
      await page.goto(`${ui.app.url}/admin#/dashboard`);
      const notSent = page.locator('.card', { hasText: '送られていないメール' });
      await notSent.waitFor();
      const { outbox } = await ui.api.call('/api/admin-dashboard-stats', {});
      assert.ok(outbox.superseded >= 2 && outbox.skipped === 0, JSON.stringify(outbox));
      assert.equal(await notSent.locator('.value').textContent(), String(outbox.superseded));
      assert.equal(
        await notSent.locator('.sub').textContent(),
        `${outbox.superseded} 件はご予約や登録の状況が変わり内容が事実と合わなくなったため、送信を取りやめました（過去30日）`,
      );
      await notSent.getByRole('link', { name: '送信取りやめを送信履歴で見る' }).waitFor();
      await notSent.screenshot({ path: join(ARTIFACTS, SHOTS, `${size}-5-dashboard-not-sent.png`) });

      await settle(200);
      assert.deepEqual(
        mailsTo(email).map((m) => m.parsed.subject),
        ['ご予約をキャンセルしました（Kumo VCO II）'],
        'no contradicting email reached the customer',
      );
      await page.context().close();
    });
  });
}

describe('the pages', () => {
  test('had no errors', () => {
    assert.deepEqual(ui.record.errors, []);
  });
});
