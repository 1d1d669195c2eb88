import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { DispatcherTimings } from '../src/notifications/dispatcher.ts';
import { DIALECTS, startTestApp, type TestApp } from './helpers/app.ts';
import { startHttpReceiver, type HttpReceiver } from './helpers/http-receiver.ts';
import { startSmtpReceiver, type SmtpReceiver } from './helpers/smtp-receiver.ts';

// SPEC §6.1–6.2 through real HTTP on both dialects: the template routes, their errors, and the
// emails as the real receivers get them, rendered with the version current when they were queued.

const FAST: Partial<DispatcherTimings> = { pollIntervalMs: 25, retryBaseMs: 40, retryCapMs: 100, leaseMs: 5_000, maxAttempts: 1000 };
const KINDS = ['reservation-received', 'reservation-confirmed', 'reservation-fulfilled', 'reservation-cancelled', 'restock-available'];
type Json = Record<string, any>;

const post = async (app: TestApp, path: string, body: unknown) => {
  const response = await app.admin(`/api/admin/email-templates/${path}`, body);
  return { status: response.status, body: (await response.json()) as Json };
};

for (const dialect of DIALECTS) {
  describe(`email templates (${dialect})`, () => {
    let app: TestApp;
    let api: HttpReceiver;
    before(async () => {
      api = await startHttpReceiver();
      app = await startTestApp({
        dialect,
        env: { RATE_LIMIT_PER_MINUTE: '0', EMAIL_PROVIDER_API_KEY: 're_test', EMAIL_API_URL: `${api.url}/emails`, PUBLIC_BASE_URL: 'https://shop.example.jp' },
        dispatcher: FAST,
      });
    });
    after(async () => {
      await app.close();
      await api.close();
    });

    test('the five kinds, in the table’s order, each a Japanese default at version 1', async () => {
      const { status, body } = await post(app, 'list', {});
      assert.equal(status, 200);
      assert.deepEqual(body.templates.map((t: Json) => t.kind), KINDS);
      for (const t of body.templates) {
        assert.deepEqual(Object.keys(t).sort(), ['body', 'enabled', 'isDefault', 'kind', 'placeholders', 'subject', 'updatedAt', 'version']);
        assert.equal(t.version, 1);
        assert.equal(t.isDefault, true);
        assert.equal(t.enabled, true);
        assert.match(t.subject, /[ぁ-んァ-ン一-龯]/);
      }
      assert.deepEqual(body.templates[0].placeholders, ['name', 'productName', 'productUrl', 'price', 'reservationId', 'reservedAt', 'manageUrl'].map((name) => ({ name, required: name === 'manageUrl' })));
      assert.deepEqual(body.templates[4].placeholders, ['productName', 'productUrl', 'price', 'unsubscribeUrl'].map((name) => ({ name, required: name === 'unsubscribeUrl' })));
    });

    test('an update is a new version; versions count without gaps and list newest first; revert restores subject, body and enabled', async () => {
      const kind = 'reservation-confirmed';
      const first = await post(app, 'update', { kind, subject: '確定: {{ productName }}', enabled: false });
      assert.equal(first.status, 200);
      assert.equal(first.body.template.version, 2);
      assert.equal(first.body.template.isDefault, false);
      assert.equal(first.body.template.enabled, false);
      const second = await post(app, 'update', { kind, body: '{{name}} 様\n\n{{manageUrl}}' });
      assert.deepEqual([second.body.template.version, second.body.template.subject, second.body.template.enabled], [3, '確定: {{ productName }}', false]);
      const versions = await post(app, 'versions', { kind });
      assert.deepEqual(versions.body.versions.map((v: Json) => v.version), [3, 2, 1]);
      assert.deepEqual(Object.keys(versions.body.versions[0]).sort(), ['body', 'createdAt', 'enabled', 'subject', 'version']);
      const reverted = await post(app, 'revert', { kind, version: 1 });
      assert.equal(reverted.status, 200);
      assert.deepEqual([reverted.body.template.version, reverted.body.template.isDefault, reverted.body.template.enabled], [4, true, true]);
      assert.equal(reverted.body.template.subject, versions.body.versions[2].subject);
      assert.deepEqual(await post(app, 'revert', { kind, version: 99 }), { status: 404, body: { success: false, error: 'Version not found' } });
    });

    test('every problem in details, each naming its field; nothing is saved', async () => {
      const { status, body } = await post(app, 'update', { kind: 'reservation-received', subject: '{{Name}}\n', body: '{{ foo }} {{', enabled: false });
      assert.equal(status, 400);
      assert.equal(body.error, 'Invalid template');
      assert.deepEqual(body.details, [
        { field: 'subject', message: 'Unknown placeholder: {{Name}}' },
        { field: 'body', message: 'Unbalanced {{ at character 11: a placeholder must end with }}' },
        { field: 'body', message: 'Unknown placeholder: {{foo}}' },
        { field: 'body', message: 'Missing required placeholder: {{manageUrl}}' },
        { field: 'subject', message: 'subject must be one line' },
        { field: 'enabled', message: 'reservation-received cannot be disabled' },
      ]);
      const long = await post(app, 'update', { kind: 'restock-available', subject: 'あ'.repeat(201), body: '' });
      assert.deepEqual(long.body.details.map((d: Json) => d.field), ['subject', 'body', 'body']);
      assert.equal((await post(app, 'versions', { kind: 'reservation-received' })).body.versions.length, 1);
    });

    test('wrong types, unknown kinds, __proto__ and no token', async () => {
      for (const bad of [{ kind: 'reservation-received', subject: 5 }, { kind: 'reservation-received', enabled: 'no' }, { kind: 7 }, {}, [], 'x']) {
        const { status, body } = await post(app, 'update', bad);
        assert.equal(status, 400, JSON.stringify(bad));
        assert.equal(body.success, false);
      }
      for (const path of ['update', 'preview', 'versions', 'revert']) {
        for (const kind of ['nope', '__proto__', 'Reservation-Received']) {
          assert.deepEqual(await post(app, path, { kind, version: 1 }), { status: 404, body: { success: false, error: 'Template not found' } }, `${path} ${kind}`);
        }
      }
      assert.equal((await post(app, 'revert', { kind: 'reservation-received', version: 'one' })).status, 400);
      for (const path of ['list', 'update', 'preview', 'versions', 'revert']) {
        const response = await app.request(`/api/admin/email-templates/${path}`, { method: 'POST', body: '{"kind": 5}' });
        assert.equal(response.status, 401, path);
      }
    });

    test('preview renders given or current text with a real catalog product; the same 400s', async () => {
      const products = (await (await app.request('/api/products')).json()) as Json;
      const names: string[] = products.products.map((p: Json) => p.name);
      const { status, body } = await post(app, 'preview', { kind: 'reservation-received', subject: '{{productName}}', body: '<b>{{name}}</b>\n\n{{ price }} {{manageUrl}}' });
      assert.equal(status, 200);
      assert.ok(names.includes(body.subject), body.subject);
      assert.match(body.text, /^<b>.+<\/b>\n\n(¥[\d,]+|価格未定) https:\/\/shop\.example\.jp\/reservations\/manage\?token=\S+\n$/);
      assert.match(body.html, /<p>&lt;b&gt;.+&lt;\/b&gt;<\/p>\n<p>(¥[\d,]+|価格未定) <a href="https:\/\/shop\.example\.jp\/reservations\/manage\?token=/);
      const current = await post(app, 'preview', { kind: 'restock-available' });
      assert.ok(current.body.subject.startsWith('【入荷のお知らせ】'));
      assert.ok(current.body.text.includes('配信停止'));
      const bad = await post(app, 'preview', { kind: 'restock-available', body: 'no link' });
      assert.deepEqual(bad.body, { success: false, error: 'Invalid template', details: [{ field: 'body', message: 'Missing required placeholder: {{unsubscribeUrl}}' }] });
    });

    test('an email is sent with the version current when it was queued, not when it is sent', async () => {
      api.failAlways(503);
      const reserved = await app.request('/api/reservation', { method: 'POST', body: JSON.stringify({ name: '佐藤 <花子>', email: 'hanako@example.com', productSlug: 'kumo-vco-2' }) });
      const { reservationId } = (await reserved.json()) as Json;
      const edited = await post(app, 'update', { kind: 'reservation-received', subject: '新しい件名 {{productName}}', body: '新しい本文 {{manageUrl}}' });
      assert.equal(edited.status, 200);
      api.failAlways(0);
      const [first] = await api.waitForAccepted(1, '/emails');
      assert.equal(first!.body.subject, 'ご予約を受け付けました（Kumo VCO II）');
      assert.ok(first!.body.text.startsWith('佐藤 <花子> 様\n\n'));
      assert.ok(first!.body.text.includes(`ご予約番号: ${reservationId}\n`));
      assert.ok(first!.body.html.includes('<p>佐藤 &lt;花子&gt; 様</p>'));
      assert.match(first!.body.text, new RegExp(`https://shop\\.example\\.jp/reservations/manage\\?token=${reservationId}\\.[\\w-]+\\n`));

      await app.request('/api/reservation', { method: 'POST', body: JSON.stringify({ name: '次', email: 'next@example.com', productSlug: 'kumo-vco-2' }) });
      const second = (await api.waitForAccepted(2, '/emails'))[1]!;
      assert.equal(second.body.subject, '新しい件名 Kumo VCO II');
      assert.match(second.body.text, /^新しい本文 https:\/\/shop\.example\.jp\/reservations\/manage\?token=\S+\n$/);
      await post(app, 'revert', { kind: 'reservation-received', version: 1 });
    });
  });
}

describe('over SMTP', () => {
  let smtp: SmtpReceiver;
  let app: TestApp;
  before(async () => {
    smtp = await startSmtpReceiver();
    app = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '0', SMTP_URL: smtp.url }, dispatcher: FAST });
  });
  after(async () => {
    await app.close();
    await smtp.close();
  });

  test('an edited template arrives as written, its values filled and escaped in the HTML', async () => {
    await post(app, 'update', { kind: 'reservation-received', subject: '{{ name }}さま: {{productName}}', body: '{{name}} さま\n\n価格 {{price}}\n詳細 https://shop.example.jp/faq\n\n{{manageUrl}}' });
    await app.request('/api/reservation', { method: 'POST', body: JSON.stringify({ name: '<img src=x>', email: 'a@example.com', productSlug: 'kumo-vco-2' }) });
    const [mail] = await smtp.waitForMails(1);
    assert.equal(mail!.parsed.subject, '<img src=x>さま: Kumo VCO II');
    assert.ok(mail!.parsed.text?.startsWith('<img src=x> さま\n\n価格 ¥42,000\n詳細 https://shop.example.jp/faq\n\n'));
    const html = String(mail!.parsed.html);
    assert.ok(html.includes('<p>&lt;img src=x&gt; さま</p>'), html);
    assert.ok(html.includes('<p>価格 ¥42,000<br>\n詳細 <a href="https://shop.example.jp/faq">https://shop.example.jp/faq</a></p>'), html);
    assert.ok(!html.includes('<img'));
  });
});
