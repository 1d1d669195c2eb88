import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { insertReservations } from '../src/reservations/store.ts';
import { consoleSuite, SIZES } from './helpers/console.ts';
import { ARTIFACTS } from './helpers/browser.ts';
import { newerPending } from './helpers/reservation-rows.ts';

// Finding a customer in the console as Japanese staff type them, in Chromium at a laptop's and a
// phone's size: the search box folds both sides (the IME's full-width space, hiragana, katakana and
// half-width katakana, full-width letters, accents), a reservation is found by its short number
// (`1003`, `#1003`), which every row shows on one line and its page offers to copy, and the archive
// view has a search box of its own that folds the same way.

const SHOTS = 'admin-console-find';
const NAMES = ['鈴木 一郎', 'すずき はなこ', 'ｽｽﾞｷ ｼﾞﾛｳ', 'ＳＵＺＵＫＩ Taro', 'Müller Hans', '佐藤 花子'];
/** Archived before the screens are opened: found only in the archive view. */
const ARCHIVED = 'スズキ アーカイブ';

const numbers = new Map<string, number>();

const ui = consoleSuite({}, async () => {
  for (const [i, name] of [...NAMES, ARCHIVED].entries()) {
    const response = await ui.app.request('/api/reservation', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name, email: `find${i}@example.jp`, productSlug: 'kumo-vco-2' }),
    });
    assert.equal(response.status, 200, name);
    const answer = (await response.json()) as { reservationId: string; reservationNumber: number };
    numbers.set(name, answer.reservationNumber);
    if (name === ARCHIVED)
      await ui.api.call('/api/admin/reservations/archive', { ids: [{ id: answer.reservationId, productSlug: 'kumo-vco-2' }] });
  }
  // Strangers whose id or address holds 佐藤 花子's or the archived one's digits, newer than them and
  // sorting before them by name.
  const [sato, archived] = [numbers.get('佐藤 花子')!, numbers.get(ARCHIVED)!];
  await insertReservations(
    ui.app.services.database.db,
    newerPending(
      [`res_9${sato}1`, 'Aoki Ken', 'aoki@example.jp'],
      ['res_find_other', 'Abe Mai', `abe${sato}@example.jp`],
      [`res_9${archived}1`, 'Ando Archive', 'ando@example.jp'],
    ),
  );
  await ui.api.call('/api/admin/reservations/archive', { ids: [{ id: `res_9${archived}1`, productSlug: 'kumo-vco-2' }] });
});

const rows = (page: Page) => page.locator('table.records tbody tr:not(.row-note)');
const loaded = (page: Page) => page.waitForFunction(() => !document.querySelector('.list[aria-busy]') && document.querySelector('.list'));

/** Types `q` into the list's search box as staff do, sends it, and answers the names the list then shows. */
async function search(page: Page, q: string): Promise<string[]> {
  await page.fill('#filter-q', q);
  await page.press('#filter-q', 'Enter');
  await page.waitForFunction((typed) => (new URLSearchParams(location.hash.split('?')[1] ?? '').get('q') ?? '') === typed, q);
  await loaded(page);
  return (await rows(page).locator('td[data-label="お名前"]').allTextContents()).sort();
}

