import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { bigrams, isJapaneseTerm, isWholeWord, textRuns, tokenize } from './tokenize.ts';

test('Latin and digit runs stay words, normalised', () => {
  assert.deepEqual(tokenize('Analog VCO, 104HP ＶＣＯ'), ['analog', 'vco', '104hp', 'vco']);
  assert.deepEqual(tokenize('MIDI-CV'), ['midi', 'cv']);
});

test('Japanese runs become bigrams, with ー and 々 inside the run', () => {
  assert.deepEqual(tokenize('モジュラーシンセ'), ['モジ', 'ジュ', 'ュラ', 'ラー', 'ーシ', 'シン', 'ンセ']);
  assert.deepEqual(tokenize('時々'), ['時々']);
  assert.deepEqual(tokenize('しんせ'), ['シン', 'ンセ']);
  assert.deepEqual(tokenize('ｼﾝｾ'), ['シン', 'ンセ']);
});

test('a lone character stays a unigram', () => {
  assert.deepEqual(tokenize('音'), ['音']);
  assert.deepEqual(tokenize('5万円'), ['5', '万円']);
  assert.deepEqual(tokenize('3段 と 𠮷'), ['3', '段', 'ト', '𠮷']);
});

test('scripts split explicitly, and punctuation separates runs', () => {
  assert.deepEqual(tokenize('Eurorackケース'), ['eurorack', 'ケー', 'ース']);
  assert.deepEqual(tokenize('VCO→VCF'), ['vco', 'vcf']);
  assert.deepEqual(tokenize('モジュラー・シンセ'), ['モジ', 'ジュ', 'ュラ', 'ラー', 'シン', 'ンセ']);
  assert.deepEqual(tokenize('「ディレイ」、リバーブ。'), ['ディ', 'ィレ', 'レイ', 'リバ', 'バー', 'ーブ']);
});

test('bigrams count code points, and terms know their kind', () => {
  assert.deepEqual(bigrams('𠮷野家'), ['𠮷野', '野家']);
  assert.equal(isJapaneseTerm('シン'), true);
  assert.equal(isJapaneseTerm('vco'), false);
  assert.equal(isJapaneseTerm('104hp'), false);
});

test('a word stands alone exactly where it is a whole word run', () => {
  // Pieces that meet in every way that matters: letters, digits, marks, kana, kanji, astral letters
  // and kanji, lone surrogates, spaces and punctuation.
  const piece = fc.constantFrom('ab', 'a', 'b', '1', '\u0301', 'カ', '漢', 'ー', '𝐀', '𠮷', '\ud835', '\udc00', ' ', '・', '-', 'é');
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
      const text = pieces.join('');
      const runs = textRuns(text);
      for (const run of runs.filter((r) => r.kind === 'word')) {
        for (let at = text.indexOf(run.text); at !== -1; at = text.indexOf(run.text, at + 1)) {
          const isRun = runs.some((r) => r.start === at && r.end === at + run.text.length);
          assert.equal(isWholeWord(text, at, at + run.text.length), isRun, `${JSON.stringify(text)} at ${at}`);
        }
      }
    }),
    { numRuns: 2000 },
  );
});
