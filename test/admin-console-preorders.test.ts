import assert from 'node:assert/strict';
import { test } from 'node:test';
import { screenshot } from './helpers/browser.ts';
import { consoleSuite, LAPTOP, PHONE } from './helpers/console.ts';

// The console's 予約受付 screen in headless Chromium, against the whole service on SQLite: a
// campaign made in the editor with Japan-time dates, its seats filling, and the reservations list
// marking the campaign's reservations. Laptop (1366x768) and phone (390x844).

const SHOTS = 'admin-console-preorders';

const ui = consoleSuite();

const reserve = (email: string) => ui.api.call('/api/reservation', { name: '予約 太郎', email, productSlug: 'kumo-vco-2' });

test('create a campaign with dates in Japan time, watch its seats fill, then edit it to sold out', async () => {
  const page = await ui.signedIn('preorders', LAPTOP);
  await page.locator('.placeholder', { hasText: '予約受付中の商品はありません。' }).waitFor();
  await page.selectOption('#preorder-product', 'kumo-vco-2');
  await page.fill('#preorder-opens', '2026-11-01T10:00');
  await page.fill('#preorder-closes', '2099-12-31T18:00');
  await page.fill('#preorder-capacity', '3');
  await page.fill('#preorder-limit', '1');
  await page.fill('#preorder-ships', '2027年2月下旬');
  await page.click('.preorder-editor button[type=submit]');
  await page.waitForFunction(() => document.querySelector('main > .notice')?.textContent === '「Kumo VCO II」の予約受付を保存しました。');
  const [saved] = (await ui.api.call('/api/admin/preorders/list', {})).preorders;
  assert.deepEqual(
    [saved!.opensAt, saved!.closesAt, saved!.capacity, saved!.perCustomerLimit, saved!.shipsIn, saved!.note],
    ['2026-11-01T01:00:00.000Z', '2099-12-31T09:00:00.000Z', 3, 1, '2027年2月下旬', null],
    'entered as Japan time, stored as the same instant in UTC',
  );

  await reserve('first@example.com');
  await reserve('second@example.com');
  await page.click('text=更新');
  const row = page.locator('tr[data-product="kumo-vco-2"]');
  await row.locator('.seats', { hasText: '2 / 3 台（残り 1）' }).waitFor();
  assert.equal(await row.locator('.state').textContent(), '受付中');
  assert.equal(await row.locator('[role=meter]').getAttribute('aria-valuenow'), '2');
  const filled = await row
    .locator('.seat-fill')
    .evaluate((fill) => fill.getBoundingClientRect().width / fill.parentElement!.getBoundingClientRect().width);
  assert.ok(Math.abs(filled - 2 / 3) < 0.02, `the bar is ${filled} full`);
  assert.equal(await row.locator('td[data-label=受付期間]').textContent(), '2026/11/01 10:00 〜 2099/12/31 18:00');
  await screenshot(page, SHOTS, '01-campaign-open-laptop');

  await row.locator('button', { hasText: '編集' }).click();
  assert.equal(await page.inputValue('#preorder-opens'), '2026-11-01T10:00', 'the editor shows Japan time');
  await page.fill('#preorder-capacity', '2');
  await page.click('.preorder-editor button[type=submit]');
  await row.locator('.state', { hasText: '満席' }).waitFor();
  assert.equal(await row.locator('.seats span').textContent(), '2 / 2 台（残り 0）');
  await screenshot(page, SHOTS, '02-campaign-sold-out-laptop');
  await assert.rejects(reserve('third@example.com'), /予約数が上限に達しました/);
  await page.context().close();
});

