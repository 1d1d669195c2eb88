import assert from 'node:assert/strict';
import { test } from 'node:test';
import { maskContactDetails } from './contact-details.ts';

test('an email address or a phone number pasted into the search box is masked, word by word', () => {
  assert.equal(maskContactDetails('taro@example.com 090-1234-5678'), '＊ ＊');
  assert.equal(maskContactDetails('vco taro@example.com'), 'vco ＊');
  assert.equal(maskContactDetails('電話 09012345678 まで'), '電話 ＊ まで');
  assert.equal(maskContactDetails('+81 90 1234 5678'), '＊');
  assert.equal(maskContactDetails('03-1234-5678 vca'), '＊ vca');
  assert.equal(maskContactDetails('a@b'), '＊');
});

test('ordinary searches, model numbers and short numbers are kept', () => {
  for (const keyword of [
    'vco',
    'モジュラーシンセ',
    'tr-808',
    '2hp 84hp',
    'ケース 104hp',
    '12 34 56',
    '@home',
    'mail@',
    'abc1234567',
    'x-1234567y',
  ])
    assert.equal(maskContactDetails(keyword), keyword);
});
