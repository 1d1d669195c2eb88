import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canonicalAddress } from './canonical-address.ts';

test('case, surrounding space and the Unicode form of a domain do not change the address', () => {
  assert.equal(canonicalAddress('  Taro.Yamada@Example.COM '), 'taro.yamada@example.com');
  assert.equal(canonicalAddress('taro@例え.jp'), 'taro@xn--r8jz45g.jp');
  assert.equal(canonicalAddress('TARO@XN--R8JZ45G.JP'), 'taro@xn--r8jz45g.jp');
  assert.equal(canonicalAddress('taro@ＥＸＡＭＰＬＥ.com'), 'taro@example.com', 'full-width letters map as IDNA maps them');
});

test('a +tag is one mailbox with the address without it', () => {
  assert.equal(canonicalAddress('Taro+Shop@example.com'), 'taro@example.com');
  assert.equal(canonicalAddress('taro+a+b@example.com'), 'taro@example.com');
  assert.equal(canonicalAddress('taro.yamada+x@example.com'), 'taro.yamada@example.com', 'dots count outside gmail');
  assert.equal(canonicalAddress('+only@example.com'), '+only@example.com', 'a local part that is all tag stays whole');
});

test('gmail.com and googlemail.com are one provider that ignores dots', () => {
  for (const spelling of ['taro.yamada@gmail.com', 'TaroYamada@googlemail.com', 't.a.r.o.y.a.m.a.d.a+news@Gmail.com']) {
    assert.equal(canonicalAddress(spelling), 'taroyamada@gmail.com', spelling);
  }
  assert.notEqual(canonicalAddress('taro.yamada@gmail.co.jp'), 'taroyamada@gmail.com', 'another domain keeps its dots');
});

test('a local part is compared in NFC, the last @ splits off the domain', () => {
  assert.equal(canonicalAddress('Cafe\u0301@example.com'), canonicalAddress('café@example.com'));
  assert.equal(canonicalAddress('"a@b"@Example.com'), '"a@b"@example.com');
});

test('a domain IDNA refuses is kept as typed, lowercased', () => {
  assert.equal(canonicalAddress('taro@exa mple..com'), 'taro@exa mple..com');
});