test('a campaign holding reservations: 受付を終了 stops it now, and 削除 first says what deleting lifts', async () => {
  await ui.api.call('/api/admin/preorders/upsert', { productSlug: 'hayate-wavefolder', capacity: 5, perCustomerLimit: 1 });
  await ui.api.call('/api/reservation', { name: '予約 次郎', email: 'jiro@example.com', productSlug: 'hayate-wavefolder' });
  // The phone first, to look at the row's actions; then the laptop, which closes and deletes it.
  for (const [size, viewport] of [
    ['phone', PHONE],
    ['laptop', LAPTOP],
  ] as const) {
    const page = await ui.signedIn('preorders', viewport);
    const row = page.locator('tr[data-product="hayate-wavefolder"]');
    await row.locator('.state').waitFor();
    if (size === 'phone') {
      await screenshot(page, SHOTS, '03-campaign-actions-phone');
      await page.context().close();
      continue;
    }
    // Deleting: the console's dialog says the reservations stay and every limit goes; declined, nothing changes.
    const dialog = page.locator('dialog.confirm');
    await row.locator('button', { hasText: '削除' }).click();
    const asked = (await dialog.locator('.confirm-message').textContent())!;
    assert.match(asked, /有効な予約が 1 件/);
    assert.match(asked, /制限なく予約を受け付ける/);
    assert.match(asked, /受付を終了/);
    await dialog.locator('button', { hasText: 'やめる' }).click();
    await dialog.waitFor({ state: 'detached' });
    assert.ok((await ui.api.call('/api/admin/preorders/list', {})).preorders.some((p) => p.productSlug === 'hayate-wavefolder'));

    await row.locator('button', { hasText: '受付を終了' }).click();
    await dialog.locator('button', { hasText: '受付を終了する' }).click();
    await page.waitForFunction(() => (document.querySelector('main > .notice')?.textContent ?? '').endsWith('の予約受付を終了しました。'));
    const closed = (await ui.api.call('/api/admin/preorders/list', {})).preorders.find((p) => p.productSlug === 'hayate-wavefolder');
    assert.equal(closed?.state, 'closed');
    assert.equal(closed?.reserved, 1, 'what was taken stays counted');
    await assert.rejects(
      ui.api.call('/api/reservation', { name: '遅れ 三郎', email: 'late@example.com', productSlug: 'hayate-wavefolder' }),
      /予約受付は終了しました/,
    );
    await screenshot(page, SHOTS, '03-campaign-closed-laptop');

    await row.locator('button', { hasText: '削除' }).click();
    await dialog.locator('button', { hasText: '削除する' }).click();
    await row.waitFor({ state: 'detached' });
    assert.ok(!(await ui.api.call('/api/admin/preorders/list', {})).preorders.some((p) => p.productSlug === 'hayate-wavefolder'));
    await page.context().close();
  }
});

test('the reservations list marks the campaign’s reservations', async () => {
  await ui.api.call('/api/admin/preorders/delete', { productSlug: 'kumo-vco-2', force: true });
  await ui.api.call('/api/reservation', { name: '通常 花子', email: 'plain@example.com', productSlug: 'hayate-wavefolder' });
  const page = await ui.signedIn('reservations', LAPTOP);
  const marked = page.locator('table.records tbody tr', { has: page.locator('.preorder-mark'), hasText: 'kumo' });
  await page.locator('table.records tbody tr').first().waitFor();
  assert.equal(await marked.count(), 2, 'the two of the first campaign');
  assert.equal(await page.locator('table.records tbody tr', { hasText: '通常 花子' }).locator('.preorder-mark').count(), 0);
  await screenshot(page, SHOTS, '03-reservations-with-campaign-laptop');
  await page.context().close();
});

test('a refusal is said in Japanese from its code: a full campaign keeps a cancellation cancelled, saying to raise 台数', async () => {
  await ui.api.call('/api/admin/preorders/upsert', { productSlug: 'larkspur-multimode-filter', capacity: 1 });
  const { reservationId } = await ui.api.call('/api/reservation', {
    name: '取消 一郎',
    email: 'gave-up@example.com',
    productSlug: 'larkspur-multimode-filter',
  });
  const first = (await ui.api.call('/api/admin-reservations-list', { q: reservationId })).reservations[0]!;
  await ui.api.call('/api/admin-reservations-status', { id: reservationId, productSlug: first.productSlug, status: 'cancelled' });
  await ui.api.call('/api/reservation', {
    name: '後から 二郎',
    email: 'took-the-seat@example.com',
    productSlug: 'larkspur-multimode-filter',
  });

  const page = await ui.signedIn('reservations?q=gave-up%40example.com', LAPTOP);
  const row = page.locator('tr', { hasText: 'gave-up@example.com' });
  await row.locator('select').selectOption('pending');
  const said = '予約受付の台数に空きがないため、キャンセルから戻せません。予約受付の画面で台数を増やしてから、もう一度お試しください。';
  await page.locator('tr.row-note.error', { hasText: said }).waitFor();
  assert.equal(await page.locator('main > .notice').textContent(), said);
  assert.doesNotMatch((await page.locator('main').textContent())!, /Preorder|full/);
  await screenshot(page, SHOTS, '05-preorder-full-laptop');
  await page.context().close();
});

