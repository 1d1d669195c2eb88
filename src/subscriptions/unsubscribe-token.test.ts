import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { test } from 'node:test';
import { unsubscribeToken, verifyUnsubscribeToken } from './unsubscribe-token.ts';

const SECRET = 'unsubscribe-secret';
const ID = 'ntf_1767225600000-a1b2c3d4e5';

test('is the id and its HMAC-SHA256 under the secret, URL-safe as it is', () => {
  const token = unsubscribeToken(SECRET, ID);
  assert.equal(token, `${ID}.${createHmac('sha256', SECRET).update(ID).digest('base64url')}`);
  assert.equal(encodeURIComponent(token), token);
  assert.equal(verifyUnsubscribeToken(SECRET, token), ID);
});

test('refuses a token made with another secret, for another id, or altered anywhere', () => {
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
