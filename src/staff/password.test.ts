import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';
import { after, before, test } from 'node:test';
import { hashPassword, verifyAgainstNoAccount, verifyPassword } from './password.ts';

// Passwords as scrypt hashes, and the same work whether or not there is an account: shown without
// timing anything, by the calls made to scrypt (the time itself: npm run bench sign-in).

type Call = { keylen: number; options: crypto.ScryptOptions; saltLength: number };
const calls: Call[] = [];
let running = 0;
let mostAtOnce = 0;
const real = crypto.scrypt;
before(() => {
  (crypto as { scrypt: unknown }).scrypt = (
    password: string,
    salt: Buffer,
    keylen: number,
    options: crypto.ScryptOptions,
    done: (error: Error | null, key: Buffer) => void,
  ) => {
    calls.push({ keylen, options, saltLength: salt.length });
    running++;
    mostAtOnce = Math.max(mostAtOnce, running);
    real(password, salt, keylen, options, (error, key) => {
      running--;
      done(error, key);
    });
  };
  syncBuiltinESMExports();
});
after(() => {
  crypto.scrypt = real;
  syncBuiltinESMExports();
});

test('a hash names its parameters and a random salt; only its own password verifies against it', async () => {
  const [first, second] = await Promise.all([hashPassword('correct horse battery'), hashPassword('correct horse battery')]);
  for (const hash of [first, second]) assert.match(hash, /^\$scrypt\$ln=15,r=8,p=3\$[\w-]{22}\$[\w-]{43}$/);
  assert.notEqual(first, second, 'salted');
  assert.equal(await verifyPassword('correct horse battery', first), true);
  for (const wrong of ['correct horse batter', 'Correct horse battery', 'correct horse battery ', ''])
    assert.equal(await verifyPassword(wrong, first), false, wrong);
  // Written as composed or decomposed characters, a Japanese password is the same password.
  const kana = await hashPassword('パスワードはがぎぐげご');
  assert.equal(await verifyPassword('パスワードはがぎぐげご'.normalize('NFD'), kana), true);
  for (const stored of ['', 'plain text', '$scrypt$ln=15,r=8,p=3$$', first.replace('$scrypt$', '$argon2$')])
    assert.equal(await verifyPassword('correct horse battery', stored), false, stored);
});

test('a hash made with other parameters still verifies, with its own', async () => {
  const salt = Buffer.from('0123456789abcdef');
  const hash = crypto.scryptSync('older password', salt, 32, { N: 2 ** 10, r: 8, p: 1 });
  const stored = `$scrypt$ln=10,r=8,p=1$${salt.toString('base64url')}$${hash.toString('base64url')}`;
  calls.length = 0;
  assert.equal(await verifyPassword('older password', stored), true);
  assert.deepEqual(calls[0]?.options, { N: 1024, r: 8, p: 1, maxmem: 256 * 1024 * 8 });
});

test('verifying against no account does the work of verifying against one, and never matches', async () => {
  const stored = await hashPassword('an account’s password');
  calls.length = 0;
  assert.equal(await verifyPassword('a guess at it', stored), false);
  assert.equal(await verifyAgainstNoAccount('a guess at it'), false);
  assert.equal(await verifyAgainstNoAccount('an account’s password'), false);
  assert.equal(calls.length, 3);
  const [account, none] = calls;
  assert.deepEqual(none, account, 'the same key length, salt length and parameters');
});

test('at most two hashes are computed at once, one of a lane; the rest wait their turn', async () => {
  mostAtOnce = 0;
  const hashes = await Promise.all(Array.from({ length: 6 }, (_, i) => hashPassword(`password number ${i}`, `client ${i % 3}`)));
  assert.equal(new Set(hashes).size, 6);
  assert.equal(mostAtOnce, 2);
  mostAtOnce = 0;
  await Promise.all(Array.from({ length: 3 }, (_, i) => hashPassword(`password number ${i}`, 'one client')));
  assert.equal(mostAtOnce, 1);
});