for (const [size, viewport] of [
  ['laptop', LAPTOP],
  ['phone', PHONE],
] as const) {
  test(`${size}: a campaign ending before it starts is said at 受付終了, with what to do, before anything is sent; so is the service’s own refusal`, async () => {
    const page = await ui.signedIn('preorders', viewport);
    await page.locator('tr[data-product="larkspur-multimode-filter"]').locator('button', { hasText: '編集' }).click();
    const sent: string[] = [];
    page.on('request', (request) => void (request.url().endsWith('/api/admin/preorders/upsert') && sent.push(request.url())));
    const submit = () => page.click('.preorder-editor button[type=submit]');
    const closes = page.locator('#preorder-closes');
    const error = page.locator('#preorder-closes-error');
    const fix = '受付終了は、受付開始より後の日時にしてください（空欄にすると終了なし）。';
    await page.fill('#preorder-opens', '2099-12-01T10:00');
    await closes.fill('2099-11-01T10:00');
    await submit();
    await error.waitFor();
    assert.equal(await error.textContent(), fix);
    assert.equal(await closes.getAttribute('aria-invalid'), 'true');
    assert.equal(await closes.getAttribute('aria-describedby'), 'preorder-closes-error');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'preorder-closes', 'the field at fault is focused');
    assert.equal(
      await error.evaluate((element) => element.parentElement?.querySelector('label')?.textContent),
      '受付終了（日本時間）',
      'said beside the field, under its label',
    );
    assert.deepEqual(sent, [], 'checked before sending');
    await screenshot(page, SHOTS, `06-closes-before-opens-${size}`);

    // The service checks it too, against the start as it will be stored: a request the browser's
    // check did not catch (rewritten here on its way) is refused, and said at the same field.
    await page.route('**/api/admin/preorders/upsert', (route) =>
      route.continue({
        postData: JSON.stringify({ ...JSON.parse(route.request().postData()!), closesAt: '2099-11-01T10:00:00+09:00' }),
      }),
    );
    await closes.fill('2099-12-31T10:00');
    await submit();
    await page.waitForFunction(
      () => document.querySelector('main > .notice')?.textContent === '入力内容に誤りがあります（受付終了）。入力を確認してください。',
    );
    await error.waitFor();
    assert.equal(await error.textContent(), fix);
    await page.unrouteAll();

    // Fixed and sent as typed: saved, and the field's error goes.
    await submit();
    await page.waitForFunction(() => (document.querySelector('main > .notice')?.textContent ?? '').endsWith('の予約受付を保存しました。'));
    const saved = (await ui.api.call('/api/admin/preorders/list', {})).preorders.find((p) => p.productSlug === 'larkspur-multimode-filter');
    assert.equal(saved?.closesAt, '2099-12-31T01:00:00.000Z');
    assert.equal(await page.locator('.preorder-editor .field-error:not([hidden])').count(), 0);
    await page.context().close();
  });
}

