import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { consoleSuite, openRestockConfirmation, PHONE } from './helpers/console.ts';
import { ADMIN_TOKEN } from './helpers/app.ts';
import { recordPage, screenshot } from './helpers/browser.ts';

// The admin console in a real browser (headless Chromium) against the whole service on SQLite,
// with data made through the API: what the shop's staff do, and what must never happen to the token.

const SHOTS = 'admin-console';
const TOKEN_KEY = 'tenpo.adminToken';

/** The ids of the reservations made, by the customer's name. */
const reservationIds = new Map<string, string>();

const ui = consoleSuite({}, async () => {
  const reserve = async (name: string, productSlug: string) => {
    const { reservationId } = await ui.api.call('/api/reservation', {
      name,
      email: `customer${reservationIds.size + 1}@example.com`,
      productSlug,
    });
    reservationIds.set(name, reservationId);
    return { id: reservationId, productSlug };
  };
  // 25 archived ones first, so the archive has two pages.
  const old = [];
  for (let i = 1; i <= 25; i++) old.push(await reserve(`archived${i}`, 'kumo-vco-2'));
  await ui.api.call('/api/admin/reservations/archive', { ids: old });
  await reserve('山田 太郎', 'kumo-vco-2');
  await reserve('佐藤 花子', 'hayate-wavefolder');
  await reserve('John Smith', 'kumo-vco-2');
  for (const email of ['a@example.com', 'b@example.com', 'c@example.com'])
    await ui.api.call('/api/notify', { email, productSlug: 'kumo-vco-2' });
  await ui.api.call('/api/notify', { email: 'd@example.com', productSlug: 'hayate-wavefolder' });
  for (const q of ['シンセ', 'vco', 'vco', 'ないものねだり']) await ui.app.request(`/api/search?q=${encodeURIComponent(q)}`);
});

/** A new tab (its own sessionStorage) on the console. */
async function openConsole(viewport = { width: 1280, height: 900 }): Promise<Page> {
  const context = await ui.browser.newContext({ viewport });
  const page = await context.newPage();
  recordPage(page, ui.record);
  await page.goto(`${ui.app.url}/admin`);
  return page;
}

async function signIn(page: Page, token = ADMIN_TOKEN): Promise<void> {
  await page.fill('#token', token);
  await page.press('#token', 'Enter');
}

const signedIn = (view: string, viewport = { width: 1280, height: 900 }) => ui.signedIn(view, viewport);

const notice = (page: Page) => page.locator('main > .notice').textContent();
const rows = (page: Page) => page.locator('table.records tbody tr');

describe('signing in', () => {
  test('a wrong token shows a clear message and keeps nothing', async () => {
    const page = await openConsole();
    await signIn(page, 'not-the-token');
    const message = page.locator('.login-page .notice.error');
    await message.waitFor();
    assert.equal(await message.textContent(), '管理トークンが正しくありません。入力したトークンを確認してください。');
    assert.equal(await page.evaluate((key) => sessionStorage.getItem(key), TOKEN_KEY), null);
    assert.equal(await page.locator('header.top').count(), 0);
    await screenshot(page, SHOTS, '01-wrong-token');
    await page.context().close();
  });

  test('the right token opens the console and is kept in this tab’s sessionStorage only', async () => {
    const page = await openConsole();
    await screenshot(page, SHOTS, '02-sign-in');
    await signIn(page);
    await page.waitForSelector('.cards');
    const storage = await page.evaluate(
      (key) => ({ session: sessionStorage.getItem(key), local: localStorage.length, cookie: document.cookie, url: location.href }),
      TOKEN_KEY,
    );
    assert.deepEqual(storage, { session: ADMIN_TOKEN, local: 0, cookie: '', url: `${ui.app.url}/admin` });
    // A reload keeps the session; signing out forgets the token.
    await page.reload();
    await page.waitForSelector('.cards');
    await page.click('button.sign-out');
    await page.waitForSelector('.login');
    assert.equal(await page.evaluate((key) => sessionStorage.getItem(key), TOKEN_KEY), null);
    await page.context().close();
  });

  test('a token that stops working mid-session sends back to sign-in, saying why', async () => {
    const page = await signedIn('reservations');
    await rows(page).first().waitFor();
    await page.evaluate((key) => sessionStorage.setItem(key, 'rotated-away'), TOKEN_KEY);
    await page.click('text=再読み込み');
    const message = page.locator('.login-page .notice.error');
    await message.waitFor();
    assert.match((await message.textContent())!, /管理トークンが無効になりました/);
    await page.context().close();
  });
});

