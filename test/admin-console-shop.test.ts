import assert from 'node:assert/strict';
import { test } from 'node:test';
import { screenshot } from './helpers/browser.ts';
import { consoleSuite, LAPTOP, SIZES } from './helpers/console.ts';

// The console's 店舗情報 screen in headless Chromium, against the whole service on SQLite: the
// warning above every screen while the shop's name, contact address or address is unset, the
// settings saved with the signature emails will end with shown as typed, a colleague's save in
// between not overwritten. Laptop (1366x768) and phone (390x844).

const SHOTS = 'admin-console-shop';

const ui = consoleSuite();

test('while unset every screen warns, and the warning leads to 店舗情報; saving the three it asks for ends it', async () => {
  const page = await ui.signedIn('dashboard', LAPTOP);
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
  // A malformed address is the console's to say, in Japanese, not the browser's bubble: nothing is saved.
  await page.fill('#shop-contactEmail', 'shop@');
  await page.click('.shop-settings button[type=submit]');
  await page.locator('.page-note.error', { hasText: '入力内容に誤りがあります（連絡先メールアドレス）' }).waitFor();
  assert.equal((await ui.api.call('/api/admin/shop/get', {})).shop.updatedAt, null, 'nothing saved');
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
  const { shop } = await ui.api.call('/api/admin/shop/get', {});
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
  assert.deepEqual(ui.record.errors, []);
  await page.context().close();
});

for (const [size, viewport] of SIZES) {
  test(`${size}: a colleague saved first; their change joins what was typed, a field both changed is named, and no save overwrites unseen`, async () => {
    await ui.api.call('/api/admin/shop/update', { name: 'テンポ楽器 渋谷店', phone: '03-1234-5678', hours: '11:00〜19:00（水曜定休）' });
    const page = await ui.signedIn('shop', viewport);
    await page.locator('#shop-name').waitFor();
    assert.equal(await page.inputValue('#shop-hours'), '11:00〜19:00（水曜定休）');
    // A saves new hours; B, on this stale form, changes the phone.
    await ui.api.call('/api/admin/shop/update', { hours: '10:00〜18:00' });
    await page.fill('#shop-phone', '03-9999-0000');
    await page.click('.shop-settings button[type=submit]');
    const note = page.locator('.page-note.error');
    await note.waitFor();
    assert.equal(
      await note.textContent(),
      '他の担当者が先に店舗情報を保存していました（営業時間を変更）。まだ保存されていません。他の担当者の変更を入力欄に反映し、あなたの入力もそのまま残しています。内容を確認して、もう一度保存してください。',
    );
    assert.deepEqual([await page.inputValue('#shop-hours'), await page.inputValue('#shop-phone')], ['10:00〜18:00', '03-9999-0000']);
    assert.equal((await ui.api.call('/api/admin/shop/get', {})).shop.phone, '03-1234-5678', 'nothing written yet');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, 'nothing wider than the screen');
    await screenshot(page, SHOTS, `03-colleague-saved-${size}`);
    // Leaving with the unsaved phone asks first; staying keeps it.
    await page.evaluate(() => (location.hash = '#/dashboard'));
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'やめる' }).click();
    assert.equal(await page.inputValue('#shop-phone'), '03-9999-0000');
    // B's second save keeps A's hours.
    await page.click('.shop-settings button[type=submit]');
    await page.locator('.page-note.success').waitFor();
    let { shop } = await ui.api.call('/api/admin/shop/get', {});
    assert.deepEqual([shop.phone, shop.hours], ['03-9999-0000', '10:00〜18:00']);

    // Both change the hours: the field is named with the colleague's value, B's text stays, and only B's explicit save writes it.
    await ui.api.call('/api/admin/shop/update', { hours: '12:00〜20:00' });
    await page.fill('#shop-hours', '10:00〜17:00');
    await page.fill('#shop-name', 'テンポ楽器');
    await page.click('.shop-settings button[type=submit]');
    await note.waitFor();
    assert.match(
      (await note.textContent())!,
      /営業時間は他の担当者が「12:00〜20:00」にしていて、あなたの入力と異なります。どちらにするか決めてから、もう一度保存してください。/,
    );
    assert.equal(await page.getAttribute('#shop-hours', 'aria-invalid'), 'true');
    assert.deepEqual([await page.inputValue('#shop-hours'), await page.inputValue('#shop-name')], ['10:00〜17:00', 'テンポ楽器']);
    assert.equal((await ui.api.call('/api/admin/shop/get', {})).shop.hours, '12:00〜20:00');
    await screenshot(page, SHOTS, `04-both-changed-${size}`);
    await page.fill('#shop-hours', '12:00〜20:00');
    await page.click('.shop-settings button[type=submit]');
    await page.locator('.page-note.success').waitFor();
    ({ shop } = await ui.api.call('/api/admin/shop/get', {}));
    assert.deepEqual([shop.name, shop.hours], ['テンポ楽器', '12:00〜20:00']);
    await page.context().close();
  });
}
