import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { screenshot } from './helpers/browser.ts';
import { consoleSuite, LAPTOP, SIZES } from './helpers/console.ts';
import { FAST_DISPATCH } from './helpers/email-app.ts';
import { startHttpReceiver, type HttpReceiver } from './helpers/http-receiver.ts';
import { resendEvent, signAsSvix, webhookSecret } from './helpers/svix.ts';
import { waitUntil } from './helpers/wait.ts';

// 配信停止 in Chromium at a laptop's and a phone's size, over suppressions the provider's signed
// events made: the list says why each address gets nothing, a complaint cannot be lifted, a bounce
// is lifted with a reason the console checks before it asks the service; the message log and the
// dashboard say the same.

let emails: HttpReceiver;
const secret = webhookSecret();

/** A reservation by `email`, its confirmation sent, then the provider's `event` about that email. */
async function reserveThen(email: string, event: (emailId: string) => Record<string, unknown>[]): Promise<void> {
  const { reservationId } = await ui.api.call('/api/reservation', { name: '山田 太郎', email, productSlug: 'kumo-vco-2' });
  const emailId = await waitUntil(async () => {
    const row = await ui.app.services.database.db
      .selectFrom('outbox')
      .select('provider_message_id')
      .where('record_id', '=', reservationId)
      .where('channel', '=', 'email')
      .executeTakeFirst();
    return row?.provider_message_id;
  });
  for (const body of event(emailId)) {
    const delivery = signAsSvix(secret, body);
    assert.equal(
      (await ui.app.request('/api/webhooks/email', { method: 'POST', headers: delivery.headers, body: delivery.body })).status,
      200,
    );
  }
}

const ui = consoleSuite(
  async () => {
    emails = await startHttpReceiver();
    return {
      env: {
        EMAIL_PROVIDER_API_KEY: 're_test',
        EMAIL_API_URL: `${emails.url}/emails`,
        EMAIL_WEBHOOK_SECRET: secret,
        EMAILS_PER_ADDRESS_PER_DAY: '0',
      },
      dispatcher: FAST_DISPATCH,
    };
  },
  async () => {
    const permanent = (id: string) => [resendEvent('email.bounced', id, { bounce: { type: 'Permanent', message: '550 5.1.1 unknown' } })];
    await reserveThen('spam.reporter@example.com', (id) => [resendEvent('email.complained', id)]);
    await reserveThen('gone.laptop@example.com', permanent);
    await reserveThen('gone.phone@example.com', permanent);
    await reserveThen('full.mailbox@example.com', (id) =>
      [1, 2, 3].map(() => resendEvent('email.bounced', id, { bounce: { type: 'Transient' } })),
    );
  },
);
after(() => emails?.close());

for (const [size, viewport] of SIZES) {
  test(`配信停止 lists why each address gets nothing, and lifts a bounce with a reason (${size})`, async () => {
    const address = `gone.${size}@example.com`;
    const page = await ui.signedIn('suppressions', viewport);
    const rows = page.locator('table.suppressions tbody tr');
    await rows.first().waitFor();
    const reasonOf = async (email: string) =>
      (await rows.filter({ hasText: email }).locator('td[data-label="理由"]').textContent())?.trim();
    assert.equal(await reasonOf('spam.reporter@example.com'), '新規メール停止中（迷惑メールとして報告されました）');
    assert.equal(await reasonOf(address), '配信不能（宛先のメールボックスがありません）');
    assert.equal(await reasonOf('full.mailbox@example.com'), '配信不能（7日間に3回届きませんでした）');
    const complaint = rows.filter({ hasText: 'spam.reporter@example.com' });
    assert.equal(await complaint.locator('button').count(), 0, 'a complaint has no 解除');
    assert.equal((await complaint.locator('td[data-label="操作"]').textContent())?.trim(), '解除できません');
    await screenshot(page, 'admin-console-suppressions', `${size}-list`);

    await rows.filter({ hasText: address }).locator('button.lift').click();
    const dialog = page.locator('dialog.confirm');
    const confirm = dialog.locator('button.primary');
    assert.equal(await confirm.isDisabled(), true, 'no reason yet');
    await dialog.locator('#lift-reason').fill('あ'.repeat(501));
    assert.equal(await confirm.isDisabled(), true);
    assert.match((await dialog.locator('#lift-reason-error').textContent()) ?? '', /500文字以内/);
    await dialog.locator('#lift-reason').fill('  お客様から、メールボックスを作り直したと電話がありました  ');
    assert.equal(await confirm.isDisabled(), false);
    assert.equal(await dialog.locator('#lift-reason-error').isHidden(), true);
    await screenshot(page, 'admin-console-suppressions', `${size}-lift`, { fullPage: false });
    await confirm.click();
    await page.locator('.notice', { hasText: `${address} の配信停止を解除しました。` }).waitFor();
    await rows.filter({ hasText: 'spam.reporter@example.com' }).waitFor();
    assert.equal(await rows.filter({ hasText: address }).count(), 0);
    const row = await ui.app.services.database.db
      .selectFrom('email_suppressions')
      .selectAll()
      .where('address', '=', address)
      .executeTakeFirstOrThrow();
    assert.deepEqual([row.lift_reason, row.lifted_by], ['お客様から、メールボックスを作り直したと電話がありました', null]);

    await page.selectOption('#suppressions-reason', 'complaint');
    await page.waitForURL(/reason=complaint/);
    await waitUntil(async () => (await rows.count()) === 1);
    await page.close();
  });
}