describe('reservations', () => {
  test('lists the active ones, filters by product and status, and says when none match', async () => {
    const page = await signedIn('reservations');
    await rows(page).first().waitFor();
    assert.equal(await rows(page).count(), 3);
    assert.deepEqual(await rows(page).locator('td[data-label="お名前"]').allTextContents(), ['John Smith', '佐藤 花子', '山田 太郎']);
    await page.selectOption('#filter-product', 'hayate-wavefolder');
    await page.waitForFunction(() => document.querySelectorAll('table.records tbody tr').length === 1);
    assert.equal(await rows(page).locator('td[data-label="商品"]').textContent(), 'ハヤテ ウェーブフォルダー');
    await page.selectOption('#filter-status', 'fulfilled');
    await page.locator('.placeholder', { hasText: '該当する予約はありません。' }).waitFor();
    await screenshot(page, SHOTS, '03-reservations-empty-filter');
    await page.context().close();
  });

  test('offers only the allowed moves, changes a status and edits the notes', async () => {
    const page = await signedIn('reservations');
    const row = page.locator(`tr[data-id="${reservationIds.get('山田 太郎')}"]`);
    await row.waitFor();
    const status = row.locator('td.status select');
    assert.deepEqual(await status.locator('option').allTextContents(), ['未対応', '確定', 'キャンセル']);
    await status.selectOption('confirmed');
    // A move that emails the customer asks first, saying so (test/admin-console-emails.test.ts).
    await page.locator('dialog[open] button.primary', { hasText: '「確定」にする' }).click();
    await page.waitForFunction(() => document.querySelector('main > .notice')?.textContent?.includes('確定'));
    assert.equal(await notice(page), 'ステータスを「確定」に変更しました。「予約確定」のメールを送信します。');
    // From confirmed the moves are different.
    assert.deepEqual(await row.locator('td.status select option').allTextContents(), ['未対応', '確定', 'お渡し済み', 'キャンセル']);

    // The list is dense: the memo is text until asked to edit it.
    assert.equal(await row.locator('textarea').count(), 0);
    await row.locator('button.edit-notes').click();
    await row.locator('textarea').fill('店頭受け取り希望。<b>土曜</b>に来店');
    await row.locator('td.notes button.primary').click();
    await page.waitForFunction(() => document.querySelector('main > .notice')?.textContent === 'メモを保存しました。');
    assert.equal(await page.locator('tr.row-note.success').textContent(), 'メモを保存しました。');
    const stored = (await ui.api.call('/api/admin-reservations-list', {})).reservations.find((r) => r.name === '山田 太郎')!;
    assert.deepEqual({ status: stored.status, notes: stored.notes }, { status: 'confirmed', notes: '店頭受け取り希望。<b>土曜</b>に来店' });
    // The note is shown as the text it is, not as markup.
    assert.equal(await row.locator('.notes-text').textContent(), '店頭受け取り希望。<b>土曜</b>に来店');
    assert.equal(await page.locator('b', { hasText: '土曜' }).count(), 0);
    await screenshot(page, SHOTS, '04-reservation-updated');
    await page.context().close();
  });

  test('a move another member of staff made impossible is refused with a clear message', async () => {
    const page = await signedIn('reservations');
    const row = page.locator(`tr[data-id="${reservationIds.get('佐藤 花子')}"]`);
    await row.waitFor();
    // Archived behind the page's back.
    await ui.api.call('/api/admin/reservations/archive', {
      ids: [{ id: reservationIds.get('佐藤 花子')!, productSlug: 'hayate-wavefolder' }],
    });
    await row.locator('td.status select').selectOption('cancelled');
    // A cancellation asks first.
    await page.locator('dialog[open] button.primary', { hasText: '「キャンセル」にする' }).click();
    await page.locator('main > .notice.error').waitFor();
    assert.match((await notice(page))!, /他の担当者がこの予約をアーカイブしました/);
    assert.equal(await row.locator('td.status select').inputValue(), 'pending', 'the select shows the status the record still has');
    await screenshot(page, SHOTS, '05-conflict-message');
    await ui.api.call('/api/admin/reservations/unarchive', {
      ids: [{ id: reservationIds.get('佐藤 花子')!, productSlug: 'hayate-wavefolder' }],
    });
    await page.context().close();
  });

  test('archives the selected ones, pages through the archive and restores from it', async () => {
    const page = await signedIn('reservations');
    await rows(page).first().waitFor();
    const before = await rows(page).count();
    await page.locator(`tr[data-id="${reservationIds.get('John Smith')}"] td.select input`).check();
    await page.locator(`tr[data-id="${reservationIds.get('佐藤 花子')}"] td.select input`).check();
    assert.equal(await page.locator('.selection .count').textContent(), '2 件選択中');
    await page.click('text=選択をアーカイブ');
    await page.locator('dialog[open] button.primary').click();
    await page.waitForFunction(() => document.querySelector('main > .notice')?.textContent === '2 件の予約をアーカイブしました。');
    await page.waitForFunction((n) => document.querySelectorAll('table.records tbody tr').length === n, before - 2);

    await page.click('button:has-text("アーカイブ済み")');
    const pager = page.locator('.pager .page').first();
    await pager.waitFor();
    assert.equal(await pager.textContent(), '1 / 2 ページ（全 27 件）');
    assert.equal(await rows(page).count(), 20);
    assert.deepEqual(await archiveStatuses(page), TODAYS_STATUSES, 'the archive filters on today’s statuses, not 予約済み（旧）');
    // Most recently archived first.
    assert.deepEqual((await rows(page).locator('td[data-label="お名前"]').allTextContents()).slice(0, 2).sort(), [
      'John Smith',
      '佐藤 花子',
    ]);
    await screenshot(page, SHOTS, '06-archive-page-1');
    await page.click('text=次へ →');
    await page.waitForFunction(() => document.querySelector('.pager .page')?.textContent?.startsWith('2 / 2'));
    assert.equal(await rows(page).count(), 7);
    await page.click('text=← 前へ');
    await page.waitForFunction(() => document.querySelector('.pager .page')?.textContent?.startsWith('1 / 2'));

    await page.locator(`tr[data-id="${reservationIds.get('John Smith')}"] td.select input`).check();
    await page.click('text=選択を元に戻す');
    await page.waitForFunction(() => document.querySelector('main > .notice')?.textContent === '1 件の予約を元に戻しました。');
    await page.waitForFunction(() => document.querySelector('.pager .page')?.textContent === '1 / 2 ページ（全 26 件）');
    const active = (await ui.api.call('/api/admin-reservations-list', {})).reservations.map((r) => r.name);
    assert.ok(active.includes('John Smith') && !active.includes('佐藤 花子'));
    await page.context().close();
  });

  test('is usable on a phone: rows become cards and nothing scrolls sideways', async () => {
    const page = await signedIn('reservations', PHONE);
    await rows(page).first().waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390);
    // No header row: the columns that sort are a row of buttons above the cards, the others hidden.
    assert.equal(await page.locator('table.records thead th', { hasText: 'メール' }).isVisible(), false);
    assert.equal(await page.locator('table.records thead th.sortable button', { hasText: '商品' }).isVisible(), true);
    await screenshot(page, SHOTS, '07-reservations-phone');
    await page.click('button:has-text("アーカイブ済み")');
    await page.locator('.pager .page').first().waitFor();
    assert.deepEqual(await archiveStatuses(page), TODAYS_STATUSES);
    await page.context().close();
  });
});

