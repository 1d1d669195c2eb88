import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { screenshot } from './helpers/browser.ts';
import { consoleSuite, LAPTOP, noSidewaysScroll, PHONE } from './helpers/console.ts';
import { startSmtpReceiver, type SmtpReceiver } from './helpers/smtp-receiver.ts';
import { waitUntil } from './helpers/wait.ts';

// The console's customer-email screens in headless Chromium, against the whole service on SQLite
// with its emails going to a real SMTP receiver: the template editor with its live preview, field
// errors, versions, revert and test send; the status change saying whether the customer is
// emailed, and switching it off. Laptop (1366x768) and phone (390x844).

const SHOTS = 'admin-console-emails';

let smtp: SmtpReceiver;

const ui = consoleSuite(async () => {
  smtp = await startSmtpReceiver();
  return {
    env: { SMTP_URL: smtp.url, PUBLIC_BASE_URL: 'https://shop.example.jp' },
    // Three attempts before a message is given up, so 送信履歴 has dead messages to show soon.
    dispatcher: { pollIntervalMs: 25, retryBaseMs: 40, retryCapMs: 100, maxAttempts: 3 },
  };
});
after(() => smtp?.close());

const mailsTo = (address: string) => smtp.mails.filter((m) => m.envelopeTo.includes(address));