for (const [size, viewport] of SIZES) {
  describe(`finding a customer (${size})`, () => {
    test('the search box folds what staff type: the IME’s space, kana of either kind and width, full-width letters, accents', async () => {
      const page = await ui.signedIn('reservations', viewport);
      await loaded(page);
      assert.deepEqual(await search(page, '鈴木　一郎'), ['鈴木 一郎'], 'the IME’s full-width space is a space');
      assert.deepEqual(await search(page, 'スズキ'), ['すずき はなこ', 'ｽｽﾞｷ ｼﾞﾛｳ'], 'katakana finds hiragana and half-width katakana');
      assert.deepEqual(await search(page, 'ｽｽﾞｷ'), ['すずき はなこ', 'ｽｽﾞｷ ｼﾞﾛｳ']);
      assert.deepEqual(await search(page, 'suzuki'), ['ＳＵＺＵＫＩ Taro'], 'ASCII finds full-width letters');
      assert.deepEqual(await search(page, 'MÜLLER'), ['Müller Hans']);
      assert.deepEqual(await search(page, 'muller'), ['Müller Hans'], 'without the accent too');
      await page.screenshot({ path: join(ARTIFACTS, SHOTS, `${size}-1-folded.png`) });
      await page.close();
    });

    test('a reservation is found by the short number the customer quotes, shown on one line, and copied from its page', async () => {
      const page = await ui.signedIn('reservations', viewport, {
        permissions: ['clipboard-read', 'clipboard-write'],
      });
      await loaded(page);
      const number = numbers.get('ｽｽﾞｷ ｼﾞﾛｳ')!;
      assert.deepEqual(await search(page, `#${number}`), ['ｽｽﾞｷ ｼﾞﾛｳ']);
      await search(page, String(number));
      assert.equal(await rows(page).first().locator('td[data-label="お名前"]').textContent(), 'ｽｽﾞｷ ｼﾞﾛｳ', 'the number’s own first');
      const shown = rows(page).first().locator('td[data-label="ご予約番号"] a');
      assert.equal((await shown.textContent())?.trim(), String(number));
      assert.equal(await shown.evaluate((link) => link.getClientRects().length), 1, 'the number fits on one line');
      await search(page, '');
      for (const link of await rows(page).locator('td[data-label="ご予約番号"] a').all())
        assert.equal(await link.evaluate((element) => element.getClientRects().length), 1, 'every row’s number is on one line');
      await page.screenshot({ path: join(ARTIFACTS, SHOTS, `${size}-2-numbers.png`) });

      await search(page, String(number));
      await shown.click();
      const head = page.locator('.record-head h1');
      await head.waitFor();
      assert.match((await head.textContent()) ?? '', new RegExp(`${number}`));
      await page.locator('.record-head button.copy').first().click();
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), String(number));
      await page.screenshot({ path: join(ARTIFACTS, SHOTS, `${size}-3-record-page.png`) });
      await page.close();
    });

    test('an exact number lists its reservation first whatever the sort, in the list and the archive; ids and addresses holding its digits follow', async () => {
      const sato = numbers.get('佐藤 花子')!;
      const firstNumber = async () => (await rows(page).first().locator('td[data-label="ご予約番号"] a').textContent())?.trim();
      const page = await ui.signedIn('reservations?sort=name&order=asc', viewport);
      await loaded(page);
      const fullWidth = String(sato).replace(/\d/g, (d) => String.fromCharCode(0xff10 + Number(d)));
      for (const q of [String(sato), `#${sato}`, fullWidth]) {
        await search(page, q);
        assert.equal(await firstNumber(), String(sato), q);
      }
      assert.ok((await rows(page).count()) >= 3, 'the strangers holding the digits follow');
      await page.screenshot({ path: join(ARTIFACTS, SHOTS, `${size}-5-exact-number-first.png`) });
      await page.goto(`${ui.app.url}/admin#/reservations?view=archived&sort=name&order=asc`);
      await loaded(page);
      await search(page, String(numbers.get(ARCHIVED)));
      assert.equal(await firstNumber(), String(numbers.get(ARCHIVED)));
      assert.equal(await rows(page).count(), 2, 'the archived stranger follows');
      await page.close();
    });

    test('the archive view has its own search box, folded the same way, that finds only archived records', async () => {
      const page = await ui.signedIn('reservations?view=archived', viewport);
      await loaded(page);
      assert.deepEqual(await search(page, 'すずき'), [ARCHIVED]);
      assert.deepEqual(await search(page, `#${numbers.get(ARCHIVED)}`), [ARCHIVED]);
      assert.deepEqual(await search(page, '鈴木'), [], 'active reservations are not in the archive');
      await page.locator('.list', { hasText: '条件に一致するアーカイブ済みの予約はありません。' }).waitFor();
      await page.screenshot({ path: join(ARTIFACTS, SHOTS, `${size}-4-archive.png`) });
      await page.close();
    });
  });
}

test('the pages had no errors', () => {
  assert.deepEqual(ui.record.errors, []);
});
