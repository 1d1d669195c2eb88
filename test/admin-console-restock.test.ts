import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Locator } from 'playwright-core';
import { ARTIFACTS, screenshot } from './helpers/browser.ts';
import { unsubscribeToken } from '../src/messaging/links.ts';
import { consoleSuite, LAPTOP, openRestockConfirmation, PHONE, SIZES } from './helpers/console.ts';

// The restock send in the console's 再入荷通知 in headless Chromium, against the whole service on
// SQLite: the product picker with the most waited-for products first, a wave of the oldest few
// with the count of emails said before anything is sent, and a warning for a product without a
// price. Laptop (1366x768) and phone (390x844).

const SHOTS = 'admin-console-restock';
/** A product of the sample catalog without a price. */
const OCTAVE = 'Tsuki Octave LFO';

const kumo: string[] = [];

const ui = consoleSuite({}, async () => {
  for (const n of [1, 2, 3, 4, 5])
    kumo.push((await ui.api.call('/api/notify', { email: `kumo${n}@example.com`, productSlug: 'kumo-vco-2' })).subscriptionId);
  for (const n of [1, 2]) await ui.api.call('/api/notify', { email: `octave${n}@example.com`, productSlug: 'tsuki-octave-lfo' });
  await ui.api.call('/api/notify', { email: 'hayate@example.com', productSlug: 'hayate-wavefolder' });
});

test('the picker lists the most waited-for products first and those nobody waits for last', async () => {
  const page = await ui.signedIn('subscriptions', LAPTOP);
  await page.locator('#restock-product option[value="kumo-vco-2"]', { hasText: '（通知待ち 5 件）' }).waitFor({ state: 'attached' });
  const options = await page.locator('#restock-product option').allTextContents();
  assert.deepEqual(options.slice(0, 4), [
    '商品を選択',
    'Kumo VCO II（通知待ち 5 件）',
    `${OCTAVE}（通知待ち 2 件）`,
    'ハヤテ ウェーブフォルダー（通知待ち 1 件）',
  ]);
  assert.ok(
    options.slice(4).every((option) => option.endsWith('（通知待ち 0 件）')),
    'nobody waiting: last',
  );
  await page.context().close();
});

test('a wave: the oldest two of five, the count said before sending, the rest still waiting and nothing public yet', async () => {
  const page = await ui.signedIn('subscriptions', LAPTOP);
  await page.locator('#restock-product option[value="kumo-vco-2"]').waitFor({ state: 'attached' });
  const dialog = await openRestockConfirmation(page, 'kumo-vco-2');
  assert.equal(
    await dialog.locator('.confirm-count').textContent(),
    '「Kumo VCO II」の再入荷通知を5 件のメールアドレスに送信します。送信した登録は「通知済み」になります。',
  );
  assert.equal(await dialog.locator('.no-price').count(), 0, 'it has a price');
  await dialog.locator('#restock-some').check();
  await dialog.locator('#restock-limit').fill('2');
  assert.equal(
    await dialog.locator('.confirm-count').textContent(),
    '「Kumo VCO II」の再入荷通知を2 件のメールアドレスに送信します（登録の早い順）。送信した登録は「通知済み」になります。残りの 3 件は通知待ちのままです。',
  );
  assert.match((await dialog.locator('p.hint').textContent())!, /通知待ちの方がいなくなる送信のときに投稿されます/);
  assert.equal(await dialog.locator('button.primary').textContent(), '2 件に送信する');
  // The screen as staff see it (a full-page shot would show the dialog's backdrop over its first 768 px only).
  mkdirSync(join(ARTIFACTS, SHOTS), { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, SHOTS, '01-wave-laptop.png') });
  await dialog.locator('button.primary').click();
  await page.waitForFunction(
    () =>
      document.querySelector('main > .notice')?.textContent === '「Kumo VCO II」の再入荷通知を 2 件送信しました。通知待ちは残り 3 件です。',
  );
  const notified = (await ui.api.call('/api/admin-notify-list', { status: 'notified', productSlug: 'kumo-vco-2' })).subscriptions.map(
    (s) => s.id,
  );
  assert.deepEqual(notified.sort(), kumo.slice(0, 2).sort(), 'the two who signed up first');
  await page.locator('#restock-product option[value="kumo-vco-2"]', { hasText: '（通知待ち 3 件）' }).waitFor({ state: 'attached' });
  await page.context().close();
});

