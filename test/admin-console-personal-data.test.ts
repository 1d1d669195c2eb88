import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { TenpoClient } from 'tenpo/client';
import { closeConsoleTest, startConsoleTest } from './helpers/console.ts';
import { ADMIN_TOKEN, type TestApp } from './helpers/app.ts';
import { recordPage, screenshot, type PageRecord } from './helpers/browser.ts';

// The console's 個人情報 screen in headless Chromium, against the whole service on SQLite: finding a
// customer's records by address whatever its case, downloading them as JSON, and erasing them after
// a dialog that names what goes. Laptop (1366x768) and phone (390x844).

const SHOTS = 'admin-console-personal-data';
const CUSTOMER = 'Kojin.Hanako@Example.com';

let app: TestApp;
let api: TenpoClient;
let browser: Browser;
const record: PageRecord = { console: [], errors: [], urls: [] };

before(async () => {
  ({ app, api, browser } = await startConsoleTest());
});

after(() => closeConsoleTest({ app, browser }));

async function signedIn(viewport: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({ viewport, acceptDownloads: true });
  const page = await context.newPage();
  recordPage(page, record);
  await page.goto(`${app.url}/admin`);
  await page.fill('#token', ADMIN_TOKEN);
  await page.press('#token', 'Enter');
  await page.waitForSelector('header.top');
  await page.click('nav >> text=個人情報');
  await page.locator('h1', { hasText: '個人情報' }).waitFor();
  return page;
}

async function search(page: Page, email: string): Promise<void> {
  await page.fill('#personal-email', email);
  await page.click('.personal-search button[type=submit]');
  await page.locator('[data-testid=personal-summary]', { hasText: email.trim().toLowerCase() }).waitFor();
}

const exported = (email: string) => api.call('/api/admin/personal-data/export', { email });

test('find a customer by address, download the JSON, and erase it all only after confirming', async () => {
  const first = (await api.call('/api/reservation', { name: '個人 花子', email: CUSTOMER, productSlug: 'kumo-vco-2' })).reservationId;
  const second = (
    await api.call('/api/reservation', { name: '個人 花子', email: 'kojin.hanako@example.com', productSlug: 'tsuki-dual-lfo' })
  ).reservationId;
  await api.call('/api/admin/reservations/archive', { ids: [{ id: second, productSlug: 'tsuki-dual-lfo' }] });
  const subscription = (await api.call('/api/notify', { email: CUSTOMER, productSlug: 'hayate-wavefolder' })).subscriptionId;
  const other = (await api.call('/api/reservation', { name: '別人 次郎', email: 'jiro@example.com', productSlug: 'kumo-vco-2' }))
    .reservationId;
  const expected = await exported(CUSTOMER);
  assert.equal(expected.messages.length, 5);

  const page = await signedIn({ width: 1366, height: 768 });
  await search(page, '  KOJIN.hanako@EXAMPLE.com ');
  assert.equal(
    await page.locator('[data-testid=personal-summary]').textContent(),
    'kojin.hanako@example.com：予約 2 件、再入荷通知 1 件、送信記録 5 件',
  );
  const reservationRows = page.locator('section[aria-label=予約] tbody tr');
  assert.deepEqual((await reservationRows.locator('td[data-label=予約番号]').allTextContents()).sort(), [first, second].sort());
  assert.equal(
    await reservationRows
      .filter({ hasText: second })
      .locator('td[data-label=アーカイブ]')
      .textContent()
      .then((text) => text?.startsWith('済')),
    true,
    'the archived one is shown as such',
  );
  assert.deepEqual(await page.locator('section[aria-label=再入荷通知] td[data-label=登録番号]').allTextContents(), [subscription]);
  assert.equal(await page.locator('section[aria-label=送信記録] tbody tr').count(), 5);
  assert.ok(!(await page.locator('main').textContent())!.includes(other), 'nobody else');
  await screenshot(page, SHOTS, '01-found-laptop');

  const [download] = await Promise.all([page.waitForEvent('download'), page.click('text=JSONで書き出す')]);
  assert.match(download.suggestedFilename(), /^personal-data-kojin\.hanako@example\.com-\d{4}-\d{2}-\d{2}\.json$/);
  const file = JSON.parse(readFileSync((await download.path())!, 'utf8'));
  const { success: _success, ...content } = expected;
  assert.deepEqual(file, content, 'the file is the export, whole');

  await page.click('text=すべて削除…');
  const dialog = page.locator('dialog.confirm');
  await dialog.waitFor();
  const said = (await dialog.textContent())!;
  for (const text of [
    'kojin.hanako@example.com',
    '予約 2 件',
    first,
    second,
    '再入荷通知 1 件',
    subscription,
    '送信記録 5 件',
    '元に戻せません',
  ])
    assert.ok(said.includes(text), `the dialog names ${text}: ${said}`);
  await screenshot(page, SHOTS, '02-erase-dialog-laptop');
  await dialog.locator('button', { hasText: 'やめる' }).click();
  await dialog.waitFor({ state: 'detached' });
  assert.equal((await exported(CUSTOMER)).reservations.length, 2, 'cancelling erases nothing');

  await page.click('text=すべて削除…');
  await dialog.locator('button', { hasText: '削除する' }).click();
  await page.waitForFunction(() =>
    document.querySelector('main > .notice')?.textContent?.includes('予約 2 件、再入荷通知 1 件、送信記録 5 件'),
  );
  await page.locator('[data-testid=personal-summary]', { hasText: '予約 0 件、再入荷通知 0 件、送信記録 0 件' }).waitFor();
  const after = await exported(CUSTOMER);
  assert.deepEqual([after.reservations, after.subscriptions, after.messages], [[], [], []]);
  assert.equal((await exported('jiro@example.com')).reservations[0]!.id, other, 'the other customer stays');
  await screenshot(page, SHOTS, '03-erased-laptop');

  await page.fill('#personal-email', 'not an address');
  await page.click('.personal-search button[type=submit]');
  await page.locator('main > .notice.error').waitFor();
  await page.context().close();
});

test('on a phone the records become cards, the dialog fits, and nothing scrolls sideways', async () => {
  const email = 'phone.customer.with.a.rather.long.address@example.com';
  const id = (await api.call('/api/reservation', { name: 'スマホ 三郎', email, productSlug: 'kumo-vco-2' })).reservationId;
  await api.call('/api/notify', { email, productSlug: 'kumo-vco-2' });
  const page = await signedIn({ width: 390, height: 844 });
  await search(page, email);
  await page.locator('section[aria-label=予約] td[data-label=予約番号]', { hasText: id }).waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390);
  await screenshot(page, SHOTS, '04-found-phone');
  await page.click('text=すべて削除…');
  await page.locator('dialog.confirm').waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390);
  await screenshot(page, SHOTS, '05-erase-dialog-phone');
  await page.locator('dialog.confirm button', { hasText: 'やめる' }).click();
  assert.deepEqual(record.errors, []);
  await page.context().close();
});
