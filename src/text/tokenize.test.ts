import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bigrams, isJapaneseTerm, tokenize } from './tokenize.ts';

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
