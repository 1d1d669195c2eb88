import assert from 'node:assert/strict';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { unsubscribeToken } from '../src/messaging/links.ts';
import { insertReservations } from '../src/reservations/store.ts';
import { ARTIFACTS, screenshot } from './helpers/browser.ts';
import { consoleSuite, PHONE, SIZES } from './helpers/console.ts';

// Staff working side by side in the console, in Chromium at a laptop's and a phone's
// size: no lost update between two tabs, finding a record by number, name or address, paging and
// filters kept in the URL, and a bulk archive of more than one request's worth. 1,240 reservations,
// written through the store in bulk.

const SHOTS = 'admin-console-staff';
const BULK = 1_200;

const ui = consoleSuite({}, async () => {
  const start = Date.parse('2026-01-01T00:00:00.000Z');
  const row = (id: string, i: number, name: string, email: string, product: string) => ({
    id,
    name,
    email,
    product_slug: product,
    status: 'pending',
    created_at: new Date(start + i * 60_000).toISOString(),
  });
  await insertReservations(
    ui.app.services.database.db,
    Array.from({ length: BULK }, (_, i) =>
      row(`res_bulk_${String(i).padStart(4, '0')}`, i, `一括 ${i}`, `bulk${i}@example.com`, 'tsuki-dual-lfo'),
    ),
  );
  await insertReservations(
    ui.app.services.database.db,
    Array.from({ length: 40 }, (_, i) =>
      row(`res_shop_${String(i).padStart(2, '0')}`, BULK + i, `顧客 ${i}`, `customer${i}@example.jp`, 'kumo-vco-2'),
    ),
  );
});

const rows = (page: Page) => page.locator('table.records tbody tr:not(.row-note)');

/** Types `text` in a list's search box, sends it, and waits for the list it finds. */
async function searchFor(page: Page, text: string): Promise<void> {
  await page.fill('#filter-q', text);
  await page.click('form[role=search] button');
  await page.waitForFunction((q) => new URLSearchParams(location.hash.split('?')[1]).get('q') === q, text);
  await page.waitForFunction(() => !document.querySelector('.list[aria-busy]'));
}
const stored = async (id: string) => (await ui.api.call('/api/admin-reservations-list', { q: id })).reservations.find((r) => r.id === id)!;

describe('two members of staff on the same reservation', () => {
  test('a memo saved on a stale screen undoes nothing: the colleague’s cancellation and memo stay, and the row says what changed', async () => {
    const target = 'res_shop_38';
    const mine = await ui.signedIn('reservations?status=pending&product=kumo-vco-2');
    const theirs = await ui.signedIn('reservations?status=pending&product=kumo-vco-2');
    const myRow = mine.locator(`tr[data-id="${target}"]`);
    const theirRow = theirs.locator(`tr[data-id="${target}"]`);
    await myRow.waitFor();
    await theirRow.waitFor();
    assert.equal(await rows(mine).nth(1).getAttribute('data-id'), target, 'row 2 of 未対応');

    // The colleague cancels it (after confirming) and writes why.
    await theirRow.locator('td.status select').selectOption('cancelled');
    await theirs.locator('dialog[open] button.primary').click();
    await theirs.locator('tr.row-note.success', { hasText: '「キャンセル」に変更しました' }).waitFor();
    await theirRow.locator('button.edit-notes').click();
    await theirRow.locator('textarea').fill('お客様のご都合でキャンセル');
    await theirRow.locator('td.notes button.primary').click();
    await theirs.locator('tr.row-note.success', { hasText: 'メモを保存しました。' }).waitFor();

    // On the stale screen: a memo typed and saved.
    await myRow.locator('button.edit-notes').click();
    await myRow.locator('textarea').fill('入金待ち');
    await myRow.locator('td.notes button.primary').click();
    const note = mine.locator('tr.row-note.error');
    await note.waitFor();
    assert.equal(
      await note.textContent(),
      '管理トークン（スクリプトやAPI）からこの予約が先に変更されていました（ステータスが「未対応」から「キャンセル」に変わっています。メモが書き換えられています）。最新の内容を表示しています。あなたの変更は保存されていません。',
    );
    const now = await stored(target);
    assert.deepEqual([now.status, now.notes], ['cancelled', 'お客様のご都合でキャンセル']);
    // The row shows the record as it now is, and the unsaved memo is still there to reuse.
    assert.equal(await myRow.locator('td.status select').inputValue(), 'cancelled');
    assert.equal(await myRow.locator('textarea').inputValue(), '入金待ち');
    assert.equal(await myRow.locator('.notes-saved').textContent(), '保存されているメモ: お客様のご都合でキャンセル');
    await screenshot(mine, SHOTS, '01-lost-update-refused');

    // A refused move names statuses in Japanese, never their codes.
    await ui.api.call('/api/admin-reservations-status', { id: 'res_shop_37', productSlug: 'kumo-vco-2', status: 'confirmed' });
    await ui.api.call('/api/admin-reservations-status', { id: 'res_shop_37', productSlug: 'kumo-vco-2', status: 'fulfilled' });
    const other = mine.locator('tr[data-id="res_shop_37"]');
    await other.locator('td.status select').selectOption('cancelled');
    await mine.locator('dialog[open] button.primary').click();
    await mine.locator('tr.row-note.error', { hasText: 'お渡し済み' }).waitFor();
    assert.doesNotMatch((await mine.locator('main > .notice').textContent())!, /fulfilled|cancelled|pending/);
    await mine.setViewportSize(PHONE);
    await other.scrollIntoViewIfNeeded();
    await mine.screenshot({ path: join(ARTIFACTS, SHOTS, '02-lost-update-phone.png') });
    await mine.context().close();
    await theirs.context().close();
  });
});