const TODAYS_STATUSES = ['すべて', '未対応', '確定', 'お渡し済み', 'キャンセル'];
/** The status filter's choices, as staff read them. */
const archiveStatuses = (page: Page) => page.locator('#filter-status option').allTextContents();

describe('restock subscriptions', () => {
  test('send a restock notification after a confirmation that says how many will be emailed', async () => {
    const page = await signedIn('subscriptions');
    await rows(page).first().waitFor();
    assert.equal(await rows(page).count(), 4);
    // The picker says how many wait for each product.
    await page
      .locator('#restock-product option[value="kumo-vco-2"]', { hasText: 'Kumo VCO II（通知待ち 3 件）' })
      .waitFor({ state: 'attached' });
    const dialog = await openRestockConfirmation(page, 'kumo-vco-2');
    assert.equal(
      await dialog.locator('.confirm-count').textContent(),
      '「Kumo VCO II」の再入荷通知を3 件のメールアドレスに送信します。送信した登録は「通知済み」になります。',
    );
    assert.match((await dialog.locator('.warning').textContent())!, /公開チャットにも/);
    await screenshot(page, SHOTS, '08-restock-confirm');
    await dialog.locator('button.primary').click();
    await page.waitForFunction(
      () => document.querySelector('main > .notice')?.textContent === '「Kumo VCO II」の再入荷通知を 3 件送信しました。',
    );
    const notified = (await ui.api.call('/api/admin-notify-list', { status: 'notified', productSlug: 'kumo-vco-2' })).subscriptions;
    assert.equal(notified.length, 3);
    await page.waitForFunction(
      () => [...document.querySelectorAll('td.status select')].filter((s) => (s as HTMLSelectElement).value === 'notified').length === 3,
    );

    // Nobody is left waiting for it: the confirmation says so and offers nothing to send.
    await page.click('text=再入荷通知を送信…');
    await dialog.waitFor();
    assert.equal(await dialog.locator('.confirm-count').textContent(), '「Kumo VCO II」に通知待ちの登録はありません。');
    assert.equal(await dialog.locator('button.primary').count(), 0);
    await dialog.locator('button', { hasText: '閉じる' }).click();
    await screenshot(page, SHOTS, '09-restock-sent');
    await page.context().close();
  });

  test('change a status, archive and restore, like reservations', async () => {
    const page = await signedIn('subscriptions');
    await page.selectOption('#filter-product', 'hayate-wavefolder');
    await page.waitForFunction(() => document.querySelectorAll('table.records tbody tr').length === 1);
    const row = rows(page).first();
    assert.deepEqual(await row.locator('td.status select option').allTextContents(), ['通知待ち', '通知済み', '配信停止']);
    await row.locator('td.status select').selectOption('unsubscribed');
    await page.locator('dialog[open] button.primary').click();
    await page.waitForFunction(() => document.querySelector('main > .notice')?.textContent === 'ステータスを「配信停止」に変更しました。');
    await rows(page).first().locator('td.select input').check();
    await page.click('text=選択をアーカイブ');
    await page.locator('dialog[open] button.primary').click();
    await page.locator('.placeholder', { hasText: '該当する登録はありません。' }).waitFor();
    await page.click('button:has-text("アーカイブ済み")');
    await page.locator('.pager .page', { hasText: '1 / 1 ページ（全 1 件）' }).first().waitFor();
    assert.equal(await rows(page).locator('td[data-label="ステータス"]').textContent(), '配信停止');
    await rows(page).first().locator('td.select input').check();
    await page.click('text=選択を元に戻す');
    await page.locator('.placeholder', { hasText: 'アーカイブ済みの登録はありません。' }).waitFor();
    await page.context().close();
  });
});