describe('メールテンプレート', () => {
  test('edit with a live preview, a problem shown at its field, save a version, revert it, send a test', async () => {
    const page = await ui.signedIn('email-templates?kind=reservation-confirmed', LAPTOP);
    const subject = page.locator('#template-subject');
    await page.locator('#preview-subject', { hasText: 'ご予約が確定しました（' }).waitFor();
    assert.equal(await page.locator('.kind-tabs button[aria-pressed=true]').getAttribute('data-kind'), 'reservation-confirmed');
    const frame = page.frameLocator('#preview-html');
    await frame.locator('p', { hasText: '山田 太郎 様' }).waitFor();
    await screenshot(page, SHOTS, '01-template-laptop');

    // A chip inserts at the cursor; the preview follows the typing.
    await subject.fill('【確定】');
    await subject.press('End');
    await page.click('button.chip[data-placeholder=productName]');
    assert.equal(await subject.inputValue(), '【確定】{{productName}}');
    await page.locator('#preview-subject', { hasText: /^【確定】Kumo VCO II$/ }).waitFor();

    // An unknown placeholder in the body: said at the body, the preview kept and marked stale.
    const body = page.locator('#template-body');
    await body.press('Control+Home');
    await body.pressSequentially('{{ customer }}');
    const bodyError = page.locator('#template-body-error');
    await bodyError.locator('li', { hasText: '{{customer}} は使えない差し込み項目です' }).waitFor();
    assert.equal(await page.locator('#template-subject-error').isHidden(), true);
    assert.equal(await body.getAttribute('aria-invalid'), 'true');
    await page.locator('.template-preview.stale').waitFor();
    await frame.locator('p', { hasText: '山田 太郎 様' }).first().waitFor();
    await screenshot(page, SHOTS, '02-template-field-error-laptop');

    // Saving refuses the same way; fixing it saves a new version, listed first.
    await page.click('.template-form button[type=submit]');
    await page.waitForFunction(() =>
      document.querySelector('main > .notice')?.textContent?.startsWith('入力内容に誤りがあるため保存しませんでした'),
    );
    await body.fill((await body.inputValue()).replace('{{ customer }}', '{{ name }} 様へ\n\n'));
    await bodyError.waitFor({ state: 'hidden' });
    await page.click('.template-form button[type=submit]');
    await page.waitForFunction(
      () => document.querySelector('main > .notice')?.textContent === '「予約確定」のメールを保存しました（第2版）',
    );
    const saved = (await ui.api.call('/api/admin/email-templates/list', {})).templates.find((t) => t.kind === 'reservation-confirmed')!;
    assert.equal(saved.version, 2);
    assert.equal(saved.subject, '【確定】{{productName}}');
    assert.ok(saved.body.startsWith('{{ name }} 様へ\n\n'));
    await page.locator('.template-versions li[data-version="2"] .state', { hasText: '現在' }).waitFor();
    assert.equal(await page.locator('.kind-tabs button[data-kind=reservation-confirmed] .tab-mark').textContent(), '編集済み');

    // A test send of unsaved text arrives at the real SMTP receiver.
    await subject.fill('テスト {{productName}} {{reservationId}}');
    await page.fill('#test-send-to', 'staff@shop.example.jp');
    await page.click('.test-send button[type=submit]');
    await page.locator('#test-send-result', { hasText: 'staff@shop.example.jp にテストメールを送信しました' }).waitFor();
    const [mail] = await smtp.waitForMails(1);
    assert.deepEqual(mail!.envelopeTo, ['staff@shop.example.jp']);
    // Marked as a test in its subject and first line; the sample reservation is number 1000, no customer's.
    assert.match(mail!.parsed.subject ?? '', /^【テスト送信】テスト Kumo VCO II res_[0-9a-f-]{36}$/);
    assert.ok(
      mail!.parsed.text?.startsWith(
        '※ これはメールテンプレートのテスト送信です（お客様には送られていません）。ご予約番号 1000 などは見本で、実際のご予約やお客様とは関係ありません。\n\n山田 太郎 様へ\n',
      ),
      mail!.parsed.text ?? '',
    );
    // A bad address is said at the address field.
    await page.fill('#test-send-to', 'staff@');
    await page.click('.test-send button[type=submit]');
    await page.locator('#test-send-to-error', { hasText: '有効なメールアドレスを入力してください' }).waitFor();
    await frame.locator('p', { hasText: '山田 太郎 様へ' }).waitFor();
    assert.equal(
      await frame.locator('body').evaluate((b) => getComputedStyle(b).lineHeight),
      `${1.7 * 16}px`,
      'the email’s own body style applies in the preview',
    );
    await screenshot(page, SHOTS, '03-template-saved-test-sent-laptop');

    // Revert to the default wording (version 1: a new shop's templates start at today's default), after a
    // confirmation: the unsaved subject of the test send is kept as version 3 first, as the dialog
    // says, and a fourth version equals the first.
    await page.click('.template-versions li[data-version="1"] button.revert');
    await page.locator('dialog.confirm', { hasText: '件名・本文・送信設定に戻します。いまの内容も版として残ります。' }).waitFor();
    await page.click('dialog.confirm button.primary');
    await page.waitForFunction(
      () =>
        document.querySelector('main > .notice')?.textContent === '編集中の内容を第3版として保存し、第1版の内容を第4版として保存しました。',
    );
    assert.equal(await subject.inputValue(), 'ご予約が確定しました（{{productName}}）');
    await page.locator('.template-versions li[data-version="4"] .state', { hasText: '現在' }).waitFor();
    const reverted = (await ui.api.call('/api/admin/email-templates/list', {})).templates.find((t) => t.kind === 'reservation-confirmed')!;
    assert.deepEqual([reverted.version, reverted.isDefault], [4, true]);
    assert.equal(smtp.mails.length, 1, 'only the test send was emailed');
    await page.context().close();
  });

  test('the send switch exists only where the kind may be turned off, and takes effect at once', async () => {
    const page = await ui.signedIn('email-templates', LAPTOP);
    await page.locator('#template-subject').waitFor();
    assert.equal(await page.locator('#template-enabled').count(), 0, 'the receipt is always sent');
    await page.click('.kind-tabs button[data-kind=reservation-fulfilled]');
    const toggle = page.locator('#template-enabled');
    assert.equal(await toggle.isChecked(), true);
    await toggle.click();
    await page.waitForFunction(() =>
      document.querySelector('main > .notice')?.textContent?.startsWith('「お渡し完了」のメールを送信しないようにしました'),
    );
    assert.equal(
      (await ui.api.call('/api/admin/email-templates/list', {})).templates.find((t) => t.kind === 'reservation-fulfilled')!.enabled,
      false,
    );
    assert.equal(await page.locator('.kind-tabs button[data-kind=reservation-fulfilled] .tab-mark').textContent(), '送信しない');
    await toggle.click();
    await page.waitForFunction(() =>
      document.querySelector('main > .notice')?.textContent?.startsWith('「お渡し完了」のメールを送信するようにしました'),
    );
    assert.equal(
      (await ui.api.call('/api/admin/email-templates/list', {})).templates.find((t) => t.kind === 'reservation-fulfilled')!.enabled,
      true,
    );
    await page.context().close();
  });

  test('on a phone everything stacks and nothing scrolls sideways', async () => {
    const page = await ui.signedIn('email-templates?kind=restock-available', PHONE);
    await page.locator('#preview-subject', { hasText: '【入荷のお知らせ】' }).waitFor();
    await page.locator('#template-body').fill('配信停止なし');
    await page
      .locator('#template-body-error li', { hasText: '必須の差し込み項目 {{unsubscribeUrl}}（配信停止URL）が本文にありません' })
      .waitFor();
    await noSidewaysScroll(page);
    await screenshot(page, SHOTS, '04-template-phone');
    await page.locator('#template-body').fill('入荷しました\n\n{{unsubscribeUrl}}\n\n{{shopSignature}}');
    await page.locator('#template-body-error').waitFor({ state: 'hidden' });
    await page.click('.kind-tabs button[data-kind=reservation-received]');
    await page.locator('dialog.confirm', { hasText: '保存していない変更があります' }).waitFor();
    await page.click('dialog.confirm button:not(.primary)');
    assert.equal(
      await page.locator('.kind-tabs button[aria-pressed=true]').getAttribute('data-kind'),
      'restock-available',
      'staying keeps the draft',
    );
    assert.equal(await page.locator('#template-body').inputValue(), '入荷しました\n\n{{unsubscribeUrl}}\n\n{{shopSignature}}');
    assert.deepEqual(ui.record.errors, []);
    assert.deepEqual(
      ui.record.console.filter((line) => line.includes('Content Security Policy')),
      [],
      'the preview breaks no rule of the page',
    );
    await page.context().close();
  });

  test('leaving the screen with unsaved text asks first: staying keeps the text and the address, discarding moves on', async () => {
    const page = await ui.signedIn('email-templates?kind=reservation-fulfilled', LAPTOP);
    await page.locator('#preview-subject', { hasText: 'お渡し' }).waitFor();
    await page.locator('#template-subject').fill('まだ保存していない件名');
    const askedToLeave = page.locator('dialog.confirm', {
      hasText: '「お渡し完了」のメールの編集中の内容は保存されていません。破棄してこの画面を離れますか？',
    });

    await page.click('nav a[href="#/messages"]');
    await askedToLeave.waitFor();
    await screenshot(page, SHOTS, '10-leave-unsaved-laptop');
    await page.click('dialog.confirm button:not(.primary)');
    await page.waitForFunction(() => location.hash === '#/email-templates?kind=reservation-fulfilled');
    assert.equal(await page.locator('#template-subject').inputValue(), 'まだ保存していない件名');
    assert.equal(await page.locator('nav a[aria-current]').textContent(), 'メールテンプレート');

    await page.click('button.sign-out');
    await page.locator('dialog.confirm', { hasText: '破棄してログアウトしますか？' }).waitFor();
    await page.click('dialog.confirm button:not(.primary)');
    assert.equal(await page.locator('#template-subject').inputValue(), 'まだ保存していない件名', 'still signed in, the text kept');

    await page.click('nav a[href="#/messages"]');
    await askedToLeave.waitFor();
    await page.click('dialog.confirm button.primary');
    await page.locator('h1', { hasText: '送信履歴' }).waitFor();
    assert.equal(await page.evaluate(() => location.hash), '#/messages');
    assert.deepEqual(ui.record.errors, []);
    await page.context().close();
  });
});

