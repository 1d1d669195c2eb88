import assert from 'node:assert/strict';
import { test } from 'node:test';
import { markdownToText } from './markdown-text.ts';

test('markup goes, the text a reader sees stays, one line per block', () => {
  const markdown = [
    '## まずは「横幅」を決める',
    '',
    'Eurorackの横幅は **HP** という単位で、*1HP* は5.08mm。[パワーバジェット](/guides/power) も見てください。',
    '',
    '- +12Vは余裕が必要',
    '- ![ケースの写真](/img/case.webp)',
    '',
    '1. ひとつめ',
    '2. ふたつめ',
    '',
    '> 「つなげますか？」',
    '',
    '```',
    'VCO SAW  → VCF IN',
    '```',
    '',
    '| 電圧 | 電流 |',
    '|---|---|',
    '| +12V | 120mA |',
    '',
    '---',
    '',
    'Tom &amp; Jerry, `a &amp; b`, 1 \\* 2',
  ].join('\n');
  assert.deepEqual(markdownToText(markdown).split('\n'), [
    'まずは「横幅」を決める',
    'Eurorackの横幅は HP という単位で、1HP は5.08mm。パワーバジェット も見てください。',
    '+12Vは余裕が必要',
    'ケースの写真',
    'ひとつめ',
    'ふたつめ',
    '「つなげますか？」',
    'VCO SAW → VCF IN',
    '電圧 電流',
    '+12V 120mA',
    'Tom & Jerry, a &amp; b, 1 * 2',
  ]);
});

test('HTML tags are hidden as a browser hides them; escaped markup is text', () => {
  assert.equal(markdownToText('<div class="note">注意</div>\n\nA <b>bold</b> word'), '注意\nA bold word');
  assert.equal(markdownToText('&lt;script&gt;alert(1)&lt;/script&gt;'), '<script>alert(1)</script>');
  assert.equal(markdownToText('`<img src=x onerror=alert(1)>`'), '<img src=x onerror=alert(1)>');
});
