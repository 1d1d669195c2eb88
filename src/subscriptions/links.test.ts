import assert from 'node:assert/strict';
import { test } from 'node:test';
import { productPageUrl, unsubscribeUrl } from './links.ts';

const BASE = 'https://shop.example.jp';

test("the product's page: its detailHref under the public base URL", () => {
  assert.equal(productPageUrl(BASE, { detailHref: '/products/kumo-vco-2' }), 'https://shop.example.jp/products/kumo-vco-2');
  assert.equal(productPageUrl(BASE, { detailHref: 'products/kumo-vco-2' }), 'https://shop.example.jp/products/kumo-vco-2');
  assert.equal(productPageUrl(`${BASE}/shop`, { detailHref: '/products/x' }), 'https://shop.example.jp/shop/products/x');
  assert.equal(productPageUrl(BASE, { detailHref: 'https://other.example/p/x' }), 'https://other.example/p/x');
});

test('no detailHref (or one that is no URL) → the front page, so there is always a link', () => {
  assert.equal(productPageUrl(BASE, { detailHref: null }), 'https://shop.example.jp/');
  assert.equal(productPageUrl(BASE, { detailHref: '  ' }), 'https://shop.example.jp/');
  assert.equal(productPageUrl(BASE, { detailHref: 'http://[broken' }), 'https://shop.example.jp/');
});

test('the unsubscribe link carries the token and nothing else', () => {
  assert.equal(unsubscribeUrl(BASE, 'ntf_1-abcdefghij.MAC'), 'https://shop.example.jp/api/notify/unsubscribe?token=ntf_1-abcdefghij.MAC');
  assert.equal(unsubscribeUrl(BASE, 'a&b=c'), 'https://shop.example.jp/api/notify/unsubscribe?token=a%26b%3Dc');
});