describe('dashboard', () => {
  test('shows the figures and the charts', async () => {
    const page = await signedIn('dashboard');
    await page.waitForSelector('.cards');
    const stats = await ui.api.call('/api/admin-dashboard-stats', {});
    const cards = await page.locator('.card .value').allTextContents();
    const active = (figures: { total: number; archived: number }) => figures.total - figures.archived;
    assert.deepEqual(
      cards,
      [
        stats.reservations.total - stats.reservations.byStatus['cancelled']!,
        active(stats.subscriptions),
        stats.searches.total,
        stats.outbox.sent,
        stats.outbox.pending,
        stats.outbox.dead,
        stats.outbox.skipped,
        stats.deliverability.complaints,
      ].map((n) => n.toLocaleString('ja-JP')),
    );
    // No email provider is configured here: every email is skipped, and the dashboard says so rather than that nothing failed.
    assert.ok(stats.outbox.skipped > 0 && stats.outbox.dead === 0);
    const sub = (label: string) => page.locator('.card', { hasText: label }).locator('.sub').textContent();
    assert.equal(await sub('送られていないメール'), `${stats.outbox.skipped} 件のメールは送信設定がないため送られていません（過去30日）`);
    assert.equal(
      await page
        .locator('.card.alert .label')
        .allTextContents()
        .then((labels) => labels.join()),
      '送られていないメール',
    );
    assert.equal(await sub('配信できなかった通知'), '配信の失敗はありません');
    // The list's own count is named as such, cancelled ones included.
    const listed = (await ui.api.call('/api/admin-reservations-list', {})).reservations.length;
    assert.equal(active(stats.reservations), listed);
    assert.match(
      (await sub('予約（キャンセルを除く）'))!,
      new RegExp(`予約一覧には ${listed} 件（キャンセルを含む）、アーカイブ済みは ${stats.reservations.archived} 件です。`),
    );
    assert.equal(stats.searches.total, 4);
    assert.deepEqual(await page.locator('.chart h2').allTextContents(), [
      '予約受付の台数',
      '予約（ステータス別・アーカイブ済みを含む）',
      '再入荷通知の登録（ステータス別・アーカイブ済みを含む）',
      '商品別の予約と通知待ち',
      '日別の検索数（過去30日）',
      'よく検索されたキーワード（過去30日）',
      '結果が0件だったキーワード（過去30日）',
    ]);
    const daily = page.locator('.chart.wide svg rect.bar');
    assert.equal(await daily.count(), 30);
    const [, month, day] = stats.searches.perDay.at(-1)!.date.split('-');
    assert.equal(await daily.last().locator('title').textContent(), `${Number(month)}/${Number(day)}: 4 件`, 'today’s column');
    const zeroResult = page.locator('.chart', { hasText: '結果が0件だった' });
    assert.match((await zeroResult.locator('svg').getAttribute('aria-label'))!, /ないものねだり 1/);
    await screenshot(page, SHOTS, '10-dashboard');
    await page.setViewportSize(PHONE);
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390);
    await screenshot(page, SHOTS, '11-dashboard-phone');
    await page.context().close();
  });
});

