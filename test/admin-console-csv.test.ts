import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { screenshot } from './helpers/browser.ts';
import { consoleSuite, LAPTOP, PHONE, SIZES } from './helpers/console.ts';

// The CSV button of both lists in headless Chromium, against the whole service on SQLite: the file
// downloaded holds the records the screen's filters select (active or archived), with the byte-order
// mark and the Japanese header Excel needs. Laptop (1366x768) and phone (390x844).

const SHOTS = 'admin-console-csv';

const ui = consoleSuite();

/** A signed-in tab that may download, once the list shows its records. */
async function listShown(view: string, viewport: { width: number; height: number }): Promise<Page> {
  const page = await ui.signedIn(view, viewport, { acceptDownloads: true });
  await page.locator('table.records tbody tr').first().waitFor();
  return page;
}

/** Clicks CSV and reads the file the browser saved: its name and its records (a quoted field never holds a line break here). */
async function downloadCsv(page: Page): Promise<{ name: string; text: string; lines: string[] }> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('.filters button.export')]);
  const text = readFileSync((await download.path())!, 'utf8');
  return {
    name: download.suggestedFilename(),
    text,
    lines: text
      .replace(/^\ufeff/, '')
      .split('\r\n')
      .slice(0, -1),
  };
}

test('the reservations list downloads what its filters and search show, active or archived', async () => {
  const reserve = async (name: string, email: string, productSlug = 'kumo-vco-2') =>
    (await ui.api.call('/api/reservation', { name, email, productSlug })).reservationId;
  const taro = await reserve('=山田 太郎', 'taro@example.com');
  const hanako = await reserve('鈴木 花子', 'hanako@example.com');
  const other = await reserve('佐藤 次郎', 'jiro@example.com', 'tsuki-dual-lfo');
  const gone = await reserve('田中 三郎', 'saburo@example.com');
  await ui.api.call('/api/admin-reservations-status', { id: hanako, productSlug: 'kumo-vco-2', status: 'confirmed' });
  await ui.api.call('/api/admin/reservations/archive', { ids: [{ id: gone, productSlug: 'kumo-vco-2' }] });

  const page = await listShown('reservations', LAPTOP);
  const all = await downloadCsv(page);
  assert.match(all.name, /^reservations-\d{8}-\d{4}\.csv$/);
  assert.ok(all.text.startsWith('\ufeff予約番号,受付日時,お名前,メールアドレス,'), 'a byte-order mark and the Japanese header');
  assert.deepEqual(
    all.lines
      .slice(1)
      .map((line) => line.split(',').at(-1))
      .sort(),
    [taro, hanako, other].sort(),
  );
  assert.ok(
    all.lines.some((line) => line.includes(",'=山田 太郎,")),
    'a name that would run as a formula is guarded',
  );

  // Sorted by name, newest letters first, as the list's column header leaves it in the URL.
  await page.goto(`${ui.app.url}/admin#/reservations?sort=name&order=desc`);
  await page.locator('th[aria-sort=descending]', { hasText: 'お名前' }).waitFor();
  const byName = await downloadCsv(page);
  const names = { [taro]: '=山田 太郎', [hanako]: '鈴木 花子', [other]: '佐藤 次郎' };
  const descending = Object.keys(names).sort((a, b) => (names[a]! < names[b]! ? 1 : -1));
  assert.deepEqual(
    byName.lines.slice(1).map((line) => line.split(',').at(-1)),
    descending,
    'in the order the list shows',
  );
  await page.goto(`${ui.app.url}/admin#/reservations`);
  await page.locator('th[aria-sort=descending]', { hasText: 'お名前' }).waitFor({ state: 'detached' });

  await page.selectOption('#filter-product', 'kumo-vco-2');
  await page.locator('table.records tbody tr', { hasText: '佐藤 次郎' }).waitFor({ state: 'detached' });
  await page.fill('#filter-q', '@example.com');
  await page.click('form.search button[type=submit]');
  await page.selectOption('#filter-status', 'confirmed');
  await page.locator('table.records tbody tr', { hasText: '山田 太郎' }).waitFor({ state: 'detached' });
  const filtered = await downloadCsv(page);
  assert.deepEqual(
    filtered.lines.slice(1).map((line) => line.split(',').at(-1)),
    [hanako],
    'only what the screen shows',
  );
  assert.ok(filtered.lines[1]!.includes(',確定,'), 'the status in Japanese');
  await screenshot(page, SHOTS, '01-reservations-filtered-laptop');

  await page.click('button:has-text("アーカイブ済み")');
  await page.locator('table.records tbody tr', { hasText: '田中 三郎' }).waitFor();
  const archived = await downloadCsv(page);
  assert.match(archived.name, /^reservations-archived-\d{8}-\d{4}\.csv$/);
  assert.deepEqual(
    archived.lines.slice(1).map((line) => line.split(',').at(-1)),
    [gone],
  );
  await page.context().close();
});

test('the subscriptions list has the same button; on a phone it fits the filter bar', async () => {
  const id = (await ui.api.call('/api/notify', { email: 'restock@example.com', productSlug: 'tsuki-dual-lfo' })).subscriptionId;
  const page = await listShown('subscriptions', PHONE);
  const file = await downloadCsv(page);
  assert.match(file.name, /^subscriptions-\d{8}-\d{4}\.csv$/);
  assert.ok(file.text.startsWith('\ufeff登録番号,登録日時,メールアドレス,'));
  assert.ok(file.lines.some((line) => line.startsWith(`${id},`) && line.includes(',restock@example.com,tsuki-dual-lfo,')));
  await screenshot(page, SHOTS, '02-subscriptions-phone');
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390);
  assert.deepEqual(ui.record.errors, []);
  await page.context().close();
});

test('a refused export says why, in Japanese, and downloads nothing', async () => {
  const page = await listShown('reservations', LAPTOP);
  // The search box allows 200 characters; the service refuses more with 400, as it would a stale filter.
  await page.evaluate(() => document.getElementById('filter-q')!.removeAttribute('maxlength'));
  await page.fill('#filter-q', 'x'.repeat(201));
  await page.click('form.search button[type=submit]');
  await page.locator('main > .notice.error').first().waitFor();
  let downloaded = false;
  page.on('download', () => (downloaded = true));
  await page.click('.filters button.export');
  await page.waitForFunction(() => !(document.querySelector('.filters button.export') as HTMLButtonElement).disabled);
  assert.equal(downloaded, false);
  assert.ok(await page.locator('main > .notice.error').isVisible());
  await page.context().close();
});

for (const [size, viewport] of SIZES) {
  test(`${size}: a staff account is offered no CSV, in either list or view; an owner account is`, async () => {
    const account = (role: 'staff' | 'owner') => ({ email: `${role}-${size}@example.jp`, password: `${role} password ${size}` });
    for (const role of ['staff', 'owner'] as const)
      await ui.api.call('/api/admin/staff/create', { ...account(role), name: `${role} ${size}`, role });
    for (const role of ['staff', 'owner'] as const)
      for (const view of ['reservations', 'reservations?view=archived', 'subscriptions', 'subscriptions?view=archived']) {
        const page = await ui.asAccount(account(role), view, viewport);
        await page.locator('.filters button', { hasText: '再読み込み' }).waitFor();
        assert.equal(await page.locator('.filters button.export').count(), role === 'owner' ? 1 : 0, `${role} ${view}`);
        if (role === 'staff' && view === 'reservations') await screenshot(page, SHOTS, `${size}-staff-no-csv`);
        await page.context().close();
      }
  });
}
