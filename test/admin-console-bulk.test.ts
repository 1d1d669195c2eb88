import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { insertReservations } from '../src/reservations/store.ts';
import { ARTIFACTS } from './helpers/browser.ts';
import { consoleSuite, LAPTOP, PHONE } from './helpers/console.ts';

// Bulk status changes that say what they do, in headless Chromium at a laptop's and a phone's
// size: the action bar is not there while nothing is selected; a move that would email more than 20
// customers states how many emails will go and works only once that number is typed (20 or fewer
// ask as before); and a bulk result names each record it could not change, with why, keeping
// exactly those selected, a record that has left the filtered list meanwhile included.

const SHOTS = 'admin-console-bulk';
const SIZES = [
  ['laptop', LAPTOP, { many: 'tsuki-dual-lfo', few: 'larkspur-multimode-filter' }],
  ['phone', PHONE, { many: 'hayate-wavefolder', few: 'kumo-vco-2' }],
] as const;
/** Pending ones, more than a page (50) with the others, so 条件に一致する N 件をすべて選択 is offered. */
const MANY = 60;
/** Cancelled ones, which cannot be confirmed, and one confirmed already: neither emails. */
const CANCELLED = 3;
const SELECTED = MANY + CANCELLED + 1;

const numbers = new Map<string, number>();
/** The reservation kept in the archive. */
let kept: string;

const ui = consoleSuite({}, async () => {
  const start = Date.parse('2026-01-01T00:00:00.000Z');
  const rows = SIZES.flatMap(([size, , products], s) => [
    ...Array.from({ length: SELECTED }, (_, i) => ({
      id: `res_many_${size}_${String(i).padStart(2, '0')}`,
      name: `多数 ${size} ${i}`,
      email: `many-${size}-${i}@example.jp`,
      product_slug: products.many,
      status: i < CANCELLED ? 'cancelled' : i === CANCELLED ? 'confirmed' : 'pending',
      // The cancelled ones newest, on the list's first page.
      created_at: new Date(start + (s * 100 + SELECTED - i) * 60_000).toISOString(),
    })),
    ...Array.from({ length: 21 }, (_, i) => ({
      id: `res_few_${size}_${String(i).padStart(2, '0')}`,
      name: `少数 ${size} ${i}`,
      email: `few-${size}-${i}@example.jp`,
      product_slug: products.few,
      status: 'pending',
      created_at: new Date(start + (s * 100 + i) * 60_000).toISOString(),
    })),
  ]);
  for (const [id, number] of await insertReservations(ui.app.services.database.db, rows)) numbers.set(id, number);
  // One in the archive and two messages in the log (unsent: no provider), for their lists' bars.
  ({ reservationId: kept } = await ui.api.call('/api/reservation', {
    name: '保管 一郎',
    email: 'kept@example.jp',
    productSlug: 'oddwave-logic',
  }));
  await ui.api.call('/api/admin/reservations/archive', { ids: [{ id: kept, productSlug: 'oddwave-logic' }] });
});

/** What the screen shows (a page of 50 cards is thousands of pixels tall). */
const screenshot = (page: Page, name: string) => page.screenshot({ path: join(ARTIFACTS, SHOTS, `${name}.png`) });
const rows = (page: Page) => page.locator('table.records tbody tr:not(.row-note)');
const loaded = (page: Page) =>
  page.waitForFunction(() => !document.querySelector('.list[aria-busy]') && document.querySelector('table.records tbody tr'));
const bar = (page: Page) => page.locator('.selection');
const count = (page: Page) => page.locator('.selection .count');
const notice = (page: Page) => page.locator('main > .notice');
const confirmButton = (page: Page) => page.locator('dialog.confirm[open] button.primary');
const stored = async (id: string) => (await ui.api.call('/api/admin/reservations/get', { id })).reservation;

/** Asks for a bulk move of the selected rows to 確定. */
async function moveToConfirmed(page: Page): Promise<void> {
  await page.selectOption('#bulk-status', 'confirmed');
  await page.click('.selection button:has-text("ステータスを変更")');
  await page.locator('dialog.confirm[open]').waitFor();
}