describe('the token', () => {
  test('never appears in a URL, the page’s console or the service’s log, and the page had no errors', () => {
    assert.ok(ui.record.urls.length > 20, 'the pages were recorded');
    for (const url of ui.record.urls) assert.ok(!url.includes(ADMIN_TOKEN), url);
    for (const line of ui.record.console) assert.ok(!line.includes(ADMIN_TOKEN), line);
    assert.deepEqual(ui.record.errors, []);
    assert.ok(ui.app.logs.length > 0);
    const logs = JSON.stringify(ui.app.logs);
    for (const token of [ADMIN_TOKEN, 'not-the-token', 'rotated-away']) assert.ok(!logs.includes(token), `${token} is not logged`);
    for (const line of ui.record.console) assert.ok(!line.includes('not-the-token'), line);
  });

  test('the console page allows scripts from this origin only, and its bundled files are cached for good', async () => {
    const response = await ui.app.request('/admin');
    const csp = response.headers.get('content-security-policy')!;
    assert.match(csp, /script-src 'self';/);
    assert.match(csp, /form-action 'none'/);
    assert.equal(response.headers.get('referrer-policy'), 'no-referrer');
    assert.equal(response.headers.get('cache-control'), 'no-cache');
    const html = await response.text();
    assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)/, 'no inline script');
    const files = [...html.matchAll(/(?:src|href)="(\/admin\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    assert.ok(files.some((path) => path.endsWith('.css')) && files.some((path) => path.endsWith('.js')));
    for (const path of files) {
      const file = await ui.app.request(path);
      assert.equal(file.status, 200, path);
      assert.equal(file.headers.get('cache-control'), 'public, max-age=31536000, immutable', path);
      assert.doesNotMatch(await file.text(), /\bfrom ?['"](zod|node:)/, `${path} imports no package at run time`);
    }
  });
});
