import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { DispatcherTimings } from '../src/messaging/delivery/dispatcher.ts';
import { DIALECTS, startTestApp, type TestApp } from './helpers/app.ts';
import { FAST_DISPATCH, startEmailTestApp } from './helpers/email-app.ts';
import type { HttpReceiver } from './helpers/http-receiver.ts';
import { EmailApiBody } from './helpers/sent-bodies.ts';
import { startSmtpReceiver, type SmtpReceiver } from './helpers/smtp-receiver.ts';

// The customer emails' templates through real HTTP on both dialects: the template routes, their errors, and the
// emails as the real receivers get them, rendered with the version current when they were queued.

/** A provider down for a while must not make a message dead here. */
const PATIENT: Partial<DispatcherTimings> = { maxAttempts: 1000 };
const KINDS = ['reservation-received', 'reservation-confirmed', 'reservation-fulfilled', 'reservation-cancelled', 'restock-available'];
/** A new store's templates are version 1 each, today's default wording (an older store keeps the versions it had). */
const DEFAULT_VERSION = 1;
const email = (request: { body: unknown }) => EmailApiBody.parse(request.body);

for (const dialect of DIALECTS) {
  describe(`email templates (${dialect})`, () => {
    let app: TestApp;
    let api: HttpReceiver;
    let close: () => Promise<void>;
    before(async () => {
      ({ app, api, close } = await startEmailTestApp({ dialect, dispatcher: PATIENT }));
    });
    after(() => close());

    test('the five kinds, in the table’s order, each a Japanese default, at the version of today’s wording', async () => {
      const body = (await app.call('/api/admin/email-templates/list', {})).success();
      assert.deepEqual(
        body.templates.map((t) => t.kind),
        KINDS,
      );
      for (const t of body.templates) {
        assert.deepEqual(Object.keys(t).sort(), [
          'body',
          'enabled',
          'isDefault',
          'kind',
          'placeholders',
          'subject',
          'updatedAt',
          'version',
        ]);
        assert.equal(t.version, DEFAULT_VERSION);
        assert.equal(t.isDefault, true);
        assert.match(t.body, /\{\{shopSignature\}\}$/, 'ends with the shop’s signature');
        assert.equal(t.enabled, true);
        assert.match(t.subject, /[ぁ-んァ-ン一-龯]/);
      }
      assert.deepEqual(
        body.templates[0]!.placeholders,
        [
          'name',
          'productName',
          'productUrl',
          'price',
          'reservationId',
          'reservationNumber',
          'reservedAt',
          'manageUrl',
          'shipsIn',
          'preorderNote',
          'shopSignature',
        ].map((name) => ({
          name,
          required: name === 'manageUrl',
        })),
      );
      assert.deepEqual(
        body.templates[4]!.placeholders,
        ['productName', 'productUrl', 'price', 'unsubscribeUrl', 'shopSignature'].map((name) => ({
          name,
          required: name === 'unsubscribeUrl' || name === 'shopSignature',
        })),
      );
    });

    test('with expectedVersion, a version saved since is 409 changed_by_someone_else and nothing is saved', async () => {
      const kind = 'reservation-fulfilled';
      const [start] = (await app.call('/api/admin/email-templates/versions', { kind })).success().versions;
      const theirs = (
        await app.call('/api/admin/email-templates/update', { kind, subject: '同僚の件名', expectedVersion: start!.version })
      ).success().template;
      assert.equal(theirs.version, start!.version + 1);
      assert.deepEqual(
        (await app.call('/api/admin/email-templates/update', { kind, body: '{{manageUrl}}', expectedVersion: start!.version })).failure(
          409,
        ),
        { success: false, error: 'Template was changed by someone else', code: 'changed_by_someone_else' },
      );
      const [now] = (await app.call('/api/admin/email-templates/versions', { kind })).success().versions;
      assert.deepEqual([now!.version, now!.subject], [theirs.version, '同僚の件名'], 'the colleague’s save kept, nothing added');
      const mine = (
        await app.call('/api/admin/email-templates/update', { kind, body: '{{manageUrl}}', expectedVersion: theirs.version })
      ).success();
      assert.deepEqual([mine.template.subject, mine.template.body], ['同僚の件名', '{{manageUrl}}']);
      for (const wrong of [0, 1.5, '2', null])
        assert.equal(
          (await app.call('/api/admin/email-templates/update', { kind, subject: 'x', expectedVersion: wrong as number })).failure(400).code,
          'invalid_template',
        );
    });

    test('an update is a new version; versions count without gaps and list newest first; revert restores subject, body and enabled', async () => {
      const kind = 'reservation-confirmed';
      const first = (
        await app.call('/api/admin/email-templates/update', { kind, subject: '確定: {{ productName }}', enabled: false })
      ).success().template;
      assert.deepEqual([first.version, first.isDefault, first.enabled], [2, false, false]);
      const second = (await app.call('/api/admin/email-templates/update', { kind, body: '{{name}} 様\n\n{{manageUrl}}' })).success()
        .template;
      assert.deepEqual([second.version, second.subject, second.enabled], [3, '確定: {{ productName }}', false]);
      const { versions } = (await app.call('/api/admin/email-templates/versions', { kind })).success();
      assert.deepEqual(
        versions.map((v) => v.version),
        [3, 2, 1],
      );
      assert.deepEqual(Object.keys(versions[0]!).sort(), ['body', 'createdAt', 'enabled', 'subject', 'version']);
      const reverted = (await app.call('/api/admin/email-templates/revert', { kind, version: 1 })).success().template;
      assert.deepEqual([reverted.version, reverted.isDefault, reverted.enabled, reverted.subject], [4, true, true, versions[2]!.subject]);
      const second2 = (await app.call('/api/admin/email-templates/revert', { kind, version: 2 })).success().template;
      assert.deepEqual([second2.version, second2.isDefault, second2.enabled], [5, false, false], 'an edit is not the default');
      assert.deepEqual((await app.call('/api/admin/email-templates/revert', { kind, version: 99 })).failure(404), {
        success: false,
        error: 'Version not found',
        code: 'version_not_found',
      });
      // Saves at once still count without gaps.
      const saved = await Promise.all(
        [1, 2, 3, 4].map((n) => app.call('/api/admin/email-templates/update', { kind, subject: `同時 ${n}` })),
      );
      assert.deepEqual(saved.map((a) => a.success().template.version).sort(), [6, 7, 8, 9]);
    });

    test('every problem in details, each naming its field; nothing is saved', async () => {
      const body = (
        await app.call('/api/admin/email-templates/update', {
          kind: 'reservation-received',
          subject: '{{Name}}\n',
          body: '{{ foo }} {{',
          enabled: false,
        })
      ).failure(400);
      assert.equal(body.error, 'Invalid template');
      assert.deepEqual(body.details, [
        { field: 'subject', message: 'Unknown placeholder: {{Name}}' },
        { field: 'body', message: 'Unbalanced {{ at character 11: a placeholder must end with }}' },
        { field: 'body', message: 'Unknown placeholder: {{foo}}' },
        { field: 'body', message: 'Missing required placeholder: {{manageUrl}}' },
        { field: 'subject', message: 'subject must be one line' },
        { field: 'enabled', message: 'reservation-received cannot be disabled' },
      ]);
      const long = (
        await app.call('/api/admin/email-templates/update', { kind: 'restock-available', subject: 'あ'.repeat(201), body: '' })
      ).failure(400);
      assert.deepEqual(
        long.details?.map((d) => d.field),
        ['subject', 'body', 'body', 'body'],
      );
      assert.equal((await app.call('/api/admin/email-templates/versions', { kind: 'reservation-received' })).success().versions.length, 1);
    });

    test('a body of 9,000 {{ is refused with a small answer: the first unclosed one, not each of them', async () => {
      const response = await app.admin('/api/admin/email-templates/preview', { kind: 'reservation-received', body: '{{'.repeat(9_000) });
      assert.equal(response.status, 400);
      const text = await response.text();
      assert.ok(text.length < 1_000, `${text.length} characters`);
      assert.deepEqual((JSON.parse(text) as { details: unknown[] }).details, [
        { field: 'body', message: 'Unbalanced {{ at character 1: a placeholder must end with }}' },
        { field: 'body', message: 'Missing required placeholder: {{manageUrl}}' },
      ]);
    });

    test('wrong types, unknown kinds, __proto__ and no token', async () => {
      for (const bad of [
        { kind: 'reservation-received', subject: 5 },
        { kind: 'reservation-received', enabled: 'no' },
        { kind: 7 },
        {},
        [],
        'x',
      ]) {
        (await app.call('/api/admin/email-templates/update', bad)).failure(400);
      }
      for (const path of ['update', 'preview', 'versions', 'revert'] as const) {
        for (const kind of ['nope', '__proto__', 'Reservation-Received']) {
          assert.deepEqual(
            (await app.call(`/api/admin/email-templates/${path}`, { kind, version: 1 })).failure(404),
            { success: false, error: 'Template not found', code: 'template_not_found' },
            `${path} ${kind}`,
          );
        }
      }
      (await app.call('/api/admin/email-templates/revert', { kind: 'reservation-received', version: 'one' })).failure(400);
      for (const path of ['list', 'update', 'preview', 'versions', 'revert']) {
        const response = await app.request(`/api/admin/email-templates/${path}`, { method: 'POST', body: '{"kind": 5}' });
        assert.equal(response.status, 401, path);
      }
    });

    test('preview renders given or current text with a real catalog product; the same 400s', async () => {
      const names = (await app.read('/api/products', await app.request('/api/products'))).success().products.map((p) => p.name);
      const body = (
        await app.call('/api/admin/email-templates/preview', {
          kind: 'reservation-received',
          subject: '{{productName}}',
          body: '<b>{{name}}</b>\n\n{{ price }} {{manageUrl}}',
        })
      ).success();
      assert.ok(names.includes(body.subject), body.subject);
      assert.match(body.text, /^<b>.+<\/b>\n\n(¥[\d,]+|価格未定) https:\/\/shop\.example\.jp\/reservations\/manage\?token=\S+\n$/);
      assert.match(
        body.html,
        /<p>&lt;b&gt;.+&lt;\/b&gt;<\/p>\n<p>(¥[\d,]+|価格未定) <a href="https:\/\/shop\.example\.jp\/reservations\/manage\?token=/,
      );
      const current = (await app.call('/api/admin/email-templates/preview', { kind: 'restock-available' })).success();
      assert.ok(current.subject.startsWith('【入荷のお知らせ】'));
      assert.ok(current.text.includes('配信停止'));
      const bad = (await app.call('/api/admin/email-templates/preview', { kind: 'restock-available', body: 'no link' })).failure(400);
      assert.deepEqual(bad, {
        success: false,
        error: 'Invalid template',
        code: 'invalid_template',
        details: [
          { field: 'body', message: 'Missing required placeholder: {{unsubscribeUrl}}' },
          { field: 'body', message: 'Missing required placeholder: {{shopSignature}}' },
        ],
      });
    });

    test('an email is sent with the version current when it was queued, not when it is sent', async () => {
      api.failAlways(503);
      const reserved = await app.request('/api/reservation', {
        method: 'POST',
        body: JSON.stringify({ name: '佐藤 "花子" & <3', email: 'hanako@example.com', productSlug: 'kumo-vco-2' }),
      });
      const { reservationId } = (await app.read('/api/reservation', reserved)).success();
      (
        await app.call('/api/admin/email-templates/update', {
          kind: 'reservation-received',
          subject: '新しい件名 {{productName}}',
          body: '新しい本文 {{manageUrl}}',
        })
      ).success();
      api.failAlways(0);
      const first = email((await api.waitForAccepted(1, '/emails'))[0]!);
      assert.equal(first.subject, 'ご予約を受け付けました（Kumo VCO II）');
      assert.ok(first.text.startsWith('佐藤 "花子" & <3 様\n\n'));
      assert.match(first.text, /^ご予約番号: \d{4,}$/m);
      assert.ok(first.html.includes('<p>佐藤 &quot;花子&quot; &amp; &lt;3 様</p>'));
      assert.match(first.text, new RegExp(`https://shop\\.example\\.jp/reservations/manage\\?token=${reservationId}\\.[\\w-]+\\n`));

      await app.request('/api/reservation', {
        method: 'POST',
        body: JSON.stringify({ name: '次', email: 'next@example.com', productSlug: 'kumo-vco-2' }),
      });
      const second = email((await api.waitForAccepted(2, '/emails'))[1]!);
      assert.equal(second.subject, '新しい件名 Kumo VCO II');
      assert.match(second.text, /^新しい本文 https:\/\/shop\.example\.jp\/reservations\/manage\?token=\S+\n$/);
      (await app.call('/api/admin/email-templates/revert', { kind: 'reservation-received', version: 1 })).success();
    });
  });
}

