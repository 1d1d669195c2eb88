import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Product } from '../../catalog/product.ts';
import { restockPublicChatMessage, restockSignupChatMessage } from './restock-notices.ts';

const product = { slug: 'kumo-vco-2', name: 'Kumo <VCO> & "II"', price: 42000, detailHref: '/products/kumo-vco-2' } as Product;
const productUrl = 'https://shop.example.jp/products/kumo-vco-2?a=1&b=2';

test('the shop chat notice of a signup names product, address, number and time, and links to the signup’s page', () => {
  const url = 'https://shop.example.jp/admin#/subscriptions?record=ntf_1-abcdefghij';
  const chat = restockSignupChatMessage(
    { id: 'ntf_1-abcdefghij', email: 'taro@example.com', createdAt: '2026-01-02T15:04:05.000Z' },
    product,
    url,
  );
  assert.deepEqual(chat.link, { label: '管理画面で登録を開く', url });
  assert.deepEqual(
    chat.fields.map((f) => f.label),
    ['商品', 'メールアドレス', '登録番号', '登録日時'],
  );
  assert.deepEqual(
    chat.fields.slice(1, 3).map((f) => f.value),
    ['taro@example.com', 'ntf_1-abcdefghij'],
  );
  assert.equal(chat.fields[3]!.value, '2026年1月3日 00:04');
  assert.equal(chat.timestamp, '2026-01-02T15:04:05.000Z');
});

test('the public announcement is made of catalog facts only', () => {
  const chat = restockPublicChatMessage(product, productUrl, '2026-01-02T15:04:05.000Z');
  assert.equal(chat.title, '入荷しました: Kumo <VCO> & "II"');
  assert.deepEqual(chat.fields, [
    { label: '商品', value: product.name },
    { label: '価格', value: '¥42,000' },
    { label: '商品ページ', value: productUrl },
  ]);
  assert.equal(chat.link, undefined, 'nothing of the console in a public channel');
});
