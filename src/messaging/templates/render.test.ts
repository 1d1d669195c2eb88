import assert from 'node:assert/strict';
import { test } from 'node:test';
import { emailHeaders, placeholderValues, reservationEmailFacts, restockEmailFacts } from './facts.ts';
import { DEFAULT_TEMPLATES } from './defaults.ts';
import { renderTemplate } from './render.ts';

const reservation = {
  id: 'res_1',
  number: 1001,
  name: '<b>太郎</b>\r\nX-Evil: 1 https://evil.example',
  createdAt: '2026-11-23T06:04:05.000Z',
};
const product = { name: 'Kumo <VCO> & "II"', price: 12800 };
const links = {
  productUrl: 'https://shop.example.jp/products/kumo?a=1&b=2',
  manageUrl: 'https://shop.example.jp/reservations/manage?token=res_1.MAC',
};
const email = { template: 'reservation-received', facts: reservationEmailFacts(reservation, product, links, undefined) } as const;
const NO_SHOP = { name: '', contactEmail: '', phone: '', address: '', hours: '' };
const SHOP = {
  name: 'tenpo <モジュラー>',
  contactEmail: 'shop@tenpo.example',
  phone: '03-1234-5678',
  address: '〒150-0001\n東京都渋谷区神宮前1-2-3',
  hours: '11:00〜19:00',
};

test('values fill the text on one line each; price in yen, the time in Japan', () => {
  const out = renderTemplate(DEFAULT_TEMPLATES['reservation-received'], placeholderValues(email, SHOP));
  assert.equal(out.subject, 'ご予約を受け付けました（Kumo <VCO> & "II"）');
  assert.ok(out.text.startsWith('<b>太郎</b> X-Evil: 1 https://evil.example 様\n\n'), out.text);
  assert.ok(out.text.includes('価格: ¥12,800\n受付日時: 2026年11月23日 15:04\n'), out.text);
  assert.ok(out.text.includes(`\n${links.manageUrl}\n`));
  const unpriced = {
    template: 'reservation-received',
    facts: reservationEmailFacts(reservation, { ...product, price: null }, links, undefined),
  } as const;
  assert.equal(placeholderValues(unpriced, SHOP).price, '価格未定');
});

test('every default text ends with the shop’s name, address, phone, contact address and hours, one per line', () => {
  const restock = {
    template: 'restock-available',
    facts: restockEmailFacts(product, { productUrl: links.productUrl, unsubscribeUrl: 'https://shop.example.jp/u?t=1' }),
  } as const;
  for (const [kind, template] of Object.entries(DEFAULT_TEMPLATES)) {
    const out = renderTemplate(template, placeholderValues(kind === 'restock-available' ? restock : email, SHOP));
    assert.ok(
      out.text.endsWith(
        '\n\ntenpo <モジュラー>\n〒150-0001\n東京都渋谷区神宮前1-2-3\nTEL: 03-1234-5678\nメール: shop@tenpo.example\n営業時間: 11:00〜19:00\n',
      ),
      `${kind}:\n${out.text}`,
    );
    assert.ok(
      out.html.includes(
        '<p>tenpo &lt;モジュラー&gt;<br>\n〒150-0001<br>\n東京都渋谷区神宮前1-2-3<br>\nTEL: 03-1234-5678<br>\nメール: shop@tenpo.example<br>\n営業時間: 11:00〜19:00</p>\n</body>',
      ),
      `${kind}: ${out.html}`,
    );
  }
});