describe('over SMTP', () => {
  let smtp: SmtpReceiver;
  let app: TestApp;
  before(async () => {
    smtp = await startSmtpReceiver();
    app = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '0', SMTP_URL: smtp.url }, dispatcher: { ...FAST_DISPATCH, ...PATIENT } });
  });
  after(async () => {
    await app.close();
    await smtp.close();
  });

  test('an edited template arrives as written, its values filled and escaped in the HTML', async () => {
    (
      await app.call('/api/admin/email-templates/update', {
        kind: 'reservation-received',
        subject: '{{ name }}さま: {{productName}}',
        body: '{{name}} さま\n\n価格 {{price}}\n詳細 https://shop.example.jp/faq\n\n{{manageUrl}}',
      })
    ).success();
    await app.request('/api/reservation', {
      method: 'POST',
      body: JSON.stringify({ name: '>_< & <3', email: 'a@example.com', productSlug: 'kumo-vco-2' }),
    });
    const [mail] = await smtp.waitForMails(1);
    assert.equal(mail!.parsed.subject, '>_< & <3さま: Kumo VCO II');
    assert.ok(mail!.parsed.text?.startsWith('>_< & <3 さま\n\n価格 ¥42,000\n詳細 https://shop.example.jp/faq\n\n'));
    const html = String(mail!.parsed.html);
    assert.ok(html.includes('<p>&gt;_&lt; &amp; &lt;3 さま</p>'), html);
    assert.ok(html.includes('<p>価格 ¥42,000<br>\n詳細 <a href="https://shop.example.jp/faq">https://shop.example.jp/faq</a></p>'), html);
    assert.ok(!html.includes('<img'));
  });
});
