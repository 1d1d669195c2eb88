import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import type { TenpoClient } from 'tenpo/client';
import type { TestApp } from './helpers/app.ts';
import { screenshot, type PageRecord } from './helpers/browser.ts';
import { closeConsoleTest, signedInConsole, startConsoleTest } from './helpers/console.ts';

// The console's 店舗情報 screen in headless Chromium, against the whole service on SQLite: the
// warning above every screen while the shop's name, contact address or address is unset, the
// settings saved with the signature emails will end with shown as typed, a colleague's save in
// between not overwritten. Laptop (1366x768) and phone (390x844).

const SHOTS = 'admin-console-shop';

let app: TestApp;
let api: TenpoClient;
let browser: Browser;
const record: PageRecord = { console: [], errors: [], urls: [] };

before(async () => {
  ({ app, api, browser } = await startConsoleTest());
});

after(() => closeConsoleTest({ app, browser }));

const signedIn = (view: string, viewport: { width: number; height: number }) => signedInConsole(browser, app.url, view, viewport, record);

test('while unset every screen warns, and the warning leads to 店舗情報; saving the three it asks for ends it', async () => {
  const page = await signedIn('dashboard', { width: 1366, height: 768 });
  const warning = page.locator('.shop-warning');
  await warning.waitFor();
  assert.equal(
    await warning.textContent(),
    '店舗情報の店名・連絡先メールアドレス・所在地が未設定です。お客様へのメールや予約ページに、ショップの名前と連絡先が表示されません。店舗情報を設定する',
  );
  await screenshot(page, SHOTS, '01-warning-laptop');
  await warning.getByRole('link', { name: '店舗情報を設定する' }).click();
  await page.locator('h1', { hasText: '店舗情報' }).waitFor();
  await page.locator('#shop-name').waitFor();
  assert.equal(await page.locator('.signature').textContent(), '（署名なし: まだ何も設定されていません）');

  await page.fill('#shop-name', 'テンポ楽器 渋谷店');
  await page.fill('#shop-address', '〒150-0001\n東京都渋谷区神宮前1-2-3 テンポビル2F');
  await page.fill('#shop-phone', '03-1234-5678');
  await page.fill('#shop-hours', '11:00〜19:00（水曜定休）');
  assert.equal(
    await page
      .locator('.shop-settings .warning')
      .textContent()
      .then((t) => t?.startsWith('連絡先メールアドレスが未設定です')),
    true,
  );
  await page.fill('#shop-contactEmail', 'shop@tenpo.example');
  assert.equal(
    await page.locator('.signature').textContent(),
    'テンポ楽器 渋谷店\n〒150-0001\n東京都渋谷区神宮前1-2-3 テンポビル2F\nTEL: 03-1234-5678\nメール: shop@tenpo.example\n営業時間: 11:00〜19:00（水曜定休）',
    'the signature as typed',
  );
  assert.equal(await page.locator('.shop-settings .warning').isHidden(), true);
  await page.click('.shop-settings button[type=submit]');
  await page.locator('.page-note.success', { hasText: '店舗情報を保存しました。' }).waitFor();
  await warning.waitFor({ state: 'hidden' });
  const { shop } = await api.call('/api/admin/shop/get', {});
  assert.deepEqual(
    [shop.name, shop.address, shop.phone, shop.contactEmail, shop.hours],
    [
      'テンポ楽器 渋谷店',
      '〒150-0001\n東京都渋谷区神宮前1-2-3 テンポビル2F',
      '03-1234-5678',
      'shop@tenpo.example',
      '11:00〜19:00（水曜定休）',
    ],
  );
  await screenshot(page, SHOTS, '02-saved-laptop');
  assert.deepEqual(record.errors, []);
  await page.context().close();
});

test('on a phone: a colleague saved first, so the save writes nothing, keeps what was typed and says what they saved', async () => {
  const page = await signedIn('shop', { width: 390, height: 844 });
  await page.locator('#shop-name').waitFor();
  assert.equal(await page.inputValue('#shop-name'), 'テンポ楽器 渋谷店');
  await api.call('/api/admin/shop/update', { hours: '10:00〜18:00' });
  await page.fill('#shop-name', 'テンポ楽器');
  await page.click('.shop-settings button[type=submit]');
  const note = page.locator('.page-note.error');
  await note.waitFor();
  assert.match(
    (await note.textContent()) ?? '',
    /他の担当者が先に店舗情報を保存していました。入力中の内容はそのままです。.*営業時間: 「10:00〜18:00」/,
  );
  assert.equal(await page.inputValue('#shop-name'), 'テンポ楽器', 'what was typed stays');
  assert.equal((await api.call('/api/admin/shop/get', {})).shop.name, 'テンポ楽器 渋谷店', 'nothing written');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, 'nothing wider than the screen');
  await screenshot(page, SHOTS, '03-colleague-saved-phone');
  // Leaving with the unsaved name asks first; staying keeps it.
  await page.evaluate(() => (location.hash = '#/dashboard'));
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  await dialog.getByRole('button', { name: 'やめる' }).click();
  assert.equal(await page.inputValue('#shop-name'), 'テンポ楽器');
  // Saving again from the colleague's values writes the name and keeps their hours.
  await page.fill('#shop-hours', '10:00〜18:00');
  await page.click('.shop-settings button[type=submit]');
  await page.locator('.page-note.success').waitFor();
  const { shop } = await api.call('/api/admin/shop/get', {});
  assert.deepEqual([shop.name, shop.hours], ['テンポ楽器', '10:00〜18:00']);
  await page.context().close();
});
