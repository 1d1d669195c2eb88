import assert from 'node:assert/strict';
import { test } from 'node:test';
import { codePointLength } from './code-points.ts';

test('a character outside the Basic Multilingual Plane counts once', () => {
  assert.equal(codePointLength(''), 0);
  assert.equal(codePointLength('VCO'), 3);
  assert.equal(codePointLength('𠮷野家🎛'), 4);
  assert.equal('𠮷野家🎛'.length, 6);
});
