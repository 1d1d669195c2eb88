import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { escapeHtml } from '../src/text/safe-text.ts';
import { DIALECTS, type TestApp } from './helpers/app.ts';
import { startEmailTestApp } from './helpers/email-app.ts';
import type { HttpReceiver } from './helpers/http-receiver.ts';
import { EmailApiBody, SlackBody } from './helpers/sent-bodies.ts';
import { settle } from './helpers/wait.ts';

// A reservation's name is quoted by the confirmation email, to whatever address was typed, and by
// the shop's chat notice; so a name that reads as a link (a host, a path, a scheme, markup, in
// whatever width or with whatever dots) is refused with the name detail, and nothing is stored or
// sent; every real name, in any script or width, with the punctuation people's names hold, is
// taken, and its email and chat notice quote it as plain text. Over real HTTP, with a real email API
// and webhook receiver, on both databases.

const WEBHOOK_PATH = '/hooks/reservation';
const NAME_DETAIL = [{ field: 'name', message: 'お名前を入力してください' }];

/** 52 names that would carry a link, the probe's among them. */
const DISGUISED = [
  '【重要】アカウント停止 至急 evil.example で確認',
  'evil.example/login',
  'example．com',
  'evil。example。com/login',
  'xn--80ak6aa92e.com',
  'https:evil.example',
  'javascript:alert(1)',
  '1.2.3.4/login',
  '[お支払いはこちら](evil.example/pay)',
  '<a href=//evil.example>',
  'bit.ly/x',
  '1.2.3.4',
  'evil｡example',
  'ｅｖｉｌ．ｅｘａｍｐｌｅ',
  'EVIL.EXAMPLE',
  '山田 evil.example',
  'evil.example 山田',
  '山田太郎evil.example',
  'evil-shop.co.jp',
  '例え.テスト',
  'ドメイン．ｊｐ',
  'evil.example:8080',
  'tenpo-pay.example',
  'data:text/html,x',
  'mailto:taro',
  'JAVASCRIPT:alert(1)',
  'ｊａｖａｓｃｒｉｐｔ：alert(1)',
  'vbscript:msgbox',
  'https：／／evil',
  '//evil',
  '/login',
  'evil/login',
  '山田／evil',
  '../../etc/passwd',
  '192.168.0.1',
  '１２７．０．０．１',
  '8.8.8.8:53',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '</p>山田',
  '<!-- 山田 -->',
  '山田 <b>太郎</b>',
  '[ここをクリック](https://evil)',
  '[山田] (pay)',
  '<https://evil|山田>',
  'xn--ls8h',
  'ｗｗｗ．evil',
  '山田 。evil。example',
  'evil.example。',
  '山田 bit.ly／abc',
  '123.45.67.89',
  'evil.example?ref=1',
];

/** Names people have, and the ones the other tests use: each is taken. */
const REAL = [
  '鈴木 一郎',
  'ｽｽﾞｷ ｲﾁﾛｳ',
  '山田・花子',
  'ＺＥＮテスト（株）',
  'Anne-Marie Müller',
  "O'Brien",
  'J. R. Smith',
  'J.R.R. Tolkien',
  'Dr. Ken Mori',
  '山田 太郎 🎛️',
  'x; =1',
  '=1+2',
  '"Taro" Yamada',
  'Yamada, Taro',
  '1st: 山田',
  '山田　太郎',
];

for (const dialect of DIALECTS) {
  describe(`a customer's name in the email and the chat notice (${dialect})`, () => {
    let api: HttpReceiver;
    let app: TestApp;
    let close: () => Promise<void>;
    before(async () => {
      ({ app, api, close } = await startEmailTestApp({ dialect, webhooks: ['reservation'], env: { EMAILS_PER_ADDRESS_PER_DAY: '0' } }));
    });
    after(() => close());

    const reserve = (name: string) =>
      app.request('/api/reservation', {
        method: 'POST',
        body: JSON.stringify({ name, email: 'kyaku@example.com', productSlug: 'kumo-vco-2' }),
      });

    test('52 names that read as a host, a path, a scheme or markup are refused with the name detail; nothing is stored or sent', async () => {
      assert.equal(DISGUISED.length, 52);
      const accepted: string[] = [];
      for (const name of DISGUISED) {
        const response = await reserve(name);
        if (response.status !== 400) accepted.push(name);
        else assert.deepEqual(((await response.json()) as { details: unknown }).details, NAME_DETAIL, name);
      }
      assert.deepEqual(accepted, []);
      assert.equal((await app.call('/api/admin-reservations-list', {})).success().reservations.length, 0);
      await settle(200);
      assert.equal(api.requests.length, 0);
    });

    test('real names are taken; the email’s first line and the chat notice quote each as it was typed, and its HTML makes no link of it', async () => {
      for (const name of REAL) assert.equal((await reserve(name)).status, 200, name);
      const emails = (await api.waitForAccepted(REAL.length, '/emails')).map((request) => EmailApiBody.parse(request.body));
      const chats = (await api.waitForAccepted(REAL.length, WEBHOOK_PATH)).map((request) => SlackBody.parse(request.body).text);
      for (const name of REAL) {
        const email = emails.find((sent) => sent.text.startsWith(`${name} 様\n`));
        assert.ok(email, `an email to ${name}`);
        const greeting = `<p>${escapeHtml(name)} 様</p>`;
        assert.ok(email.html.includes(greeting), email.html);
        assert.ok(
          chats.some((text) => text.includes(name)),
          `a chat notice naming ${name}`,
        );
      }
    });
  });
}