describe('予約のステータス変更 and the customer’s email', () => {
  const ids = new Map<string, { id: string; productSlug: string }>();
  const reserve = async (email: string) => {
    const { reservationId } = await ui.api.call('/api/reservation', {
      name: `${email.split('@')[0]} 様`,
      email,
      productSlug: 'kumo-vco-2',
    });
    ids.set(email, { id: reservationId, productSlug: 'kumo-vco-2' });
  };
  /** The status emails queued for a reservation, by template kind: what the receiver will get. */
  const statusEmailsQueued = async (email: string) => {
    const rows = await ui.app.services.database.db
      .selectFrom('outbox')
      .select('idempotency_key')
      .where('record_id', '=', ids.get(email)!.id)
      .where('channel', '=', 'email')
      .execute();
    return rows.map((r) => r.idempotency_key.split('/')[2]).filter((kind) => kind !== 'confirmation-email');
  };
  const subjects = (address: string) => mailsTo(address).map((m) => m.parsed.subject ?? '');
  const row = (page: Page, email: string) => page.locator(`tr[data-id="${ids.get(email)!.id}"]`);

  before(async () => {
    for (const email of ['off@example.com', 'on@example.com', 'bulk1@example.com', 'bulk2@example.com']) await reserve(email);
    await waitUntil(() => ['off', 'on', 'bulk1', 'bulk2'].every((n) => mailsTo(`${n}@example.com`).length === 1), {
      what: 'the four receipts',
    });
  });

  test('a single move says the customer will be emailed; switched off, nothing is sent; on, one email', async () => {
    const page = await ui.signedIn('reservations', LAPTOP);
    await row(page, 'off@example.com').locator('select').selectOption('confirmed');
    const dialog = page.locator('dialog.confirm');
    await dialog.locator('.email-choice', { hasText: 'お客様に「予約確定」のメールを送信する' }).waitFor();
    assert.equal(await dialog.locator('#notify-customer').isChecked(), true, 'on unless staff switch it off');
    await screenshot(page, SHOTS, '05-status-dialog-laptop');
    await dialog.locator('#notify-customer').uncheck();
    await dialog.locator('button.primary').click();
    await row(page, 'off@example.com')
      .locator('+ tr.row-note', { hasText: 'ステータスを「確定」に変更しました。お客様へのメールは送信していません。' })
      .waitFor();

    await row(page, 'on@example.com').locator('select').selectOption('confirmed');
    await dialog.locator('button.primary').click();
    await row(page, 'on@example.com').locator('+ tr.row-note', { hasText: '「予約確定」のメールを送信します。' }).waitFor();
    await waitUntil(() => mailsTo('on@example.com').length === 2, { what: 'the confirmation email' });
    assert.match(subjects('on@example.com')[1]!, /^ご予約が確定しました（Kumo VCO II）$/);
    assert.deepEqual(await statusEmailsQueued('on@example.com'), ['reservation-confirmed']);
    assert.deepEqual(await statusEmailsQueued('off@example.com'), [], 'switched off: nothing queued');
    assert.equal(mailsTo('off@example.com').length, 1, 'and nothing received but the receipt');

    // A kind the shop turned off: the dialog says no email will go, and none does.
    (await ui.app.call('/api/admin/email-templates/update', { kind: 'reservation-fulfilled', enabled: false })).success();
    await row(page, 'on@example.com').locator('select').selectOption('fulfilled');
    await dialog
      .locator('.email-choice.off', { hasText: '「お渡し完了」のメールは送信しない設定のため、お客様にメールは送信されません' })
      .waitFor();
    assert.equal(await dialog.locator('#notify-customer').count(), 0);
    await dialog.locator('button.primary').click();
    await row(page, 'on@example.com')
      .locator('+ tr.row-note', { hasText: 'ステータスを「お渡し済み」に変更しました。お客様へのメールは送信していません。' })
      .waitFor();
    assert.deepEqual(await statusEmailsQueued('on@example.com'), ['reservation-confirmed']);
    (await ui.app.call('/api/admin/email-templates/update', { kind: 'reservation-fulfilled', enabled: true })).success();

    // A move back to pending sends nothing and asks nothing.
    await row(page, 'off@example.com').locator('select').selectOption('pending');
    await row(page, 'off@example.com').locator('+ tr.row-note', { hasText: 'ステータスを「未対応」に変更しました。' }).waitFor();
    assert.equal(await dialog.count(), 0);
    await page.context().close();
  });

  test('a bulk move asks once, for every customer whose reservation moves', async () => {
    const page = await ui.signedIn('reservations', PHONE);
    for (const email of ['bulk1@example.com', 'bulk2@example.com']) await row(page, email).locator('td.select input').check();
    await page.selectOption('#bulk-status', 'confirmed');
    await page.click('.selection button:has-text("ステータスを変更")');
    const dialog = page.locator('dialog.confirm');
    await dialog.locator('.email-choice', { hasText: 'ステータスが変わる予約のお客様それぞれに「予約確定」のメールを送信する' }).waitFor();
    await noSidewaysScroll(page);
    await screenshot(page, SHOTS, '06-bulk-status-dialog-phone');
    await dialog.locator('button.primary').click();
    await page.waitForFunction(
      () =>
        document.querySelector('main > .notice')?.textContent === '2 件の予約を「確定」に変更しました。「予約確定」のメールを送信します。',
    );
    await waitUntil(() => mailsTo('bulk1@example.com').length === 2 && mailsTo('bulk2@example.com').length === 2, {
      what: 'both confirmations',
    });

    for (const email of ['bulk1@example.com', 'bulk2@example.com']) await row(page, email).locator('td.select input').check();
    await page.selectOption('#bulk-status', 'cancelled');
    await page.click('.selection button:has-text("ステータスを変更")');
    await dialog.locator('#notify-customer').uncheck();
    await dialog.locator('button.primary').click();
    await page.waitForFunction(
      () =>
        document.querySelector('main > .notice')?.textContent ===
        '2 件の予約を「キャンセル」に変更しました。お客様へのメールは送信していません。',
    );
    for (const email of ['bulk1@example.com', 'bulk2@example.com'])
      assert.deepEqual(await statusEmailsQueued(email), ['reservation-confirmed']);
    assert.deepEqual(ui.record.errors, []);
    await page.context().close();
  });
});

