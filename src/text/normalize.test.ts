import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { foldForMatching, hiraganaToKatakana, normalize, normalizeWithMap } from './normalize.ts';

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

test('the mapped normalisation is the same text, and points back into the original', () => {
  const original = 'ｶﾞｲﾄﾞ ㌔ ＶＣＯ ﬁlter が\u3099 Cafe\u0301 𠮷 しんせ';
  const mapped = normalizeWithMap(original);
  assert.equal(mapped.text, normalize(original));
  assert.equal(mapped.start.length, mapped.text.length);
  const back = (needle: string) => {
    const at = mapped.text.indexOf(needle);
    return original.slice(mapped.start[at]!, mapped.end[at + needle.length - 1]!);
  };
  assert.equal(back('ガイド'), 'ｶﾞｲﾄﾞ');
  assert.equal(back('vco'), 'ＶＣＯ');
  assert.equal(back('キ'), '㌔');
  assert.equal(back('filter'), 'ﬁlter');
  assert.equal(back('シンセ'), 'しんせ');
  assert.equal(back('𠮷'), '𠮷');
});

test('the mapped normalisation agrees with normalize() over the whole site content', () => {
  const dir = 'content';
  // One folder per content type; synonyms.yaml beside them.
  for (const type of readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)) {
    for (const file of readdirSync(join(dir, type))) {
      const text = readFileSync(join(dir, type, file), 'utf8');
      assert.equal(normalizeWithMap(text).text, normalize(text), file);
    }
  }
});

test('foldForMatching: width, case, Latin accents, kana and whitespace fold away; the kana’s voicing stays', () => {
  assert.equal(foldForMatching('鈴木　一郎'), foldForMatching('鈴木 一郎'));
  assert.equal(foldForMatching('鈴木　一郎'), '鈴木一郎');
  assert.equal(foldForMatching('すずき'), foldForMatching('スズキ'));
  assert.equal(foldForMatching('ｽｽﾞｷ'), foldForMatching('スズキ'));
  assert.equal(foldForMatching('ＳＵＺＵＫＩ'), 'suzuki');
  assert.equal(foldForMatching('MÜLLER'), 'muller');
  assert.equal(foldForMatching('Crème Brûlée'), 'cremebrulee');
  assert.notEqual(foldForMatching('ずき'), foldForMatching('すき'));
  assert.equal(foldForMatching('a%_b'), 'a%_b');
});