test('a line of only placeholders that all render empty is left out, with the blank line it would double; others stay', () => {
  const template = {
    subject: '{{shopSignature}}',
    body: '{{shipsIn}}\n\nA {{shipsIn}}\n{{shipsIn}} {{preorderNote}}\nB\n\n{{preorderNote}}\n\nC\n{{name}}\n\n{{shopSignature}}\n',
  };
  const values = { ...placeholderValues(email, NO_SHOP), name: '' };
  const out = renderTemplate(template, values);
  assert.equal(out.text, 'A \nB\n\nC\n');
  assert.equal(out.subject, '', 'the subject is not a body line: left as it renders');
  assert.equal(out.html.match(/<p>/g)?.length, 2, out.html);
  // The same lines, with values: kept.
  const campaign = { shipsIn: '2027年2月下旬', note: '入荷次第、お支払い方法をご案内します。\n\n店頭受け取りもできます。' };
  const withCampaign = { template: 'reservation-received', facts: reservationEmailFacts(reservation, product, links, campaign) } as const;
  const full = renderTemplate(
    { subject: 's', body: '{{shipsIn}}\n{{preorderNote}}\n{{shopSignature}}' },
    placeholderValues(withCampaign, SHOP),
  );
  assert.equal(
    full.text,
    '2027年2月下旬\n入荷次第、お支払い方法をご案内します。\n店頭受け取りもできます。\ntenpo <モジュラー>\n〒150-0001\n東京都渋谷区神宮前1-2-3\nTEL: 03-1234-5678\nメール: shop@tenpo.example\n営業時間: 11:00〜19:00\n',
  );
  // An email queued before the campaign's words were stated renders them empty.
  const older = { template: 'reservation-received', facts: { ...email.facts, shipsIn: undefined, preorderNote: undefined } } as const;
  assert.equal(renderTemplate({ subject: 's', body: 'x\n{{shipsIn}}\ny' }, placeholderValues(older, SHOP)).text, 'x\ny\n');
});

test('a line of a short label and placeholders that all render empty is left out too; one with a value, or not a label, stays', () => {
  const body =
    '発送予定: {{shipsIn}}\nお届け予定：{{shipsIn}} {{preorderNote}}\nA {{shipsIn}}\nこれはとても長い見出しでラベルではない文章です: {{shipsIn}}\nB';
  assert.equal(
    renderTemplate({ subject: 's', body }, placeholderValues(email, SHOP)).text,
    'A \nこれはとても長い見出しでラベルではない文章です: \nB\n',
  );
  const campaign = { shipsIn: '2027年2月下旬', note: null };
  for (const kind of ['reservation-received', 'reservation-confirmed'] as const) {
    const preorder = { template: kind, facts: reservationEmailFacts(reservation, product, links, campaign) } as const;
    const withDate = renderTemplate(DEFAULT_TEMPLATES[kind], placeholderValues(preorder, SHOP)).text;
    assert.ok(withDate.includes('受付日時: 2026年11月23日 15:04\n発送予定: 2027年2月下旬\n'), `${kind}: ${withDate}`);
    const plain = renderTemplate(DEFAULT_TEMPLATES[kind], placeholderValues({ template: kind, facts: email.facts }, SHOP)).text;
    assert.ok(!plain.includes('発送予定'), `${kind} without a campaign: ${plain}`);
  }
});

test('the default of a reservation without a campaign, and with the shop unset, leaves no empty line behind', () => {
  const out = renderTemplate(DEFAULT_TEMPLATES['reservation-received'], placeholderValues(email, NO_SHOP));
  assert.doesNotMatch(out.text, /\n\n\n/, out.text);
  assert.ok(out.text.endsWith('下記までお問い合わせください。\n'), out.text);
});

test('the HTML: paragraphs from blank lines, escaped values, links only for URLs of the template and link placeholders', () => {
  const { html } = renderTemplate(
    { subject: 's', body: '{{name}} 様\n\n詳しくは https://shop.example.jp/faq?x=1&y=2 まで。\n{{manageUrl}}\n\n\n<i>{{productName}}</i>' },
    placeholderValues(email, SHOP),
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

test('a reply goes to the shop’s contact address; a restock email names its unsubscribe link in List-Unsubscribe, asking for one click', () => {
  const restock = {
    template: 'restock-available',
    facts: restockEmailFacts(product, { productUrl: links.productUrl, unsubscribeUrl: 'https://shop.example.jp/u?t=1' }),
  } as const;
  const out = renderTemplate(DEFAULT_TEMPLATES['restock-available'], placeholderValues(restock, SHOP), emailHeaders(restock, SHOP));
  assert.deepEqual(out.headers, {
    'Reply-To': 'shop@tenpo.example',
    'List-Unsubscribe': '<https://shop.example.jp/u?t=1>',
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  });
  assert.ok(out.html.includes('<a href="https://shop.example.jp/u?t=1">'));
  assert.deepEqual(emailHeaders(email, SHOP), { 'Reply-To': 'shop@tenpo.example' });
  assert.equal(emailHeaders(email, NO_SHOP), undefined);
});
