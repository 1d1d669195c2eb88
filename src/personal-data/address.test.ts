import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addressKey } from './address.ts';

test('case, surrounding space and the Unicode form of a domain do not change the key', () => {
  assert.equal(addressKey('  Taro.Yamada+Shop@Example.COM '), 'taro.yamada+shop@example.com');
  assert.equal(addressKey('taro@例え.jp'), 'taro@xn--r8jz45g.jp');
  assert.equal(addressKey('TARO@XN--R8JZ45G.JP'), 'taro@xn--r8jz45g.jp');
  assert.equal(addressKey('taro@ＥＸＡＭＰＬＥ.com'), 'taro@example.com', 'full-width letters map as IDNA maps them');
});

test('a local part is compared in NFC and lowercased, the last @ splits it from the domain', () => {
  assert.equal(addressKey('Cafe\u0301@example.com'), addressKey('café@example.com'));
  assert.equal(addressKey('"a@b"@Example.com'), '"a@b"@example.com');
});

test('a domain IDNA refuses is kept as typed, lowercased', () => {
  assert.equal(addressKey('taro@exa mple..com'), 'taro@exa mple..com');
});
