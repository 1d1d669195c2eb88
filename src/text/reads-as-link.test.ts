import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readsAsLink } from './reads-as-link.ts';

test('hosts, paths, schemes and markup read as links, in any width and with any full stop', () => {
  for (const text of [
    'evil.example',
    'bit.ly/x',
    'example．com',
    'evil。example',
    'evil｡example',
    'ｅｖｉｌ．ｅｘａｍｐｌｅ',
    '例え.テスト',
    'xn--80ak6aa92e',
    '1.2.3.4',
    '１２７．０．０．１',
    '/login',
    '../x',
    '//evil',
    'https:evil.example',
    'javascript:alert(1)',
    'ｊａｖａｓｃｒｉｐｔ：x',
    'https://evil',
    'www.evil',
    '<a href=x>',
    '</p>',
    '<!-- x -->',
    '[pay](x)',
  ])
    assert.equal(readsAsLink(text), true, text);
});

test('names with dots, colons, slashes set apart and brackets do not', () => {
  for (const text of [
    '鈴木 一郎',
    'ｽｽﾞｷ ｲﾁﾛｳ',
    'ＺＥＮテスト（株）',
    'J. R. Smith',
    'J.R. Smith',
    'J.R.R. Tolkien',
    'Dr. Ken Mori',
    'No. 5',
    '1st: 山田',
    'A / B',
    '/* comment */',
    ':name',
    '[bracket]',
    '<3',
    '1<2',
    '>_<',
    'x; =1',
    '1.5',
  ])
    assert.equal(readsAsLink(text), false, text);
});
