import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { keptToken } from './kept-token.ts';

const dir = () => mkdtempSync(join(tmpdir(), 'tenpo-token-'));

test('the first call makes and saves a token (creating the directory), later calls return it', () => {
  const file = join(dir(), 'var', 'token');
  let made = 0;
  const generate = () => `token-${++made}`;
  assert.equal(keptToken(file, generate), 'token-1');
  assert.equal(keptToken(file, generate), 'token-1');
  assert.equal(made, 1);
  assert.equal(readFileSync(file, 'utf8'), 'token-1\n');
});

test('an empty file left behind is replaced', () => {
  const file = join(dir(), 'token');
  writeFileSync(file, '\n');
  assert.equal(
    keptToken(file, () => 'fresh'),
    'fresh',
  );
  assert.equal(
    keptToken(file, () => 'other'),
    'fresh',
  );
});
