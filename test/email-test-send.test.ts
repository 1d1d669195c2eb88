import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, startTestApp, type TestApp } from './helpers/app.ts';
import { startEmailTestApp } from './helpers/email-app.ts';
import type { HttpReceiver } from './helpers/http-receiver.ts';
import { outboxStatusCounts } from './helpers/outbox.ts';
import { EmailApiBody } from './helpers/sent-bodies.ts';
import { startSmtpReceiver, type SmtpReceiver } from './helpers/smtp-receiver.ts';
import { TEMPLATE_KINDS } from '../src/messaging/kinds.ts';

// POST /api/admin/email-templates/test-send (the console's 「テスト送信」; an extension of the template routes):
// the text rendered as the preview renders it, sent at once through the configured provider, the
// provider's refusal answered as 502 with its reason; nothing queued. Through the real HTTP email
// API receiver and the real SMTP receiver, on both dialects.

const PATH = '/api/admin/email-templates/test-send';
const TEST_LINE = '※ これはメールテンプレートのテスト送信です（お客様には送られていません）。';
const SMTP_PASSWORD = 'smtp-secret-password';

for (const dialect of DIALECTS) {
  describe(`test send through the email API (${dialect})`, () => {
    let app: TestApp;
    let api: HttpReceiver;
    let close: () => Promise<void>;
    before(async () => {
      ({ app, api, close } = await startEmailTestApp({ dialect, env: { EMAIL_FROM: 'tenpo <shop@tenpo.example>' } }));
    });
    after(() => close());

    test('sends the unsaved text, rendered as the preview, to the address typed; nothing is queued or saved', async () => {
      const text = {
        kind: 'reservation-confirmed',
        subject: '確定のお知らせ {{productName}}',
        body: '{{name}} 様 <テスト>\n\n{{price}}\n\n{{manageUrl}}',
      };
      const preview = (await app.call('/api/admin/email-templates/preview', text)).success();
      const answer = (await app.call(PATH, { ...text, to: '  Staff@Example.com ' })).success();
      assert.deepEqual(answer, { success: true, status: 'sent' });
      const [request] = api.accepted('/emails');
      const sent = EmailApiBody.parse(request!.body);
      assert.deepEqual(sent.to, ['Staff@Example.com'], 'trimmed, as the public forms read an address');
      assert.equal(sent.from, 'tenpo <shop@tenpo.example>');
      assert.equal(sent.subject, `【テスト送信】${preview.subject}`, 'marked as a test in the subject');
      // The sample reservation's id is new each time; everything else is the preview's, after the test line.
      const sameBut = (s: string) => s.replace(/res_[0-9a-f-]+/g, 'res_…');
      assert.equal(
        sameBut(sent.text),
        sameBut(`${TEST_LINE}ご予約番号 1000 などは見本で、実際のご予約やお客様とは関係ありません。\n\n${preview.text}`),
      );
      assert.equal(
        sameBut(sent.html),
        sameBut(
          preview.html.replace('<p>', `<p>${TEST_LINE}ご予約番号 1000 などは見本で、実際のご予約やお客様とは関係ありません。</p>\n<p>`),
        ),
      );
      assert.ok(sent.html.includes('様 &lt;テスト&gt;'), 'escaped in the HTML part');
      assert.equal(request!.headers.authorization, 'Bearer re_test');
      assert.match(String(request!.headers['idempotency-key']), /^test-send\/[0-9a-f-]{36}$/);
      assert.deepEqual(await outboxStatusCounts(app.services.database.db), { pending: 0, sent: 0, skipped: 0, dead: 0, superseded: 0 });
      const [current] = (await app.call('/api/admin/email-templates/versions', { kind: 'reservation-confirmed' })).success().versions;
      assert.equal(current!.version, 1, 'a test send saves nothing: still the default');
    });

    test('every kind’s test send is marked テスト in its subject and first line, its sample reservation numbered 1000, which the shop never gives', async () => {
      // The shop numbers reservations from 1001 up (reservation-numbers.test.ts): 1001 is its first customer's.
      for (const kind of TEMPLATE_KINDS) {
        api.requests.length = 0;
        (await app.call(PATH, { kind, to: 'staff@example.com' })).success();
        const sent = EmailApiBody.parse(api.accepted('/emails')[0]!.body);
        assert.ok(sent.subject.startsWith('【テスト送信】'), `${kind}: ${sent.subject}`);
        assert.ok(sent.text.startsWith(TEST_LINE), `${kind}: ${sent.text}`);
        assert.ok(sent.html.includes(`<p>${TEST_LINE}`), kind);
        assert.doesNotMatch(`${sent.subject}\n${sent.text}`, /1001/, `${kind}: not the first customer's number`);
        if (kind !== 'restock-available') assert.match(sent.text, /ご予約番号: 1000\b/, kind);
      }
    });

    test('without subject and body the current version is sent; a restock email keeps its unsubscribe headers', async () => {
      api.requests.length = 0;
      (await app.call(PATH, { kind: 'restock-available', to: 'staff@example.com' })).success();
      const sent = EmailApiBody.parse(api.accepted('/emails')[0]!.body);
      assert.ok(sent.subject.startsWith('【テスト送信】【入荷のお知らせ】'), sent.subject);
      assert.match(sent.headers?.['List-Unsubscribe'] ?? '', /^<https:\/\/shop\.example\.jp\/api\/notify\/unsubscribe\?token=sample>$/);
    });

    test('the provider’s refusal is the answer: 502 with its reason, and nothing is retried later', async () => {
      api.requests.length = 0;
      api.failNext(1, 422);
      const refused = (await app.call(PATH, { kind: 'reservation-received', to: 'staff@example.com' })).failure(502);
      assert.deepEqual(refused, { success: false, error: 'Email not sent: HTTP 422: {"error":"unavailable"}', code: 'email_not_sent' });
      assert.ok(!JSON.stringify(refused).includes(api.url), 'the provider’s URL is not shown');
      assert.equal(api.requests.length, 1);
      assert.deepEqual(
        await outboxStatusCounts(app.services.database.db),
        { pending: 0, sent: 0, skipped: 0, dead: 0, superseded: 0 },
        'nothing left to retry',
      );
    });

    test('a bad address or wrong types → 400 Invalid parameters; template problems → the preview’s 400; unknown kind → 404', async () => {
      const badTo = [
        '',
        'not-an-address',
        'a@',
        `${'a'.repeat(250)}@example.com`,
        'a b@example.com',
        'x@example.com\r\nBcc: y@example.com',
        5,
        null,
        ['a@example.com'],
        {},
      ];
      for (const to of badTo) {
        const body = (await app.call(PATH, { kind: 'reservation-received', to })).failure(400);
        assert.deepEqual(
          body,
          {
            success: false,
            error: 'Invalid parameters',
            code: 'invalid_parameters',
            details: [{ field: 'to', message: 'to must be a valid email address of at most 254 characters' }],
          },
          JSON.stringify(to),
        );
      }
      assert.deepEqual(
        (await app.call(PATH, { kind: 'reservation-received' })).failure(400).details?.map((d) => d.field),
        ['to'],
      );
      const prototype = await app.request(PATH, {
        method: 'POST',
        headers: { authorization: `Bearer ${app.env.PREORDER_API_TOKEN}` },
        body: '{"kind":"reservation-received","__proto__":{"to":"a@example.com"}}',
      });
      assert.equal(prototype.status, 400, 'a `to` under __proto__ is not a `to`');
      assert.deepEqual(
        (await app.call(PATH, { kind: 7, to: 'a@example.com', subject: 1, body: false })).failure(400).details?.map((d) => d.field),
        ['kind', 'subject', 'body'],
      );
      for (const bad of [[], 'x', null, 42]) assert.equal((await app.call(PATH, bad)).failure(400).error, 'Invalid JSON body');
      const template = (
        await app.call(PATH, { kind: 'reservation-received', to: 'a@example.com', subject: '{{ Name }}', body: 'リンクなし' })
      ).failure(400);
      assert.deepEqual(template, {
        success: false,
        error: 'Invalid template',
        code: 'invalid_template',
        details: [
          { field: 'subject', message: 'Unknown placeholder: {{Name}}' },
          { field: 'body', message: 'Missing required placeholder: {{manageUrl}}' },
        ],
      });
      for (const kind of ['nope', '__proto__', 'constructor']) {
        assert.deepEqual((await app.call(PATH, { kind, to: 'a@example.com' })).failure(404), {
          success: false,
          error: 'Template not found',
          code: 'template_not_found',
        });
      }
      const unicode = (
        await app.call(PATH, { kind: 'reservation-received', to: 'staff@example.com', subject: '🎛️ ｼﾝｾ\u202e {{productName}}' })
      ).success();
      assert.equal(unicode.status, 'sent');
      const huge = await app.request(PATH, {
        method: 'POST',
        headers: { authorization: `Bearer ${app.env.PREORDER_API_TOKEN}` },
        body: JSON.stringify({ kind: 'reservation-received', to: 'a@example.com', body: 'あ'.repeat(70_000) }),
      });
      assert.equal(huge.status, 413);
      assert.equal(
        api.accepted('/emails').filter((r) => EmailApiBody.parse(r.body).to[0] !== 'staff@example.com').length,
        0,
        'nothing refused was sent',
      );
    });

    test('401 before validation: no token, or a wrong one, whatever the body', async () => {
      const before = api.requests.length;
      for (const headers of [{}, { authorization: 'Bearer wrong' }] as Record<string, string>[]) {
        for (const body of ['{"kind": 5}', 'not json', JSON.stringify({ kind: 'reservation-received', to: 'a@example.com' })]) {
          const response = await app.request(PATH, { method: 'POST', headers, body });
          assert.equal(response.status, 401);
          assert.deepEqual(await response.json(), { success: false, error: 'Unauthorized', code: 'unauthorized' });
        }
      }
      assert.equal(api.requests.length, before, 'nothing sent');
    });
  });

  describe(`test send over SMTP (${dialect})`, () => {
    let app: TestApp;
    let smtp: SmtpReceiver;
    before(async () => {
      smtp = await startSmtpReceiver();
      app = await startTestApp({ dialect, env: { SMTP_URL: smtp.url, EMAIL_FROM: 'tenpo <shop@tenpo.example>' } });
    });
    after(async () => {
      await app.close();
      await smtp.close();
    });

    test('arrives at the real SMTP receiver with the rendered subject, text and HTML', async () => {
      (await app.call(PATH, { kind: 'reservation-cancelled', to: 'staff@example.com', subject: 'テスト {{productName}}' })).success();
      const [mail] = await smtp.waitForMails(1);
      assert.deepEqual(mail!.envelopeTo, ['staff@example.com']);
      assert.match(mail!.parsed.subject ?? '', /^【テスト送信】テスト .+/);
      assert.ok(mail!.parsed.text?.startsWith(TEST_LINE));
      assert.ok(mail!.parsed.text?.includes('山田 太郎 様'));
      assert.ok(String(mail!.parsed.html).includes('<p>山田 太郎 様</p>'));
    });

    test('an SMTP refusal is answered 502 with the server’s reason, never the password', async () => {
      smtp.failNext(1);
      const refused = (await app.call(PATH, { kind: 'reservation-received', to: 'staff@example.com' })).failure(502);
      assert.match(refused.error, /^Email not sent: .*451/);
      assert.ok(!JSON.stringify(refused).includes(SMTP_PASSWORD));
      assert.ok(!JSON.stringify(app.logs).includes(SMTP_PASSWORD));
      assert.deepEqual(await outboxStatusCounts(app.services.database.db), { pending: 0, sent: 0, skipped: 0, dead: 0, superseded: 0 });
    });
  });
}

describe('test send with no provider configured', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.close());

  test('is written to the log and answered skipped', async () => {
    assert.deepEqual((await app.call(PATH, { kind: 'reservation-received', to: 'staff@example.com' })).success(), {
      success: true,
      status: 'skipped',
    });
    const logged = app.logs.filter((l) => l.msg === 'email skipped: no provider configured');
    assert.equal(logged.length, 1);
    assert.equal(logged[0]!.to, 'staff@example.com');
  });
});
