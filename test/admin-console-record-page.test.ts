import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { insertReservations } from '../src/reservations/store.ts';
import { consoleSuite, SIZES } from './helpers/console.ts';
import { ARTIFACTS, screenshot } from './helpers/browser.ts';

// The record screens in Chromium with 3,000 reservations, at a laptop's and a phone's size: a bulk status
// change of selected rows (with its confirmation), sorting by a column header (aria-sort, kept in
// the URL), and a reservation's own page, where a status move and a memo edit made in the browser
// appear in its history, a reload keeps the page, and the way back finds the list as it was.

const SHOTS = 'admin-console-record-page';
const ROWS = 3_000;
const PRODUCTS = ['kumo-vco-2', 'tsuki-dual-lfo', 'hayate-wavefolder'];

const ui = consoleSuite({}, async () => {
  const start = Date.parse('2026-01-01T00:00:00.000Z');
  await insertReservations(
    ui.app.services.database.db,
    Array.from({ length: ROWS }, (_, i) => ({
      id: `res_page_${String(i).padStart(4, '0')}`,
      // Names out of creation order, so sorting by name shows a different first page.
      name: `顧客 ${String((i * 7919) % ROWS).padStart(4, '0')}`,
      email: `customer${i}@example.jp`,
      product_slug: PRODUCTS[i % PRODUCTS.length]!,
      status: 'pending',
      created_at: new Date(start + i * 60_000).toISOString(),
    })),
  );
});

const rows = (page: Page) => page.locator('table.records tbody tr:not(.row-note)');
const loaded = (page: Page) =>
  page.waitForFunction(() => !document.querySelector('.list[aria-busy]') && document.querySelector('table.records tbody tr'));
const hashParams = (page: Page) => new URLSearchParams(new URL(page.url()).hash.split('?')[1] ?? '');
/** What the screen shows (a page of 50 cards is thousands of pixels tall). */
const screen = (page: Page, name: string) => page.screenshot({ path: join(ARTIFACTS, SHOTS, `${name}.png`) });
const stored = async (id: string) => (await ui.api.call('/api/admin/reservations/get', { id })).reservation;