for (const [size, viewport, products] of SIZES) {
  describe(`bulk status changes (${size})`, () => {
    test('the action bar is not there while nothing is selected', async () => {
      const page = await ui.signedIn(`reservations?product=${products.few}`, viewport);
      await loaded(page);
      assert.equal(await bar(page).isVisible(), false, 'no bar, no 「0 件選択中」');
      const padding = () => page.evaluate(() => parseFloat(getComputedStyle(document.querySelector('main')!).paddingBottom));
      const unselected = await padding();
      assert.ok(unselected < 40, `no room kept for a pinned bar: ${unselected} px`);
      await screenshot(page, `01-nothing-selected-${size}`);
      await rows(page).first().locator('td.select input').check();
      await count(page).filter({ hasText: '1 件選択中' }).waitFor();
      assert.equal(await bar(page).isVisible(), true);
      if (size === 'phone') {
        const box = (await bar(page).boundingBox())!;
        assert.ok(
          box.y + box.height <= viewport.height + 1 && box.y > viewport.height / 2,
          'pinned to the bottom once something is selected',
        );
      }
      await rows(page).first().locator('td.select input').uncheck();
      await bar(page).waitFor({ state: 'hidden' });
      assert.equal(await padding(), unselected);
      // The archive's bar, and 送信履歴's, too.
      for (const view of ['reservations?view=archived', 'messages']) {
        await page.goto(`${ui.app.url}/admin#/${view}`);
        const box = page.locator('table.records tbody tr td.select input').first();
        await box.waitFor();
        assert.equal(await bar(page).isVisible(), false, view);
        await box.check();
        await count(page).filter({ hasText: '1 件選択中' }).waitFor();
        await box.uncheck();
        await bar(page).waitFor({ state: 'hidden' });
      }
      await page.context().close();
    });

    test('20 emails ask as before; more state the number, which must be typed before the move works', async () => {
      const page = await ui.signedIn(`reservations?product=${products.few}`, viewport);
      await loaded(page);
      const boxes = rows(page).locator('td.select input');
      for (let i = 0; i < 20; i++) await boxes.nth(i).check();
      await count(page).filter({ hasText: '20 件選択中' }).waitFor();
      await moveToConfirmed(page);
      assert.equal(await page.locator('dialog.confirm[open] .typed-count').count(), 0, '20: no number to type');
      assert.equal(await confirmButton(page).isEnabled(), true);
      await page.click('dialog.confirm[open] button:not(.primary)');

      // Every match: 64 selected, of which 3 are cancelled (they cannot be confirmed) and 1 is
      // confirmed already, so 60 emails would go.
      await page.goto(`${ui.app.url}/admin#/reservations?product=${products.many}`);
      await loaded(page);
      await page.locator('th.select input').check();
      await page.click(`text=条件に一致する ${SELECTED} 件をすべて選択`);
      await count(page)
        .filter({ hasText: `${SELECTED} 件選択中` })
        .waitFor();
      await moveToConfirmed(page);
      const typed = page.locator('dialog.confirm[open] .typed-count');
      assert.equal(await typed.locator('.warning').textContent(), `お客様に「予約確定」のメールが ${MANY} 通 送信されます。`);
      assert.equal(await typed.locator('label').textContent(), `確認のため、送信するメールの件数（${MANY}）を入力してください`);
      assert.equal(await confirmButton(page).isDisabled(), true, 'nothing typed: the button does not work');
      await typed.locator('input').fill(String(MANY - 1));
      assert.equal(await confirmButton(page).isDisabled(), true, 'another number: still not');
      // Cleared, the switch sends no email: nothing to type.
      await page.locator('#notify-customer').uncheck();
      assert.equal(await typed.isVisible(), false);
      assert.equal(await confirmButton(page).isEnabled(), true);
      await page.locator('#notify-customer').check();
      assert.equal(await confirmButton(page).isDisabled(), true);
      // As a Japanese keyboard types it: full-width digits.
      await typed.locator('input').fill(String(MANY).replace(/\d/g, (d) => String.fromCharCode(0xff10 + Number(d))));
      assert.equal(await confirmButton(page).isEnabled(), true);
      await screenshot(page, `02-typed-count-${size}`);
      await confirmButton(page).click();

      // The 60 moved (an email each), and the 3 that could not are named, and stay selected.
      const failures = page.locator('.bulk-failures');
      await failures.waitFor();
      assert.equal(
        await notice(page).textContent(),
        `${MANY} 件の予約を「確定」に変更しました。「予約確定」のメールを送信します。すでに「確定」だった 1 件はそのままです。${CANCELLED} 件は変更できませんでした（それぞれの理由を一覧の上に表示しています。選択したままです）。`,
      );
      assert.equal(await failures.locator('h2').textContent(), `「確定」に変更できなかった予約 ${CANCELLED} 件（選択したままです）`);
      const cancelled = Array.from({ length: CANCELLED }, (_, i) => `res_many_${size}_${String(i).padStart(2, '0')}`);
      assert.deepEqual(
        (await failures.locator('li').allTextContents()).sort(),
        cancelled.map((id, i) => `ご予約番号 ${numbers.get(id)}（多数 ${size} ${i}）: 「キャンセル」からは変更できません`).sort(),
      );
      await count(page)
        .filter({ hasText: `${CANCELLED} 件選択中` })
        .waitFor();
      await loaded(page);
      const checked = await rows(page).evaluateAll((trs) =>
        trs.filter((tr) => tr.querySelector<HTMLInputElement>('td.select input')?.checked).map((tr) => tr.getAttribute('data-id')),
      );
      assert.deepEqual(checked.sort(), cancelled, 'exactly the failed ones stay selected');
      const emails = await Promise.all(
        Array.from({ length: SELECTED }, (_, i) => `res_many_${size}_${String(i).padStart(2, '0')}`).map(
          async (id) =>
            (await ui.api.call('/api/admin/messages/list', { recordId: id })).messages.filter((m) => m.kind === 'reservation-confirmed')
              .length,
        ),
      );
      assert.equal(
        emails.reduce((sum, n) => sum + n, 0),
        MANY,
        'as many emails as stated',
      );
      await screenshot(page, `03-failures-named-${size}`);
      await page.context().close();
    });

    test('a bulk result names each record that failed and keeps exactly those selected, one that left the filtered list included', async () => {
      const ids = Array.from({ length: 5 }, (_, i) => `res_few_${size}_${String(i + 15).padStart(2, '0')}`);
      const page = await ui.signedIn(`reservations?status=pending&product=${products.few}`, viewport);
      await loaded(page);
      for (const id of ids) await page.locator(`tr[data-id="${id}"] td.select input`).check();
      await count(page).filter({ hasText: '5 件選択中' }).waitFor();
      // Behind the screen's back, a colleague confirms one (it leaves 未対応) and archives another.
      const [taken, archived] = [ids[1]!, ids[3]!];
      const shown = await stored(taken);
      await ui.api.call('/api/admin-reservations-status', {
        id: taken,
        productSlug: shown.productSlug,
        status: 'confirmed',
        notifyCustomer: false,
      });
      await ui.api.call('/api/admin/reservations/archive', { ids: [{ id: archived, productSlug: shown.productSlug }] });

      await page.selectOption('#bulk-status', 'cancelled');
      await page.click('.selection button:has-text("ステータスを変更")');
      await page.locator('#notify-customer').uncheck();
      await confirmButton(page).click();
      const failures = page.locator('.bulk-failures');
      await failures.waitFor();
      assert.match((await notice(page).textContent())!, /^3 件の予約を「キャンセル」に変更しました。.*2 件は変更できませんでした/);
      const named = Object.fromEntries(
        await failures.locator('li').evaluateAll((items) => items.map((li) => [li.getAttribute('data-id'), li.textContent])),
      ) as Record<string, string>;
      const nameOf = (id: string) => `少数 ${size} ${Number(id.slice(-2))}`;
      assert.deepEqual(named, {
        [taken]: `ご予約番号 ${numbers.get(taken)}（${nameOf(taken)}）: 他の担当者が先に変更していました（いまは「確定」）`,
        [archived]: `ご予約番号 ${numbers.get(archived)}（${nameOf(archived)}）: 他の担当者がこの予約をアーカイブしました`,
      });
      await count(page).filter({ hasText: '2 件選択中' }).waitFor();
      await loaded(page);
      assert.equal(await page.locator(`tr[data-id="${taken}"]`).count(), 0, 'it has left 未対応, and is named all the same');
      assert.equal((await stored(ids[0]!)).status, 'cancelled');
      // Each is a link to its page.
      assert.match((await failures.locator(`li[data-id="${taken}"] a.record-link`).getAttribute('href'))!, new RegExp(`record=${taken}`));
      await screenshot(page, `04-left-the-list-${size}`);
      // Cleared on purpose, the selection and the names go.
      await page.click('.selection button:has-text("選択を解除")');
      await bar(page).waitFor({ state: 'hidden' });
      assert.equal(await failures.isVisible(), false);

      // Restoring from the archive: one a colleague restored first is named, and stays selected.
      await page.click('button:has-text("アーカイブ済み")');
      await page.locator(`tr[data-id="${kept}"] td.select input`).check();
      await ui.api.call('/api/admin/reservations/unarchive', { ids: [{ id: kept, productSlug: 'oddwave-logic' }] });
      await page.click('.selection button:has-text("選択を元に戻す")');
      await failures.locator(`li[data-id="${kept}"]`, { hasText: '（保管 一郎）: アーカイブされていません' }).waitFor();
      assert.equal(await failures.locator('h2').textContent(), '元に戻せなかった予約 1 件（選択したままです）');
      await count(page).filter({ hasText: '1 件選択中' }).waitFor();
      await ui.api.call('/api/admin/reservations/archive', { ids: [{ id: kept, productSlug: 'oddwave-logic' }] });
      await page.context().close();
    });
  });
}

