import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, test } from 'node:test';
import type { Page } from 'playwright-core';
import { consoleSuite, SIZES } from './helpers/console.ts';
import { screenshot } from './helpers/browser.ts';
import { startHttpReceiver, type HttpReceiver } from './helpers/http-receiver.ts';
import { waitUntil } from './helpers/wait.ts';
import { formatDateTime } from '../src/console/ui/format.ts';
import { formatJapanTime } from '../src/text/japan-format.ts';

// The console's 個人情報 screen in headless Chromium, against the whole service on SQLite with a real
// HTTP receiver as the email API and the chat webhooks: finding a customer's records by address
// whatever its case, downloading them as a file the customer reads (Japanese, Japan times, product
// names, reservation numbers, the records' history) and as JSON, and erasing them after a dialog
// that names what goes and what stays outside the shop. Laptop (1366x768) and phone (390x844).

const SHOTS = 'admin-console-personal-data';
const japanDay = () => new Date(Date.now() + 9 * 3_600_000).toISOString().slice(0, 10);

let receiver: HttpReceiver;

const ui = consoleSuite(async () => {
  receiver = await startHttpReceiver();
  return {
    dispatcher: { pollIntervalMs: 25 },
    env: {
      EMAIL_PROVIDER_API_KEY: 're_test_key',
      EMAIL_API_URL: `${receiver.url}/emails`,
      RESERVATION_WEBHOOK_URL: `${receiver.url}/hooks/reservation`,
      RESTOCK_WEBHOOK_URL: `${receiver.url}/hooks/restock`,
    },
  };
});
after(() => receiver?.close());

/** 個人情報 in a signed-in tab that may download. */
async function personalDataScreen(viewport: { width: number; height: number }): Promise<Page> {
  const page = await ui.signedIn('personal-data', viewport, { acceptDownloads: true });
  await page.locator('h1', { hasText: '個人情報' }).waitFor();
  return page;
}

async function search(page: Page, email: string): Promise<void> {
  await page.fill('#personal-email', email);
  await page.click('.personal-search button[type=submit]');
  await page.locator('[data-testid=personal-summary]', { hasText: email.trim().toLowerCase() }).waitFor();
}

const exported = (email: string) => ui.api.call('/api/admin/personal-data/export', { email });

/** Downloads the file behind `button`: its name and its text. */
async function download(page: Page, button: string): Promise<{ name: string; text: string }> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.click(`text=${button}`)]);
  return { name: file.suggestedFilename(), text: readFileSync((await file.path())!, 'utf8') };
}

