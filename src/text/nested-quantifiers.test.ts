import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nestsQuantifiers } from './nested-quantifiers.ts';

test('a repeated group holding an unbounded repetition is found', () => {
  for (const source of [
    '(a+)+',
    '(a*)*',
    '(?:x|y*){2,}',
    '(.*a){11}',
    '((ab)+c)*',
    'https://(?:[a-z]+-)*preview\\.example\\.com',
    '(a+?)+?',
    '(x{2,})+',
    '([a-z]+\\.)+shop',
  ]) {
    assert.equal(nestsQuantifiers(source), true, source);
  }
});

test('single repetitions, bounded groups, escapes and classes are fine', () => {
  for (const source of [
    'https://[a-z0-9-]+\\.preview\\.example\\.com',
    'https://pr-\\d+\\.shop\\.example',
    '(?:https://)?shop\\.example',
    '(ab)+',
    '(a+)?',
    '(a+){1}',
    '(a+){0,1}',
    '\\(a+\\)+',
    '[(a+)]+',
    '[\\]+(]+',
    '(a{2})+',
    '(?<name>a)+',
  ]) {
    assert.equal(nestsQuantifiers(source), false, source);
  }
});
