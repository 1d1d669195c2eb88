import assert from 'node:assert/strict';
import crypto, { createHash } from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { adminGuard, tokenDigest } from './admin-auth.ts';
import { AppError } from './app-error.ts';

// Constant time by construction, shown without timing anything: every check compares exactly two
// 32-byte SHA-256 digests (the presented token's and the real one's) once, whatever was presented,
// so where a guess first differs from the token is hashed away before the comparison, and Node's
// timingSafeEqual compares fixed-length buffers in time independent of their content.

const TOKEN = 'Zt3-admin-token-0123456789abcdef';
const guard = adminGuard(TOKEN);

/** Every call to crypto.timingSafeEqual, recorded on its way to the real function. */
const compared: [Buffer, Buffer][] = [];
const real = crypto.timingSafeEqual;
before(() => {
  crypto.timingSafeEqual = (a, b) => {
    compared.push([Buffer.from(a as Uint8Array), Buffer.from(b as Uint8Array)]);
    return real(a, b);
  };
  syncBuiltinESMExports();
});
after(() => {
  crypto.timingSafeEqual = real;
  syncBuiltinESMExports();
});

const sha256 = (text: string) => createHash('sha256').update(text).digest();

/** What one check compared, and whether it let the request in. */
function check(authorization: string[]): { pairs: [Buffer, Buffer][]; allowed: boolean } {
  compared.length = 0;
  let allowed = true;
  try {
    guard(authorization);
  } catch (error) {
    assert.ok(error instanceof AppError && error.status === 401, `only a 401 may come out: ${String(error)}`);
    allowed = false;
  }
  return { pairs: [...compared], allowed };
}

test('each check compares the SHA-256 of what was presented with that of the token, once, whatever was presented', () => {
  const flip = (at: number) => TOKEN.slice(0, at) + (TOKEN[at] === 'a' ? 'b' : 'a') + TOKEN.slice(at + 1);
  const cases: [string, string[], boolean][] = [
    ['the token', [`Bearer ${TOKEN}`], true],
    ['differs in the first byte', [`Bearer ${flip(0)}`], false],
    ['differs in the last byte', [`Bearer ${flip(TOKEN.length - 1)}`], false],
    ['a prefix', [`Bearer ${TOKEN.slice(0, 8)}`], false],
    ['extended', [`Bearer ${TOKEN}0`], false],
    ['10,000 characters', [`Bearer ${'x'.repeat(10_000)}`], false],
    ['no header', [], false],
    ['an empty header', [''], false],
    ['two headers', [`Bearer ${TOKEN}`, `Bearer ${TOKEN}`], false],
  ];
  for (const [name, authorization, allowed] of cases) {
    const outcome = check(authorization);
    assert.equal(outcome.allowed, allowed, name);
    assert.equal(outcome.pairs.length, 1, `${name}: one comparison`);
    const [[presented, expected]] = outcome.pairs as [[Buffer, Buffer]];
    assert.equal(presented.length, 32, name);
    assert.deepEqual(expected, sha256(TOKEN), name);
    const token = authorization.length === 1 ? (/^Bearer (\S+)$/.exec(authorization[0]!)?.[1] ?? '') : '';
    assert.deepEqual(presented, sha256(token), `${name}: the presented side is the digest of what was presented`);
  }
});

test('for any header at all, the comparison is of two 32-byte digests and the answer is allow or 401', () => {
  fc.assert(
    fc.property(
      fc.array(
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 300 }),
          fc.string().map((s) => `Bearer ${s}`),
          fc.constant(`Bearer ${TOKEN}`),
        ),
        { maxLength: 2 },
      ),
      (authorization) => {
        const { pairs, allowed } = check(authorization);
        assert.equal(pairs.length, 1);
        assert.deepEqual(
          pairs[0]!.map((digest) => digest.length),
          [32, 32],
        );
        assert.equal(allowed, authorization.length === 1 && /^Bearer +(\S+) *$/i.exec(authorization[0]!)?.[1] === TOKEN);
      },
    ),
    { seed: 20_261_122, numRuns: 300 },
  );
});

test('tokenDigest is 32 bytes for a token of any length', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 5000 }), (token) => tokenDigest(token).length === 32),
    { seed: 20_261_122, numRuns: 200 },
  );
});

test('the scheme is case-insensitive (RFC 9110 §11.1), the token is not', () => {
  for (const scheme of ['Bearer', 'bearer', 'BEARER', 'bEaReR']) assert.equal(check([`${scheme} ${TOKEN}`]).allowed, true, scheme);
  for (const token of [TOKEN.toUpperCase(), TOKEN.toLowerCase(), TOKEN.replace('admin', 'Admin')])
    assert.equal(check([`Bearer ${token}`]).allowed, false, token);
});

test('a guard that also takes a second token (METRICS_TOKEN) compares with both, every time, and takes either', () => {
  const both = adminGuard(TOKEN, 'second-token');
  const outcome = (authorization: string) => {
    compared.length = 0;
    try {
      both([authorization]);
      return { allowed: true, pairs: [...compared] };
    } catch {
      return { allowed: false, pairs: [...compared] };
    }
  };
  for (const [authorization, allowed] of [
    [`Bearer ${TOKEN}`, true],
    ['Bearer second-token', true],
    ['Bearer neither', false],
    ['Bearer ', false],
  ] as const) {
    const { allowed: got, pairs } = outcome(authorization);
    assert.equal(got, allowed, authorization);
    assert.deepEqual(
      pairs.map(([, expected]) => expected),
      [sha256(TOKEN), sha256('second-token')],
      `${authorization}: both compared`,
    );
  }
});