describe('送信履歴', () => {
  const dead = new Map<string, string>();
  /** A reservation whose receipt the SMTP server refuses until the outbox gives it up. */
  const reserveUndeliverable = async (email: string) => {
    smtp.failNext(1000);
    const { reservationId } = await ui.api.call('/api/reservation', { name: '失敗 様', email, productSlug: 'hayate-wavefolder' });
    await waitUntil(async () => (await ui.api.call('/api/admin/messages/list', { recordId: reservationId, status: 'dead' })).total === 1, {
      what: `${email}'s receipt given up`,
      timeoutMs: 30_000,
    });
    smtp.failNext(0);
    dead.set(email, reservationId);
  };

  before(async () => {
    for (const email of ['dead1@example.com', 'dead2@example.com', 'dead3@example.com']) await reserveUndeliverable(email);
  });

  test('filters by status and channel; 再送 of one dead message delivers it', async () => {
    // The dashboard's given-up card leads here.
    const page = await ui.signedIn('dashboard', LAPTOP);
    await page.click('.card.alert a:has-text("送信履歴で確認して再送する")');
    await page.waitForFunction(() => location.hash === '#/messages?status=dead');
    assert.equal(await page.locator('#messages-status').inputValue(), 'dead');
    await page.selectOption('#messages-status', '');
    const rows = page.locator('table.records tbody tr:not(.row-note)');
    await rows.first().waitFor();
    const all = (await ui.api.call('/api/admin/messages/list', { pageSize: 100 })).total;
    assert.equal(await page.locator('.pager .page').textContent(), `1 / 1 ページ（全 ${all} 件）`);
    await screenshot(page, SHOTS, '07-messages-laptop');

    await page.selectOption('#messages-status', 'dead');
    await page.locator('.pager .page', { hasText: '（全 3 件）' }).first().waitFor();
    assert.deepEqual(await rows.locator('.message-status').allTextContents(), Array(3).fill('送信失敗（試行 3 回）'));
    assert.match(page.url(), /#\/messages\?status=dead$/);
    assert.ok((await rows.first().locator('.last-error').textContent())!.includes('451'), 'the SMTP server’s reason');

    await page.selectOption('#messages-status', '');
    await page.selectOption('#messages-channel', 'chat');
    await rows.first().locator('td[data-label=チャネル]', { hasText: 'チャット' }).waitFor();
    assert.deepEqual([...new Set(await rows.locator('td[data-label=チャネル]').allTextContents())], ['チャット']);
    assert.deepEqual([...new Set(await rows.locator('td[data-label=種類]').allTextContents())], ['予約の通知']);
    assert.deepEqual(
      [...new Set(await rows.locator('.message-status').allTextContents())],
      ['送信せず（送信先が未設定）'],
      'no webhook is configured',
    );

    await page.selectOption('#messages-channel', 'email');
    await page.selectOption('#messages-status', 'dead');
    const target = rows.filter({ hasText: 'dead1@example.com' });
    await target.locator('button.retry').click();
    await page.locator('tr.row-note', { hasText: '再送の待ち行列に戻しました。まもなく送信されます。' }).waitFor();
    await waitUntil(() => mailsTo('dead1@example.com').length === 1, { what: 'the retried receipt' });
    const [mail] = mailsTo('dead1@example.com');
    assert.match(mail!.parsed.subject ?? '', /^ご予約を受け付けました/);
    await page.click('.filters button:has-text("再読み込み")');
    await page.locator('.pager .page', { hasText: '（全 2 件）' }).first().waitFor();
    await page.context().close();
  });

  test('the selected dead messages are sent again after a confirmation; a reservation’s history is one tap from its row', async () => {
    const page = await ui.signedIn('messages?status=dead', PHONE);
    const rows = page.locator('table.records tbody tr:not(.row-note)');
    await page.locator('.pager .page', { hasText: '（全 2 件）' }).first().waitFor();
    await page.locator('table.records thead input[type=checkbox]').check();
    await page.click('.selection button:has-text("選択した送信失敗を再送")');
    await page.locator('dialog.confirm', { hasText: '選択した送信失敗の 2 件をもう一度送信します。' }).waitFor();
    await noSidewaysScroll(page);
    await screenshot(page, SHOTS, '08-messages-retry-phone');
    await page.click('dialog.confirm button.primary');
    await page.waitForFunction(
      () => document.querySelector('main > .notice')?.textContent === '2 件を再送の待ち行列に戻しました。まもなく送信されます。',
    );
    await waitUntil(() => mailsTo('dead2@example.com').length === 1 && mailsTo('dead3@example.com').length === 1, {
      what: 'both receipts delivered',
    });
    await page.locator('.placeholder', { hasText: '該当するメッセージはありません。' }).waitFor();
    assert.equal(await rows.count(), 0);

    // From the reservation's row to its own history.
    await page.goto(`${ui.app.url}/admin#/reservations`);
    const id = dead.get('dead2@example.com')!;
    await page.locator(`tr[data-id="${id}"] a.history-link`).click();
    const { number, name } = (await ui.api.call('/api/admin/reservations/get', { id })).reservation;
    await page.locator('h1', { hasText: `ご予約番号 ${number} の送信履歴` }).waitFor();
    await rows.first().waitFor();
    assert.deepEqual(new Set(await rows.locator('td[data-label=対象]').allTextContents()), new Set([`${number} ${name}`]));
    assert.deepEqual((await rows.locator('td[data-label=種類]').allTextContents()).sort(), ['予約の通知', '予約受付']);
    await noSidewaysScroll(page);
    await screenshot(page, SHOTS, '09-reservation-history-phone');
    await page.click('button:has-text("すべての送信履歴を表示")');
    await page.locator('h1', { hasText: /^送信履歴$/ }).waitFor();
    assert.deepEqual(ui.record.errors, []);
    await page.context().close();
  });
});