/** Reservations of their own product for each size's bulk move of more than one request's worth. */
const LARGE = { laptop: { product: 'tsuki-octave-lfo', n: 1_100 }, phone: { product: 'oddwave-logic', n: 600 } } as const;

for (const [size, viewport] of SIZES) {
  test(`${size}: ${LARGE[size].n.toLocaleString('en')} reservations move in ${Math.ceil(LARGE[size].n / 500)} requests, with progress, none one by one`, async () => {
    const { product, n } = LARGE[size];
    const start = Date.parse('2026-02-01T00:00:00.000Z');
    await insertReservations(
      ui.app.services.database.db,
      Array.from({ length: n }, (_, i) => ({
        id: `res_large_${size}_${String(i).padStart(4, '0')}`,
        name: `大量 ${i}`,
        email: `large-${size}-${i}@example.jp`,
        product_slug: product,
        status: 'pending',
        created_at: new Date(start + i * 60_000).toISOString(),
      })),
    );
    const page = await ui.signedIn(`reservations?status=pending&product=${product}`, viewport);
    await loaded(page);
    const calls: string[] = [];
    page.on('request', (request) => void (request.method() === 'POST' && calls.push(new URL(request.url()).pathname)));
    const progress: string[] = [];
    await page.exposeFunction('noteProgress', (text: string) => void progress.push(text));
    await page.evaluate(() => {
      const target = document.querySelector('.selection .progress')!;
      new MutationObserver(
        () => void (window as unknown as { noteProgress: (t: string) => void }).noteProgress(target.textContent ?? ''),
      ).observe(target, { childList: true, characterData: true, subtree: true });
    });
    await page.locator('th.select input').check();
    await page.click(`text=条件に一致する ${n.toLocaleString('ja-JP')} 件をすべて選択`);
    await count(page)
      .filter({ hasText: `${n.toLocaleString('ja-JP')} 件選択中` })
      .waitFor();
    await page.selectOption('#bulk-status', 'cancelled');
    await page.click('.selection button:has-text("ステータスを変更")');
    await page.locator('#notify-customer').uncheck();
    await confirmButton(page).click();
    await notice(page)
      .filter({ hasText: `${n.toLocaleString('ja-JP')} 件の予約を「キャンセル」に変更しました。` })
      .waitFor({ timeout: 120_000 });
    assert.equal(calls.filter((path) => path === '/api/admin/reservations/bulk-status').length, Math.ceil(n / 500));
    assert.equal(calls.filter((path) => path === '/api/admin-reservations-status').length, 0, 'none one by one');
    assert.ok(progress.includes(`変更中… 500 / ${n.toLocaleString('ja-JP')} 件`), progress.join(' | '));
    const left = await ui.api.call('/api/admin-reservations-list', { status: 'pending', productSlug: product, page: 1, pageSize: 1 });
    assert.equal(left.total, 0, 'every one moved');
    await page.context().close();
  });
}

describe('the page', () => {
  test('had no errors', () => {
    assert.deepEqual(ui.record.errors, []);
  });
});