for (const [size, viewport] of SIZES) {
  test(`a customer's data found by address, downloaded as a file they read and as JSON, and erased only after a dialog that says what stays outside the shop (${size})`, async () => {
    const address = `Kojin.Hanako.${size}@Example.com`;
    const lower = address.toLowerCase();
    const first = await ui.api.call('/api/reservation', { name: '個人 花子', email: address, productSlug: 'kumo-vco-2' });
    const second = await ui.api.call('/api/reservation', { name: '個人 花子', email: lower, productSlug: 'tsuki-dual-lfo' });
    await ui.api.call('/api/admin-reservations-status', {
      id: first.reservationId,
      productSlug: 'kumo-vco-2',
      status: 'pending',
      notes: '店頭で受け取り希望',
    });
    await ui.api.call('/api/admin/reservations/archive', { ids: [{ id: second.reservationId, productSlug: 'tsuki-dual-lfo' }] });
    const subscription = (await ui.api.call('/api/notify', { email: address, productSlug: 'hayate-wavefolder' })).subscriptionId;
    const other = (
      await ui.api.call('/api/reservation', { name: '別人 次郎', email: `jiro.${size}@example.com`, productSlug: 'kumo-vco-2' })
    ).reservationId;
    // Each reservation's email and chat notice, and the signup's chat notice, all delivered.
    await waitUntil(async () => (await exported(lower)).messages.filter((m) => m.status === 'sent').length === 5, {
      what: 'the five messages sent',
    });
    const expected = await exported(lower);

    const page = await personalDataScreen(viewport);
    await search(page, `  ${address} `);
    assert.equal(await page.locator('[data-testid=personal-summary]').textContent(), `${lower}：予約 2 件、再入荷通知 1 件、送信記録 5 件`);
    const reservationRows = page.locator('section[aria-label=予約] tbody tr');
    assert.deepEqual(
      (await reservationRows.locator('td[data-label=ご予約番号]').allTextContents()).sort(),
      [String(first.reservationNumber), String(second.reservationNumber)].sort(),
    );
    assert.equal(
      await reservationRows
        .filter({ hasText: String(second.reservationNumber) })
        .locator('td[data-label=アーカイブ]')
        .textContent()
        .then((text) => text?.startsWith('済')),
      true,
      'the archived one is shown as such',
    );
    assert.deepEqual(await page.locator('section[aria-label=再入荷通知] td[data-label=登録番号]').allTextContents(), [subscription]);
    assert.deepEqual(
      (await page.locator('section[aria-label=送信記録] td[data-label=内容]').allTextContents()).sort(),
      ['予約の通知', '予約の通知', '予約受付', '予約受付', '再入荷通知の登録'].sort(),
      'message kinds in Japanese, not reservation-received or restock',
    );
    const shown = (await page.locator('main').textContent())!;
    assert.ok(!shown.includes(other), 'nobody else');
    assert.ok(!/reservation-received|restock|kumo-vco-2/.test(shown), 'no code on the screen');
    assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= viewport.width, 'nothing scrolls sideways');
    await screenshot(page, SHOTS, `01-found-${size}`);

    // The customer's file: Japanese, Japan times, product names, numbers, the records' history.
    const day = japanDay();
    const readable = await download(page, 'お客様用ファイル（テキスト）');
    assert.ok(
      [day, japanDay()].map((d) => `個人情報-${address}-${d}.txt`).includes(readable.name),
      `named with the address as typed (not the canonical ${lower}) and the Japan date: ${readable.name}`,
    );
    assert.ok(readable.text.startsWith('\uFEFF当店が保存しているお客様の情報'));
    const lines = readable.text.split('\r\n');
    const [mine] = expected.reservations.filter((r) => r.id === first.reservationId);
    for (const line of [
      `メールアドレス: ${lower}`,
      '■ ご予約（2 件）',
      `ご予約番号 ${first.reservationNumber}`,
      `ご予約番号 ${second.reservationNumber}`,
      '  商品: Kumo VCO II',
      '  お名前: 個人 花子',
      '  状態: 受付中',
      `  受付日時: ${formatJapanTime(mine!.createdAt)}`,
      '  メモ（当店の記録）: 店頭で受け取り希望',
      `    ${formatJapanTime(mine!.updatedAt)}　メモを「店頭で受け取り希望」に変更（当店）`,
      '■ 再入荷通知のご登録（1 件）',
      `登録番号 ${subscription}`,
      '■ お送りしたメールと、当店のスタッフ用チャットへの通知（5 件）',
    ])
      assert.ok(lines.includes(line), `the customer's file has ${JSON.stringify(line)}:\n${readable.text}`);
    assert.ok(
      lines.some((line) => line.includes('アーカイブしました（当店）')),
      'the archiving is in the history',
    );
    assert.ok(
      lines.some((line) => line.includes(`メール「予約受付」（宛先 ${lower}）: 送信済み`)),
      'emails by their names',
    );
    for (const code of ['kumo-vco-2', 'reservation-received', '"', 'pending', 'T0', 'Z'])
      assert.ok(!readable.text.includes(code), `no ${code} in the customer's file`);

    // The JSON for systems: the export whole, the history with it.
    const json = await download(page, 'システム用ファイル（JSON）');
    assert.ok([day, japanDay()].map((d) => `個人情報-${address}-${d}.json`).includes(json.name), json.name);
    const { success: _success, ...content } = expected;
    assert.deepEqual(JSON.parse(json.text), content, 'the file is the export, whole');
    assert.equal(content.history.find((h) => h.recordId === first.reservationId)!.entries[0]!.type, 'memo');

    // The erase dialog: what goes, and what stays outside the shop with what to do about it.
    await page.click('text=すべて削除…');
    const dialog = page.locator('dialog.confirm');
    await dialog.waitFor();
    const said = (await dialog.textContent())!;
    const posts = expected.messages.filter((m) => m.channel === 'chat');
    for (const text of [
      lower,
      '予約 2 件',
      String(first.reservationNumber),
      String(second.reservationNumber),
      '再入荷通知 1 件',
      subscription,
      '送信記録 5 件',
      '元に戻せません',
      'チャット（Slack・Discord）に投稿済みの通知 3 件',
      'お名前とメールアドレスが載っています',
      'チャットでこの投稿を探して削除してください',
      ...posts.map((m) => formatDateTime(m.sentAt)),
      'お客様に送信済みのメール 2 件は、お客様のメールボックスに残ります',
    ])
      assert.ok(said.includes(text), `the dialog says ${text}: ${said}`);
    assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= viewport.width, 'the dialog fits');
    // Erasing looks like it: the button that asks is in red words, the one that erases filled red.
    const looks = await page.evaluate(() => {
      const style = (selector: string) => getComputedStyle(document.querySelector(selector)!);
      return {
        asks: style('.personal-result button.danger').color,
        erases: style('dialog.confirm button.primary').backgroundColor,
        blue: style('.personal-search button.primary').backgroundColor,
      };
    });
    assert.equal(looks.erases, looks.asks, 'the erase button is the danger colour');
    assert.notEqual(looks.erases, looks.blue, 'not the blue of an ordinary action');
    await screenshot(page, SHOTS, `02-erase-dialog-${size}`);
    await dialog.locator('button', { hasText: 'やめる' }).click();
    await dialog.waitFor({ state: 'detached' });
    assert.equal((await exported(lower)).reservations.length, 2, 'cancelling erases nothing');

    await page.click('text=すべて削除…');
    await dialog.locator('button', { hasText: '削除する' }).click();
    await page.waitForFunction(() =>
      document.querySelector('main > .notice')?.textContent?.includes('予約 2 件、再入荷通知 1 件、送信記録 5 件'),
    );
    await page.locator('[data-testid=personal-summary]', { hasText: '予約 0 件、再入荷通知 0 件、送信記録 0 件' }).waitFor();
    const erased = await exported(lower);
    assert.deepEqual([erased.reservations, erased.subscriptions, erased.messages, erased.history], [[], [], [], []]);
    assert.equal((await exported(`jiro.${size}@example.com`)).reservations[0]!.id, other, 'the other customer stays');
    await screenshot(page, SHOTS, `03-erased-${size}`);

    await page.fill('#personal-email', 'not an address');
    await page.click('.personal-search button[type=submit]');
    await page.locator('main > .notice.error').waitFor();
    // Nothing typed: said by the console in Japanese, not by the browser's bubble in its own language.
    await page.locator('main > .notice button.dismiss').click();
    await page.fill('#personal-email', '');
    await page.click('.personal-search button[type=submit]');
    await page.locator('main > .notice.error:not([hidden])', { hasText: 'メールアドレス' }).waitFor();
    assert.deepEqual(ui.record.errors, []);
    await page.context().close();
  });
}