for (const [size, viewport, productSlug] of [
  ['laptop', LAPTOP, 'ferrocene-cloudbank'],
  ['phone', PHONE, 'oddwave-clock-divider'],
] as const) {
  test(`${size}: 受付を終了 of a campaign not open yet ends it without opening, instead of a refusal naming 受付終了`, async () => {
    await ui.api.call('/api/admin/preorders/upsert', { productSlug, opensAt: '2099-01-01T00:00:00+09:00', capacity: 5 });
    const page = await ui.signedIn('preorders', viewport);
    const row = page.locator(`tr[data-product="${productSlug}"]`);
    await row.locator('.state', { hasText: '受付前' }).waitFor();
    await row.locator('button', { hasText: '受付を終了' }).click();
    const dialog = page.locator('dialog.confirm');
    assert.match((await dialog.locator('.confirm-message').textContent())!, /開始しないまま今すぐ終了します/);
    await dialog.locator('button', { hasText: '受付を終了する' }).click();
    await page.waitForFunction(() => (document.querySelector('main > .notice')?.textContent ?? '').endsWith('の予約受付を終了しました。'));
    await row.locator('.state', { hasText: '受付終了' }).waitFor();
    const closed = (await ui.api.call('/api/admin/preorders/list', {})).preorders.find((p) => p.productSlug === productSlug)!;
    assert.deepEqual([closed.state, closed.opensAt, closed.capacity], ['closed', null, 5]);
    await page.context().close();
  });
}

test('on a phone the campaigns become cards and nothing scrolls sideways', async () => {
  await ui.api.call('/api/admin/preorders/upsert', {
    productSlug: 'tsuki-dual-lfo',
    capacity: 20,
    opensAt: '2099-01-01T00:00:00+09:00',
    shipsIn: '2099年春',
  });
  const page = await ui.signedIn('preorders', PHONE);
  const row = page.locator('tr[data-product="tsuki-dual-lfo"]');
  await row.waitFor();
  assert.equal(await row.locator('.state').textContent(), '受付前');
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390);
  await screenshot(page, SHOTS, '04-campaigns-phone');
  await row.locator('button', { hasText: '編集' }).click();
  await page.locator('#preorder-heading').scrollIntoViewIfNeeded();
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390);
  await screenshot(page, SHOTS, '05-editor-phone');
  assert.deepEqual(ui.record.errors, []);
  await page.context().close();
});