test('on a phone: a product without a price is said before sending', async () => {
  const page = await ui.signedIn('subscriptions', PHONE);
  await page.locator('#restock-product option[value="tsuki-octave-lfo"]').waitFor({ state: 'attached' });
  const dialog = await openRestockConfirmation(page, 'tsuki-octave-lfo');
  assert.equal(
    await dialog.locator('.no-price').textContent(),
    'この商品には価格が設定されていません。メールの価格は「価格未定」と表示されます。',
  );
  await dialog.locator('#restock-some').check();
  await dialog.locator('#restock-limit').fill('0');
  assert.equal(await dialog.locator('button.primary').isDisabled(), true, 'nothing to send');
  assert.equal(await dialog.locator('.confirm-count').textContent(), '送信する件数を1以上の整数で入力してください。');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, 'nothing wider than the screen');
  await dialog.locator('#restock-limit').fill('1');
  await screenshot(page, SHOTS, '02-no-price-phone');
  await dialog.screenshot({ path: join(ARTIFACTS, SHOTS, '03-no-price-dialog-phone.png') });
  await dialog.locator('button.primary').click();
  await page.waitForFunction(() =>
    document.querySelector('main > .notice')?.textContent?.includes('1 件送信しました。通知待ちは残り 1 件です。'),
  );
  assert.deepEqual(ui.record.errors, []);
  await page.context().close();
});

for (const [size, viewport] of SIZES) {
  test(`${size}: a signup the customer unsubscribed is not offered 通知待ち, in the list or on its page, which say why; one staff unsubscribed still is`, async () => {
    const signUp = async (who: string) =>
      (await ui.api.call('/api/notify', { email: `${who}-${size}@example.jp`, productSlug: 'hayate-wavefolder' })).subscriptionId;
    const id = await signUp('optout');
    const token = unsubscribeToken(ui.app.services.config.unsubscribeSecret, id);
    assert.equal((await ui.app.request(`/api/notify/unsubscribe?token=${encodeURIComponent(token)}`)).status, 200);
    const byStaff = await signUp('staff-stop');
    const { subscriptions } = await ui.api.call('/api/admin-notify-list', { q: byStaff });
    await ui.api.call('/api/admin-notify-status', {
      id: byStaff,
      productSlug: 'hayate-wavefolder',
      status: 'unsubscribed',
      expectedUpdatedAt: subscriptions[0]!.updatedAt,
    });
    const why = /^お客様ご自身が配信停止した登録のため、通知待ちに戻せません。.*お客様ご自身で再登録/;
    const options = (select: Locator) => select.locator('option').allTextContents();

    const page = await ui.signedIn('subscriptions?productSlug=hayate-wavefolder&status=unsubscribed', viewport);
    const row = (subscription: string) => page.locator(`tr[data-id="${subscription}"]`);
    await row(id).waitFor();
    assert.deepEqual(await options(row(id).locator('select')), ['配信停止'], 'no 通知待ち to choose');
    assert.match((await row(id).locator('.move-refused').textContent())!, why);
    assert.deepEqual(await options(row(byStaff).locator('select')), ['通知待ち', '配信停止'], 'staff’s own stop can be undone');
    assert.equal(await row(byStaff).locator('.move-refused').count(), 0);
    await screenshot(page, SHOTS, `${size}-04-customer-opt-out-list`);

    await page.goto(`${ui.app.url}/admin#/subscriptions?record=${id}`);
    await page.locator('.timeline .what', { hasText: '配信停止' }).first().waitFor();
    const action = page.locator('.record-actions .action.status');
    assert.deepEqual(await options(action.locator('select')), ['配信停止']);
    assert.match((await action.locator('.move-refused').textContent())!, why);
    assert.equal((await ui.api.call('/api/admin/notify/get', { id })).subscription.status, 'unsubscribed');
    await screenshot(page, SHOTS, `${size}-05-customer-opt-out-kept`);
    assert.deepEqual(ui.record.errors, []);
    await page.context().close();
  });
}
