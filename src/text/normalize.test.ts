import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hiraganaToKatakana, normalize } from './normalize.ts';

test('folds width, case and kana', () => {
  assert.equal(normalize('ＶＣＯ'), 'vco');
  assert.equal(normalize('ｼﾝｾｻｲｻﾞｰ'), 'シンセサイザー');
  assert.equal(normalize('しんせさいざー'), 'シンセサイザー');
  assert.equal(normalize('Eurorackケース'), 'eurorackケース');
  assert.equal(normalize('\u3000'), ' ');
});

test('hiragana maps to katakana, the rest is untouched', () => {
  assert.equal(hiraganaToKatakana('ぁゖゝゞ'), 'ァヶヽヾ');
  assert.equal(hiraganaToKatakana('漢字カナabc'), '漢字カナabc');
});