for (const [size, viewport, productSlug] of [
  ['laptop', LAPTOP, 'hayate-bitcrusher'],
  ['phone', PHONE, 'hayate-comb-filter'],
] as const) {
  test(`${size}: the editor checks with the console's own words, beside each field, and the browser's own bubbles never show`, async () => {
    const page = await ui.signedIn('preorders', viewport);
    await page.locator('#preorder-product').waitFor();
    assert.equal(await page.locator('form.preorder-editor').evaluate((form) => (form as HTMLFormElement).noValidate), true);
    const sent: string[] = [];
    page.on('request', (request) => void (request.url().endsWith('/api/admin/preorders/upsert') && sent.push(request.url())));
    await page.fill('#preorder-capacity', '1.5');
    await page.fill('#preorder-limit', '0');
    // A date half typed (its month only): the browser holds no value, and says so only in validity.badInput.
    await page.locator('#preorder-opens').click();
    await page.keyboard.type('12');
    assert.deepEqual(
      await page
        .locator('#preorder-opens')
        .evaluate((input) => [(input as HTMLInputElement).value, (input as HTMLInputElement).validity.badInput]),
      ['', true],
    );
    await page.click('.preorder-editor button[type=submit]');
    const said = async (field: string) => page.locator(`#${field}-error`).textContent();
    await page.locator('#preorder-product-error').waitFor();
    assert.equal(await said('preorder-product'), '予約受付を始める商品を選んでください。');
    assert.equal(await said('preorder-capacity'), '台数は 1〜100,000 の整数で入力してください（空欄にすると上限なし）。');
    assert.equal(await said('preorder-limit'), 'お一人様の上限は 1〜100 の整数で入力してください（空欄にすると上限なし）。');
    assert.equal(await said('preorder-opens'), '受付開始の日時を、年・月・日・時・分まで入れてください（空欄にするとすぐに開始）。');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'preorder-product', 'the first field at fault is focused');
    assert.deepEqual(sent, [], 'nothing sent');
    await screenshot(page, SHOTS, `07-editor-own-checks-${size}`);

    await page.selectOption('#preorder-product', productSlug);
    await page.fill('#preorder-opens', '');
    await page.fill('#preorder-capacity', '1');
    await page.fill('#preorder-limit', '');
    await page.click('.preorder-editor button[type=submit]');
    await page.waitForFunction(() => (document.querySelector('main > .notice')?.textContent ?? '').endsWith('の予約受付を保存しました。'));
    assert.equal(await page.locator('.preorder-editor .field-error:not([hidden])').count(), 0);
    await page.context().close();
  });

  test(`${size}: a full campaign offers 受付を終了 in red; a cancellation that would open it again says so before and after`, async () => {
    const { reservationId } = await ui.api.call('/api/reservation', { name: '満席 一郎', email: `full-${size}@example.com`, productSlug });
    const page = await ui.signedIn('preorders', viewport);
    const row = page.locator(`tr[data-product="${productSlug}"]`);
    await row.locator('.state', { hasText: '満席' }).waitFor();
    const close = row.locator('button', { hasText: '受付を終了' });
    assert.equal(await close.getAttribute('class'), 'danger', 'offered, and red as what ends something is');
    await close.click();
    const dialog = page.locator('dialog.confirm');
    assert.match(
      (await dialog.locator('.confirm-message').textContent())!,
      /満席です。受付を終了すると、キャンセルで空きが出ても新しい予約は受け付けません/,
    );
    const confirm = dialog.locator('button', { hasText: '受付を終了する' });
    const colours = await confirm.evaluate((button) => {
      const style = getComputedStyle(button);
      return { background: style.backgroundColor, bad: getComputedStyle(document.querySelector('.notice.error, .state.soldOut')!).color };
    });
    assert.equal(colours.background, colours.bad, 'the confirm button is filled in the danger colour');
    await screenshot(page, SHOTS, `08-close-full-${size}`);
    await dialog.locator('button', { hasText: 'やめる' }).click();

    // Cancelling its one reservation: the dialog says the campaign will take reservations again, and the outcome too.
    await page.goto(`${ui.app.url}/admin#/reservations?q=${reservationId}`);
    const reservationRow = page.locator('table.records tbody tr', { hasText: `full-${size}@example.com` });
    await reservationRow.locator('select').selectOption('cancelled');
    await dialog.waitFor();
    assert.match(
      (await dialog.locator('.campaign-effect').textContent())!,
      /の予約受付は満席ですが、キャンセルで空きができ、再び予約を受け付けるようになります。受け付けない場合は、予約受付の画面で「受付を終了」してください。/,
    );
    await screenshot(page, SHOTS, `09-cancel-reopens-${size}`);
    await dialog.locator('button.danger').click();
    await page.waitForFunction(() => (document.querySelector('main > .notice')?.textContent ?? '').includes('再び予約を受け付けています'));
    const campaign = (await ui.api.call('/api/admin/preorders/list', {})).preorders.find((p) => p.productSlug === productSlug)!;
    assert.deepEqual([campaign.state, campaign.remaining], ['open', 1], 'the seat went back and the campaign takes reservations');

    // Full again and closed: a cancellation gives the seat back without opening it, and says nothing of reopening.
    const second = await ui.api.call('/api/reservation', { name: '満席 二郎', email: `full2-${size}@example.com`, productSlug });
    await ui.api.call('/api/admin/preorders/upsert', { productSlug, closesAt: new Date().toISOString() });
    await page.goto(`${ui.app.url}/admin#/reservations?q=${second.reservationId}`);
    await page
      .locator('table.records tbody tr', { hasText: `full2-${size}@example.com` })
      .locator('select')
      .selectOption('cancelled');
    await dialog.waitFor();
    assert.equal(await dialog.locator('.campaign-effect').count(), 0);
    await dialog.locator('button.danger').click();
    // Another screen's showing hid the first notice (its text stays in the hidden element): this is the new one.
    await page.locator('main > .notice:not([hidden])', { hasText: 'ステータスを「キャンセル」に変更しました。' }).waitFor();
    assert.doesNotMatch((await page.locator('main > .notice').textContent())!, /再び予約/);
    const closed = (await ui.api.call('/api/admin/preorders/list', {})).preorders.find((p) => p.productSlug === productSlug)!;
    assert.equal(closed.state, 'closed');
    assert.deepEqual(ui.record.errors, []);
    await page.context().close();
  });
}