for (const [size, viewport] of SIZES) {
  describe(`the reservations list and a reservation's page (${size}, ${ROWS.toLocaleString('en')} reservations)`, () => {
    test('bulk status change of the selected rows, after a confirmation', async () => {
      const page = await ui.signedIn('reservations?status=pending', viewport);
      await loaded(page);
      await page
        .locator('.pager .page', { hasText: /全 [\d,]+ 件/ })
        .first()
        .waitFor();
      assert.equal(await rows(page).count(), 50, 'a page of 50, not thousands');
      const chosen = await rows(page).evaluateAll((trs) => trs.slice(0, 3).map((tr) => tr.getAttribute('data-id')!));
      for (const id of chosen) await page.locator(`tr[data-id="${id}"] td.select input`).check();
      await page.locator('.selection .count', { hasText: '3 件選択中' }).waitFor();
      await page.selectOption('#bulk-status', 'confirmed');
      await page.click('text=ステータスを変更…');
      const dialog = page.locator('dialog[open]');
      await dialog.locator('.confirm-message', { hasText: '選択した 3 件の予約のステータスを「確定」に変更します。' }).waitFor();
      await screen(page, `${size}-1-bulk-confirm`);
      await dialog.locator('button.primary').click();
      await page.locator('main > .notice.success', { hasText: '3 件の予約を「確定」に変更しました。' }).waitFor();
      for (const id of chosen) assert.equal((await stored(id)).status, 'confirmed', id);
      await loaded(page);
      // The list still shows pending ones only: the three moved out of it.
      const now = await rows(page).evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-id')!));
      assert.ok(chosen.every((id) => !now.includes(id)));
      await screen(page, `${size}-2-bulk-done`);
      // A status move cancelled at its confirmation changes nothing.
      await page.locator(`tr[data-id="${now[0]}"] td.select input`).check();
      await page.selectOption('#bulk-status', 'cancelled');
      await page.click('text=ステータスを変更…');
      await page.locator('dialog[open] button', { hasText: 'やめる' }).click();
      assert.equal((await stored(now[0]!)).status, 'pending');
      await page.context().close();
    });

    test('a column header sorts the list; the order is kept in the URL and across a reload', async () => {
      const page = await ui.signedIn('reservations', viewport);
      await loaded(page);
      assert.equal(await page.locator('th[aria-sort]').getAttribute('aria-sort'), 'descending', 'newest first, on 受付日時');
      assert.match((await page.locator('th[aria-sort]').textContent())!, /受付日時/);
      await page.click('button.sort:has-text("お名前")');
      await page.waitForSelector('th[aria-sort="ascending"]:has-text("お名前")');
      await loaded(page);
      const byName = (
        await ui.api.call('/api/admin-reservations-list', { sort: { by: 'name', order: 'asc' }, page: 1, pageSize: 50 })
      ).reservations.map((r) => r.id);
      assert.deepEqual(await rows(page).evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-id'))), byName);
      await page.click('button.sort:has-text("お名前")');
      await page.waitForSelector('th[aria-sort="descending"]:has-text("お名前")');
      await loaded(page);
      assert.deepEqual([hashParams(page).get('sort'), hashParams(page).get('order')], ['name', 'desc']);
      await page.reload();
      await page.waitForSelector('th[aria-sort="descending"]:has-text("お名前")');
      await loaded(page);
      const last = (await ui.api.call('/api/admin-reservations-list', { sort: { by: 'name', order: 'desc' }, page: 1, pageSize: 1 }))
        .reservations[0]!;
      assert.equal(await rows(page).first().getAttribute('data-id'), last.id);
      await screen(page, `${size}-3-sorted-by-name`);
      await page.context().close();
    });

    test('a reservation’s page: a status move and a memo edit made here show in its history; reload keeps it; back finds the list as it was', async () => {
      const listView = 'reservations?status=pending&product=kumo-vco-2&sort=name&order=asc&page=2';
      const page = await ui.signedIn(listView, viewport);
      await loaded(page);
      const target = (await rows(page).first().getAttribute('data-id'))!;
      // The list shows the number customers quote, and the page is headed with it.
      const number = (await page.locator(`tr[data-id="${target}"] a.record-link code`).textContent())!;
      assert.match(number, /^\d{4,}$/);
      await page.locator(`tr[data-id="${target}"] a.record-link`).click();
      await page.waitForSelector('.timeline li');
      assert.equal(hashParams(page).get('record'), target);
      assert.equal(await page.locator('.record-head h1 code').textContent(), number);
      // コピー sits beside the number it copies, the status at the far end.
      const box = async (selector: string) => (await page.locator(`.record-head ${selector}`).boundingBox())!;
      const [heading, copy, state] = [await box('h1'), await box('button.copy'), await box('.state')];
      assert.ok(copy.x - (heading.x + heading.width) < 16, `コピー ${copy.x - (heading.x + heading.width)} px after the number`);
      assert.ok(state.x + state.width > viewport.width - 80, 'the status at the right');
      assert.deepEqual(await page.locator('.timeline .what').allTextContents(), ['予約を受け付けました']);

      // A move to 確定, confirmed in its dialog (which offers the customer's email).
      await page.locator('.record-actions .action.status select').selectOption('confirmed');
      await page.locator('dialog[open] .confirm-message', { hasText: '「未対応」から「確定」に変更します。' }).waitFor();
      await page.locator('dialog[open] button.primary').click();
      await page.locator('.page-note.success', { hasText: 'ステータスを「確定」に変更しました。' }).waitFor();
      await page.locator('.timeline .what', { hasText: 'ステータスを「未対応」から「確定」に変更（お客様にメールを送信）' }).waitFor();
      // The memo, edited on the page.
      await page.click('.record-actions button.edit-notes');
      await page.fill('.record-actions textarea', '入金確認済み。12月中旬に発送予定');
      await page.click('.record-actions .notes-actions button.primary');
      await page.locator('.page-note.success', { hasText: 'メモを保存しました。' }).waitFor();
      await page.locator('.timeline .what', { hasText: 'メモを変更: 「入金確認済み。12月中旬に発送予定」' }).waitFor();
      const now = await stored(target);
      assert.deepEqual([now.status, now.notes], ['confirmed', '入金確認済み。12月中旬に発送予定']);
      // The page's history is the service's, newest first, each by staff; and the email it queued.
      const whats = await page.locator('.timeline .what').allTextContents();
      assert.equal(whats[0], 'メモを変更: 「入金確認済み。12月中旬に発送予定」');
      assert.ok(
        whats.some((what) => what.startsWith('メール「予約確定」（')),
        whats.join(' / '),
      );
      assert.equal(whats.at(-1), '予約を受け付けました');
      await screenshot(page, SHOTS, `${size}-4-record-page`);

      await page.reload();
      await page.locator('.timeline .what', { hasText: 'メモを変更' }).waitFor();
      assert.equal(await page.locator('.record-head h1 code').textContent(), number);

      await page.click('text=予約の一覧に戻る');
      await loaded(page);
      const params = hashParams(page);
      assert.deepEqual(
        [params.get('status'), params.get('product'), params.get('sort'), params.get('order'), params.get('page'), params.get('record')],
        ['pending', 'kumo-vco-2', 'name', 'asc', '2', null],
      );
      await page.locator('.pager .page', { hasText: /^2 \// }).first().waitFor();
      assert.equal(await page.locator('#filter-status').inputValue(), 'pending');
      await page.waitForSelector('th[aria-sort="ascending"]:has-text("お名前")');
      assert.equal(await page.locator(`tr[data-id="${target}"]`).count(), 0, 'confirmed now: no longer among the pending');
      await page.context().close();
    });
  });
}

describe('the pages', () => {
  test('had no errors', () => {
    assert.deepEqual(ui.record.errors, []);
  });
});
