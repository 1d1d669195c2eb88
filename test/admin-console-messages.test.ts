import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { screenshot } from './helpers/browser.ts';
import { consoleSuite, SIZES } from './helpers/console.ts';
import { startHttpReceiver, type HttpReceiver } from './helpers/http-receiver.ts';
import { waitUntil } from './helpers/wait.ts';

// 送信履歴 in Chromium at a laptop's and a phone's size: a chat notice's 宛先 says where it went
// in staff's words (the shop's chat), never the webhook's name from the configuration.

let chat: HttpReceiver;

const ui = consoleSuite(
  async () => {
    chat = await startHttpReceiver();
    return { env: { RESERVATION_WEBHOOK_URL: `${chat.url}/hook` } };
  },
  async () => {
    await ui.api.call('/api/reservation', { name: '山田 太郎', email: 'taro@example.com', productSlug: 'kumo-vco-2' });
    await chat.waitForAccepted(1, '/hook');
    await waitUntil(async () => (await ui.api.call('/api/admin/messages/list', { channel: 'chat' })).messages[0]?.status === 'sent');
  },
);
after(() => chat?.close());

for (const [size, viewport] of SIZES) {
  test(`a chat notice's 宛先 is the shop's chat, not the webhook's name (${size})`, async () => {
    const page = await ui.signedIn('messages?channel=chat', viewport);
    const to = page.locator('table.records tbody tr:not(.row-note) td[data-label="宛先"]');
    await to.first().waitFor();
    assert.deepEqual(await to.allTextContents(), ['ショップのチャット']);
    await screenshot(page, 'admin-console-messages', `${size}-chat-destination`);
    await page.close();
  });
}

test('the pages had no errors', () => {
  assert.deepEqual(ui.record.errors, []);
});