test('an email skipped for its suppressed address says so in 送信履歴; the dashboard counts complaints and links here', async () => {
  const { reservationId } = await ui.api.call('/api/reservation', {
    name: '山田 太郎',
    email: 'spam.reporter@example.com',
    productSlug: 'kumo-vco-2',
  });
  await waitUntil(
    async () =>
      (await ui.api.call('/api/admin/messages/list', { recordId: reservationId, channel: 'email' })).messages[0]?.status === 'skipped',
  );
  const page = await ui.signedIn(`messages?record=${reservationId}`, LAPTOP);
  // The email's row (the chat notice queued beside it may be listed first: they share a time).
  const status = page.locator('table.records tbody tr', { hasText: 'spam.reporter@example.com' }).locator('td[data-label="ステータス"]');
  await status.waitFor();
  assert.match((await status.textContent()) ?? '', /送信せず（配信停止中のアドレス）/);
  await page.goto(`${ui.app.url}/admin#/dashboard`);
  const card = page.locator('.card', { hasText: '迷惑メールの報告（過去30日）' });
  await card.waitFor();
  assert.equal((await card.locator('.value').textContent())?.trim(), '1');
  assert.match((await card.locator('.sub').textContent()) ?? '', /再入荷通知メールの送信はありません。宛先不明 2 件、一時的な不達 3 件/);
  await card.locator('a', { hasText: '配信停止の一覧を見る' }).click();
  await page.locator('h1', { hasText: '配信停止' }).waitFor();
  await page.close();
});

for (const [size, viewport] of SIZES) {
  test(`a reservation's own page says why its customer gets no email; another's says nothing (${size})`, async () => {
    const { reservationId } = await ui.api.call('/api/reservation', {
      name: '山田 太郎',
      email: 'Spam.Reporter+x@example.com',
      productSlug: 'kumo-vco-2',
    });
    const page = await ui.signedIn(`reservations?record=${reservationId}`, viewport);
    const note = page.locator('p.page-note.suppressed');
    await note.waitFor();
    assert.match(
      (await note.textContent()) ?? '',
      /配信停止中です（新規メール停止中（迷惑メールとして報告されました）、.*から）。お客様へのメールは送られません。/,
    );
    await screenshot(page, 'admin-console-suppressions', `${size}-record-page`);
    const other = await ui.api.call('/api/reservation', { name: '佐藤 花子', email: 'hanako@example.com', productSlug: 'kumo-vco-2' });
    await page.goto(`${ui.app.url}/admin#/reservations?record=${other.reservationId}`);
    await page.locator('h1', { hasText: 'ご予約番号' }).waitFor();
    await page.locator('.timeline, section.facts').first().waitFor();
    assert.equal(await note.isVisible(), false);
    await page.close();
  });
}

test('the pages had no errors', () => {
  assert.deepEqual(ui.record.errors, []);
});
