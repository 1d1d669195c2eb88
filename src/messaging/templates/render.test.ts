import assert from 'node:assert/strict';
import { test } from 'node:test';
import { emailHeaders, placeholderValues, reservationEmailFacts, restockEmailFacts } from './facts.ts';
import { DEFAULT_TEMPLATES } from './defaults.ts';
import { renderTemplate } from './render.ts';

const reservation = { id: 'res_1', name: '<b>太郎</b>\r\nX-Evil: 1 https://evil.example', createdAt: '2026-11-23T06:04:05.000Z' };
const product = { name: 'Kumo <VCO> & "II"', price: 12800 };
const links = {
  productUrl: 'https://shop.example.jp/products/kumo?a=1&b=2',
  manageUrl: 'https://shop.example.jp/reservations/manage?token=res_1.MAC',
};
const email = { template: 'reservation-received', facts: reservationEmailFacts(reservation, product, links) } as const;

test('values fill the text on one line each; price in yen, the time in Japan', () => {
  const out = renderTemplate(DEFAULT_TEMPLATES['reservation-received'], placeholderValues(email));
  assert.equal(out.subject, 'ご予約を受け付けました（Kumo <VCO> & "II"）');
  assert.ok(out.text.startsWith('<b>太郎</b> X-Evil: 1 https://evil.example 様\n\n'), out.text);
  assert.ok(out.text.includes('価格: ¥12,800\n受付日時: 2026年11月23日 15:04\n'), out.text);
  assert.ok(out.text.includes(`\n${links.manageUrl}\n`));
  assert.ok(out.text.endsWith('破棄してください。\n'));
  const unpriced = {
    template: 'reservation-received',
    facts: reservationEmailFacts(reservation, { ...product, price: null }, links),
  } as const;
  assert.equal(placeholderValues(unpriced).price, '価格未定');
});

test('the HTML: paragraphs from blank lines, escaped values, links only for URLs of the template and link placeholders', () => {
  const { html } = renderTemplate(
    { subject: 's', body: '{{name}} 様\n\n詳しくは https://shop.example.jp/faq?x=1&y=2 まで。\n{{manageUrl}}\n\n\n<i>{{productName}}</i>' },
    placeholderValues(email),
  );
  assert.ok(html.includes('<p>&lt;b&gt;太郎&lt;/b&gt; X-Evil: 1 https://evil.example 様</p>'), html);
  assert.ok(
    html.includes(
      '<p>詳しくは <a href="https://shop.example.jp/faq?x=1&amp;y=2">https://shop.example.jp/faq?x=1&amp;y=2</a> まで。<br>\n<a href="https://shop.example.jp/reservations/manage?token=res_1.MAC">',
    ),
    html,
  );
  assert.ok(html.includes('<p>&lt;i&gt;Kumo &lt;VCO&gt; &amp; &quot;II&quot;&lt;/i&gt;</p>'), html);
  assert.ok(!html.includes('href="https://evil.example'));
});

test('a restock email names its unsubscribe link in List-Unsubscribe, asking for one click', () => {
  const restock = {
    template: 'restock-available',
    facts: restockEmailFacts(product, { productUrl: links.productUrl, unsubscribeUrl: 'https://shop.example.jp/u?t=1' }),
  } as const;
  const out = renderTemplate(DEFAULT_TEMPLATES['restock-available'], placeholderValues(restock), emailHeaders(restock));
  assert.deepEqual(out.headers, {
    'List-Unsubscribe': '<https://shop.example.jp/u?t=1>',
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  });
  assert.ok(out.html.includes('<a href="https://shop.example.jp/u?t=1">'));
  assert.equal(emailHeaders(email), undefined);
});
