import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { insertReservations } from '../src/reservations/store.ts';
import { screenshot } from './helpers/browser.ts';
import { consoleSuite, SIZES } from './helpers/console.ts';

// When something goes wrong, in headless Chromium at a laptop's and a phone's size against the whole
// service: the notice says what failed (the device offline, the service out of reach or not
// answering, a refusal with the service's own words, a screen's file gone), closes with its button,
// and stays in the page's flow, so on a phone it never lies over the filters or the list's controls.

const SHOTS = 'admin-console-notices';
const OFFLINE = 'この端末がインターネットに接続されていません（オフライン）。接続を確認してから、もう一度お試しください。';
const UNREACHABLE =
  'サーバーに接続できませんでした（サーバーが停止しているか、途中の回線に問題があります）。しばらくしてから再度お試しください。';
const UPDATED = 'この画面を読み込めませんでした（管理画面が更新されたか、読み込みが途中で途切れました）。ページを再読み込みしてください。';

const ui = consoleSuite({}, async () => {
  // A list longer than a phone's screen, so staff scroll with a notice shown.
  await insertReservations(
    ui.app.services.database.db,
    Array.from({ length: 40 }, (_, i) => ({
      id: `res_notice_${String(i).padStart(2, '0')}`,
      name: `通知 太郎 ${i}`,
      email: `notice-${i}@example.jp`,
      product_slug: 'kumo-vco-2',
      status: 'pending',
      created_at: new Date(Date.parse('2026-11-01T00:00:00.000Z') + i * 60_000).toISOString(),
    })),
  );
});

const notice = (page: Page) => page.locator('main > .notice');

/** Clicks the list's 再読み込み and waits for the notice to say `said`. */
async function reloadSays(page: Page, said: string): Promise<void> {
  await page.click('.filters button:text-is("再読み込み")');
  await notice(page).locator('.notice-text', { hasText: said }).waitFor();
  assert.equal(await notice(page).textContent(), said, 'the message alone: the close button writes nothing');
}

/** Every control of the filter bar is the element found at its own centre: nothing lies over it. */
async function filtersUncovered(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('.filters input, .filters select, .filters button')].flatMap((control) => {
      const box = control.getBoundingClientRect();
      const found = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      return found && (found === control || control.contains(found)) ? [] : [`${control.id || control.textContent}: ${found?.className}`];
    }),
  );
}

for (const [size, viewport] of SIZES) {
  describe(`notices when things go wrong (${size})`, () => {
    test('each says what failed, closes with its button, and never lies over the filters', async () => {
      const page = await ui.signedIn('reservations', viewport);
      await page.locator('table.records tbody tr').first().waitFor();

      await page.context().setOffline(true);
      await reloadSays(page, OFFLINE);
      await page.context().setOffline(false);

      // Scrolled down the list, then back to the filters: the notice stays above them in the page.
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      await page.locator('.filters').evaluate((filters) => filters.scrollIntoView({ block: 'start' }));
      assert.deepEqual(await filtersUncovered(page), [], 'every filter is clickable');
      await screenshot(page, SHOTS, `01-offline-scrolled-${size}`, { fullPage: false });
      await page.evaluate(() => window.scrollTo(0, 0));
      await screenshot(page, SHOTS, `02-offline-${size}`, { fullPage: false });

      const close = notice(page).locator('button.dismiss');
      assert.equal(await close.getAttribute('aria-label'), 'このお知らせを閉じる');
      await close.click();
      await notice(page).waitFor({ state: 'hidden' });

      // The service out of reach: no answer at all.
      await page.route('**/api/admin-reservations-list', (route) => route.abort('connectionrefused'));
      await reloadSays(page, UNREACHABLE);
      await page.unrouteAll();
      // A proxy's page for the service it cannot reach.
      await page.route('**/api/admin-reservations-list', (route) =>
        route.fulfill({ status: 503, contentType: 'text/html', body: '<h1>503 Service Unavailable</h1>' }),
      );
      await reloadSays(page, 'サーバーが応答していません（HTTP 503）。しばらくしてから再度お試しください。');
      await page.unrouteAll();
      // A refusal the console has no words for (a newer service's): said with the service's own text.
      await page.route('**/api/admin-reservations-list', (route) =>
        route.fulfill({
          status: 423,
          contentType: 'application/json',
          body: JSON.stringify({ success: false, error: 'Lists are read-only during the stocktake', code: 'stocktake_in_progress' }),
        }),
      );
      await reloadSays(
        page,
        'サーバーがこの操作を受け付けませんでした（HTTP 423、サーバーの応答: Lists are read-only during the stocktake）。ページを再読み込みして、もう一度お試しください。',
      );
      await screenshot(page, SHOTS, `03-refused-${size}`, { fullPage: false });
      await page.unrouteAll();
      // Signed out (the token changed): back to the sign-in form, which says why.
      await page.route('**/api/admin-reservations-list', (route) =>
        route.fulfill({
          status: 401,
          contentType: 'application/json',
          body: JSON.stringify({ success: false, error: 'Unauthorized', code: 'unauthorized' }),
        }),
      );
      await page.click('.filters button:text-is("再読み込み")');
      await page.locator('.login-page .notice', { hasText: '管理トークンが無効になりました' }).waitFor();
      await page.context().close();
    });

    test('a screen whose file does not arrive says why: offline, the service out of reach, or the console updated', async () => {
      const page = await ui.signedIn('reservations', viewport);
      await page.locator('table.records tbody tr').first().waitFor();
      const said = page.locator('section.view > .notice.error');
      const openMessages = async () => {
        await page.locator('header.top nav a[href="#/messages"]').click();
        return said.textContent();
      };
      await page.context().setOffline(true);
      assert.equal(await openMessages(), OFFLINE);
      assert.equal(
        await page.locator('section.view > button').textContent(),
        '再試行',
        'tried again, not reloaded into the browser’s offline page',
      );
      await screenshot(page, SHOTS, `04-screen-offline-${size}`, { fullPage: false });
      await page.context().setOffline(false);

      // The service's files and its liveness both out of reach.
      await page.route('**/admin/messages.*.js', (route) => route.abort('connectionrefused'));
      await page.route('**/livez', (route) => route.abort('connectionrefused'));
      await page.locator('section.view > button').click();
      await said.filter({ hasText: UNREACHABLE }).waitFor();
      await page.unroute('**/livez');
      // The service answers, but the screen's file is gone: a newer console.
      await page.unroute('**/admin/messages.*.js');
      await page.route('**/admin/messages.*.js', (route) => route.fulfill({ status: 404, body: 'not found' }));
      await page.goto(`${ui.app.url}/admin#/reservations`);
      await page.locator('table.records tbody tr').first().waitFor();
      assert.equal(await openMessages(), UPDATED);
      assert.equal(await page.locator('section.view > button').textContent(), '再読み込み');
      await page.context().close();
    });
  });
}

describe('the page', () => {
  test('had no errors', () => {
    assert.deepEqual(ui.record.errors, []);
  });
});
