import assert from 'node:assert/strict';
import { test } from 'node:test';
import { escapeHtml, singleLine } from './safe-text.ts';

test('escapeHtml leaves no markup and no way out of a quoted attribute', () => {
  assert.equal(escapeHtml(`<img src=x onerror="alert('1')">&amp;`), '&lt;img src=x onerror=&quot;alert(&#39;1&#39;)&quot;&gt;&amp;amp;');
  assert.equal(escapeHtml('モジュラー 🎛'), 'モジュラー 🎛');
});

test('singleLine makes each run of line breaks and control characters one space', () => {
  assert.equal(singleLine('a\r\nBcc: x@example.com'), 'a Bcc: x@example.com');
  assert.equal(singleLine('a\u0000\u0007\tb\u007fc\u0085d\u2028e\u2029f'), 'a b c d e f');
  assert.equal(singleLine('山田　太郎 🎛'), '山田　太郎 🎛');
});