describe('finding a reservation', () => {
  test('by number, name or address; the number is shown; page and filters survive a reload', async () => {
    const page = await ui.signedIn('reservations?product=kumo-vco-2');
    await rows(page).first().waitFor();
    const search = (text: string) => searchFor(page, text);
    await search('res_shop_07');
    assert.deepEqual(await rows(page).evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-id'))), ['res_shop_07']);
    // The row shows the number customers quote; searched as they say it (＃ and full-width digits too), it finds the one.
    const number = (await rows(page).locator('td.id code').textContent())!;
    assert.match(number, /^\d{4,}$/);
    await search(`＃${number.replace(/\d/g, (d) => String.fromCharCode(0xff10 + Number(d)))}`);
    assert.deepEqual(await rows(page).evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-id'))), ['res_shop_07']);
    await search('顧客 12');
    assert.deepEqual(await rows(page).locator('td[data-label="お名前"]').allTextContents(), ['顧客 12']);
    await search('CUSTOMER3');
    assert.deepEqual(
      (await rows(page).locator('td.email .address').allTextContents()).sort(),
      ['customer3@example.jp', ...Array.from({ length: 10 }, (_, i) => `customer3${i}@example.jp`)].sort(),
    );
    await screenshot(page, SHOTS, '03-search-by-address');

    // Paging over every product: 1,240 active ones, 50 a page.
    await page.goto(`${ui.app.url}/admin#/reservations`);
    await page.reload();
    await page.locator('.pager .page', { hasText: '1 / 25 ページ（全 1,240 件）' }).first().waitFor();
    assert.equal(await rows(page).count(), 50);
    await page.click('text=次へ →');
    await page.locator('.pager .page', { hasText: '2 / 25 ページ' }).first().waitFor();
    assert.match(page.url(), /#\/reservations\?page=2$/);
    await page.selectOption('#filter-product', 'tsuki-dual-lfo');
    await page.locator('.pager .page', { hasText: '1 / 24 ページ（全 1,200 件）' }).first().waitFor();
    await page.click('text=次へ →');
    await page.locator('.pager .page', { hasText: '2 / 24 ページ' }).first().waitFor();
    await page.reload();
    await page.locator('.pager .page', { hasText: '2 / 24 ページ（全 1,200 件）' }).first().waitFor();
    assert.equal(await page.locator('#filter-product').inputValue(), 'tsuki-dual-lfo');
    assert.equal(await rows(page).first().getAttribute('data-id'), 'res_bulk_1149');
    // The archive view is kept in the URL as well.
    await page.click('button:has-text("アーカイブ済み")');
    await page.waitForFunction(() => location.hash === '#/reservations?view=archived');
    await screenshot(page, SHOTS, '04-paging');
    await page.context().close();
  });
});

describe('bulk archive', () => {
  test(`${BULK.toLocaleString('en')} rows on a phone: every match selected, confirmed, sent 500 at a time, summed up`, async () => {
    const page = await ui.signedIn('reservations?product=tsuki-dual-lfo', PHONE);
    await rows(page).first().waitFor();
    await page.locator('th.select input').check();
    await page.click(`text=条件に一致する ${BULK.toLocaleString('ja-JP')} 件をすべて選択`);
    await page.locator('.selection .count', { hasText: `${BULK.toLocaleString('ja-JP')} 件選択中` }).waitFor();
    // The bar stays at the bottom of the screen while the cards scroll.
    await page.evaluate(() => window.scrollTo(0, 4000));
    const bar = await page.evaluate(() => document.querySelector('.selection')!.getBoundingClientRect().toJSON() as DOMRect);
    assert.ok(bar && bar.y + bar.height <= PHONE.height + 1 && bar.y > PHONE.height / 2, JSON.stringify(bar));
    // What the phone's screen shows (the whole page is 16,000 px of cards).
    await page.screenshot({ path: join(ARTIFACTS, SHOTS, '05-bulk-selected-phone.png') });
    const sizes: number[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/admin/reservations/archive'))
        sizes.push((JSON.parse(request.postData()!) as { ids: unknown[] }).ids.length);
    });
    await page.click('text=選択をアーカイブ');
    await page
      .locator('dialog[open] .confirm-message', { hasText: `${BULK.toLocaleString('ja-JP')} 件の予約をアーカイブします` })
      .waitFor();
    await page.locator('dialog[open] button.primary').click();
    await page
      .locator('main > .notice.success', { hasText: `${BULK.toLocaleString('ja-JP')} 件の予約をアーカイブしました。` })
      .waitFor({ timeout: 60_000 });
    assert.deepEqual(sizes, [500, 500, 200]);
    await page.locator('.placeholder', { hasText: '該当する予約はありません。' }).waitFor();
    const archived = await ui.api.call('/api/admin/reservations/archives/list', { productSlug: 'tsuki-dual-lfo', pageSize: 1 });
    assert.equal(archived.total, BULK);
    await screenshot(page, SHOTS, '06-bulk-archived-phone');
    await page.context().close();
  });
});

describe('the archive view', () => {
  test('has the search box: an archived reservation found by its id, and by its number as a customer says it', async () => {
    const page = await ui.signedIn('reservations?view=archived');
    await rows(page).first().waitFor();
    const search = (text: string) => searchFor(page, text);
    await search('res_bulk_1149');
    assert.deepEqual(await rows(page).evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-id'))), ['res_bulk_1149']);
    const number = (await rows(page).locator('a.record-link code').textContent())!;
    await search(`#${number}`);
    assert.deepEqual(await rows(page).evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-id'))), ['res_bulk_1149']);
    await screenshot(page, SHOTS, '07-archive-search');
    await page.context().close();
  });
});

describe('the page', () => {
  test('had no errors', () => {
    assert.deepEqual(ui.record.errors, []);
  });
});

describe('who changed it first is named: the customer, a colleague by name', () => {
  const AIKO = { email: 'mori.aiko@example.jp', name: '森 愛子', role: 'staff', password: 'aiko first password' } as const;
  before(async () => {
    await ui.api.call('/api/admin/staff/create', AIKO);
  });
  for (const [size, viewport] of SIZES) {
    test(`${size}: a customer's own cancel is theirs, not a colleague's; a colleague's move names them`, async () => {
      const reserve = async (name: string) =>
        ui.api.call('/api/reservation', { name, email: `who-${size}-${name.length}@example.jp`, productSlug: 'kumo-vco-2' });
      const byCustomer = await reserve('客 取消');
      const byColleague = await reserve('同僚 確定する');
      const mine = await ui.signedIn(`reservations?status=pending&product=kumo-vco-2&q=who-${size}`, viewport);
      const row = (id: string) => mine.locator(`tr[data-id="${id}"]`);
      await row(byCustomer.reservationId).waitFor();
      await row(byColleague.reservationId).waitFor();

      // The customer cancels on their own page.
      const token = unsubscribeToken(ui.app.services.config.unsubscribeSecret, byCustomer.reservationId);
      const cancel = await ui.app.request('/reservations/manage', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token }),
      });
      assert.equal(cancel.status, 200);
      await row(byCustomer.reservationId).locator('td.status select').selectOption('confirmed');
      await mine.locator('dialog[open] button.primary').click();
      const note = mine.locator(`tr[data-id="${byCustomer.reservationId}"] + tr.row-note.error`);
      await note.waitFor();
      assert.equal(
        await note.textContent(),
        'お客様ご本人がこの予約を先に変更していました（ステータスが「未対応」から「キャンセル」に変わっています）。最新の内容を表示しています。あなたの変更は保存されていません。',
      );
      await screenshot(mine, SHOTS, `${size}-who-changed-first-customer`);

      // A colleague signed in as herself confirms the other one.
      const theirs = await ui.asAccount(AIKO, `reservations?status=pending&q=who-${size}`, viewport);
      await theirs.locator(`tr[data-id="${byColleague.reservationId}"] td.status select`).selectOption('confirmed');
      await theirs.locator('dialog[open] button.primary').click();
      await theirs.locator('tr.row-note.success', { hasText: '「確定」に変更しました' }).waitFor();
      await row(byColleague.reservationId).locator('td.status select').selectOption('cancelled');
      await mine.locator('dialog[open] button.primary').click();
      const colleagueNote = mine.locator(`tr[data-id="${byColleague.reservationId}"] + tr.row-note.error`);
      await colleagueNote.waitFor();
      assert.match(
        (await colleagueNote.textContent())!,
        /^森 愛子さんがこの予約を先に変更していました（ステータスが「未対応」から「確定」に変わっています）/,
      );
      assert.equal((await stored(byColleague.reservationId)).status, 'confirmed');
      await theirs.context().close();
      await mine.context().close();
    });
  }
});
