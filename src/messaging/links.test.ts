import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { test } from 'node:test';
import { productPageUrl, unsubscribeToken, unsubscribeUrl, verifyUnsubscribeToken } from './links.ts';

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

const SECRET = 'unsubscribe-secret';
const ID = 'ntf_1767225600000-a1b2c3d4e5';

test('a token is the id and its HMAC-SHA256 under the secret, URL-safe as it is', () => {
  const token = unsubscribeToken(SECRET, ID);
  assert.equal(token, `${ID}.${createHmac('sha256', SECRET).update(ID).digest('base64url')}`);
  assert.equal(encodeURIComponent(token), token);
  assert.equal(verifyUnsubscribeToken(SECRET, token), ID);
});

test('a token is refused when made with another secret, for another id, or altered anywhere', () => {
  const token = unsubscribeToken(SECRET, ID);
  const mac = token.slice(ID.length + 1);
  const flipped = (text: string, at: number) => text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1);
  for (const bad of [
    unsubscribeToken('another-secret', ID),
    `ntf_1767225600000-a1b2c3d4e6.${mac}`,
    flipped(token, 0),
    flipped(token, token.length - 1),
    flipped(token, ID.length + 5),
    `${token}=`,
    `${token}.`,
    `${token} `,
    token.slice(0, -1),
    ID,
    `.${mac}`,
    '',
    '.',
  ]) {
    assert.equal(verifyUnsubscribeToken(SECRET, bad), undefined, bad);
  }
});
