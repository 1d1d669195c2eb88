import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Product } from '../../catalog/product.ts';
import { renderRestockNotice, restockNoticeFacts, restockPublicChatMessage, restockSignupChatMessage } from './restock.ts';

const product = { slug: 'kumo-vco-2', name: 'Kumo <VCO> & "II"', price: 42000, detailHref: '/products/kumo-vco-2' } as Product;
const links = {
  productUrl: 'https://shop.example.jp/products/kumo-vco-2?a=1&b=2',
  unsubscribeUrl: 'https://shop.example.jp/api/notify/unsubscribe?token=ntf_1-abcdefghij.MAC',
};

test('Japanese, with the product, its page and a visible unsubscribe link in both parts', () => {
  const email = renderRestockNotice(restockNoticeFacts(product, links));
  assert.equal(email.subject, '【入荷のお知らせ】Kumo <VCO> & "II"');
  assert.ok(email.text.includes('入荷しました'));
  assert.ok(email.text.includes(`商品ページを見る: ${links.productUrl}`));
  assert.ok(email.text.includes(`配信停止（この商品の入荷通知を解除する）: ${links.unsubscribeUrl}`));
  assert.ok(email.text.includes('価格: ¥42,000'));
  assert.ok(email.html.includes('<a href="https://shop.example.jp/products/kumo-vco-2?a=1&amp;b=2"'));
  assert.ok(email.html.includes(`<a href="${links.unsubscribeUrl}">配信停止`));
});

test('List-Unsubscribe names the same link, and List-Unsubscribe-Post asks for one click (RFC 8058)', () => {
  const { headers } = renderRestockNotice(restockNoticeFacts(product, links));
  assert.deepEqual(headers, { 'List-Unsubscribe': `<${links.unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });
});

test('catalog text is escaped in the HTML', () => {
  const { html } = renderRestockNotice(restockNoticeFacts(product, links));
  assert.ok(!html.includes('<VCO>'));
  assert.ok(html.includes('Kumo &lt;VCO&gt; &amp; &quot;II&quot;'));
});

test('the shop chat notice of a signup names product, address, number and time', () => {
  const chat = restockSignupChatMessage({ id: 'ntf_1-abcdefghij', email: 'taro@example.com', createdAt: '2026-01-02T15:04:05.000Z' }, product);
  assert.deepEqual(chat.fields.map((f) => f.label), ['商品', 'メールアドレス', '登録番号', '登録日時']);
  assert.deepEqual(chat.fields.slice(1, 3).map((f) => f.value), ['taro@example.com', 'ntf_1-abcdefghij']);
  assert.equal(chat.fields[3]!.value, '2026年1月3日 00:04');
  assert.equal(chat.timestamp, '2026-01-02T15:04:05.000Z');
});

test('the public announcement is made of catalog facts only', () => {
  const chat = restockPublicChatMessage(product, links.productUrl, '2026-01-02T15:04:05.000Z');
  assert.equal(chat.title, '入荷しました: Kumo <VCO> & "II"');
  assert.deepEqual(chat.fields, [
    { label: '商品', value: product.name },
    { label: '価格', value: '¥42,000' },
    { label: '商品ページ', value: links.productUrl },
  ]);
});
