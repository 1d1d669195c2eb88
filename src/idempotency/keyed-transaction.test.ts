import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { claimOf } from './keyed-transaction.ts';

const key = { client: '203.0.113.9', key: 'k-1' };
const fields = ['山田 太郎', 'taro@example.com', 'kumo-vco-2'];

test('a fingerprint is keyed by the secret: every instance with it agrees, and one who lacks it cannot compute it', () => {
  const fingerprint = claimOf('secret-a', key, 'reservation', fields).fingerprint;
  assert.equal(claimOf('secret-a', { ...key }, 'reservation', [...fields]).fingerprint, fingerprint);
  assert.notEqual(claimOf('secret-b', key, 'reservation', fields).fingerprint, fingerprint);
  // A guessed name and address, hashed as a reader of the table would try, does not confirm the guess.
  for (const guess of [JSON.stringify(['reservation', ...fields]), fields.join(''), fields.join('\n')]) {
    assert.notEqual(createHash('sha256').update(guess).digest('hex'), fingerprint);
  }
});

test('the request is told apart by form and by every field', () => {
  const fingerprint = claimOf('s', key, 'reservation', fields).fingerprint;
  assert.notEqual(claimOf('s', key, 'notify', fields).fingerprint, fingerprint);
  assert.notEqual(claimOf('s', key, 'reservation', ['山田 太郎', 'taro@example.com', 'tsuki-dual-lfo']).fingerprint, fingerprint);
  // Fields are kept apart, so moving text from one to the next is another request.
  assert.notEqual(claimOf('s', key, 'reservation', ['山田 太郎t', 'aro@example.com', 'kumo-vco-2']).fingerprint, fingerprint);
});
