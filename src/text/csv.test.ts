import assert from 'node:assert/strict';
import { test } from 'node:test';
import { csvField, csvLine } from './csv.ts';

test('plain text is written as it is; a comma, quote, CR or LF makes it quoted, quotes doubled', () => {
  assert.equal(csvField('山田 太郎'), '山田 太郎');
  assert.equal(csvField(''), '');
  assert.equal(csvField('a,b'), '"a,b"');
  assert.equal(csvField('say "hi"'), '"say ""hi"""');
  assert.equal(csvField('two\nlines'), '"two\nlines"');
  assert.equal(csvField('two\r\nlines'), '"two\r\nlines"');
  assert.equal(csvLine(['a', 'b,c', '']), 'a,"b,c",\r\n');
});

test('a cell a spreadsheet would run as a formula starts with a quote mark', () => {
  for (const start of ['=', '+', '-', '@', '\t', '\r'])
    assert.equal(csvField(`${start}1+1`).replace(/^"/, '')[0], "'", JSON.stringify(start));
  assert.equal(csvField('=HYPERLINK("http://x","y")'), '"\'=HYPERLINK(""http://x"",""y"")"');
  assert.equal(csvField('-1'), "'-1");
  assert.equal(csvField('\rx'), '"\'\rx"');
  assert.equal(csvField('a=b'), 'a=b', 'an = inside text is no formula');
  assert.equal(csvField('1+1=2'), '1+1=2');
});

test('a formula behind spaces or invisible characters, in full width, or after a ; , or tab separator is guarded too', () => {
  for (const value of [
    ' =1+1',
    '　=1',
    '​=HYPERLINK("x")',
    '﻿+1',
    '＝1+1',
    '＠SUM(A1)',
    '－1',
    'x;=1+1',
    'x,=1+1',
    'x	=1',
    'x；＝1',
    'x; =1',
    'x,\u3000=1',
    '\u2800=1',
    '\u115f=1',
    '\u3164=1',
    '\u034f=1',
  ])
    assert.equal(csvField(value).replace(/^"/, '')[0], "'", JSON.stringify(value));
  for (const value of ['名前 = 山田', 'a = b', 'x;y', 'x y', '１２３', 'メモ：=は不要'])
    assert.equal(csvField(value), value, JSON.stringify(value));
});
