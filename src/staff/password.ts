import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { HashTurns } from './hash-turns.ts';

// Staff passwords, kept only as a slow salted hash: node:crypto's scrypt with OWASP's parameters
// for it (N = 2^15, r = 8, p = 3: 32 MiB of memory and, measured by `npm run bench sign-in`, the
// time one sign-in costs). The parameters are stored with each hash, so raising them later leaves
// existing passwords verifiable.

/** The cost of a new hash: N = 2^ln, block size r, parallelism p. */
export const SCRYPT = { ln: 15, r: 8, p: 3 } as const;
const SALT_BYTES = 16;
const HASH_BYTES = 32;

export const PASSWORD_LENGTH = { min: 12, max: 200 } as const;

/**
 * Hashes run in libuv's thread pool, which file and DNS work share; two at a time leave it room,
 * and bound the memory a burst of sign-ins takes (32 MiB each). Each is queued in the lane of who
 * asked (a sign-in's client address), served in turn with the others.
 */
const turns = new HashTurns(2);

/** The lane of hashes no client asked for directly: an account created or reset, the command line. */
const SERVICE_LANE = 'service';

/** Passwords hashed (or verified) by this process since it started. */
export const passwordsHashed = () => turns.done;

interface Hash {
  ln: number;
  r: number;
  p: number;
  salt: Buffer;
  hash: Buffer;
}

/** A new password's hash, as stored: `$scrypt$ln=15,r=8,p=3$<salt>$<hash>` (base64, no padding). */
export async function hashPassword(password: string, lane = SERVICE_LANE): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await derive(password, { ...SCRYPT, salt, length: HASH_BYTES }, lane);
  return `$scrypt$ln=${SCRYPT.ln},r=${SCRYPT.r},p=${SCRYPT.p}$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

/** Whether `password` is the one `stored` was made from; a stored value that is not a hash matches nothing. */
export async function verifyPassword(password: string, stored: string, lane = SERVICE_LANE): Promise<boolean> {
  const parsed = parseHash(stored) ?? NOTHING;
  const derived = await derive(password, { ...parsed, length: parsed.hash.length }, lane);
  return timingSafeEqual(derived, parsed.hash) && parsed !== NOTHING;
}

/**
 * The work of verifying a password against an account that does not exist: the same hash with the
 * same parameters, which matches nothing. A sign-in to an unknown address then takes as long as one
 * with a wrong password, so the time of the answer does not tell whether the address has an account.
 */
export async function verifyAgainstNoAccount(password: string, lane = SERVICE_LANE): Promise<false> {
  await verifyPassword(password, '', lane);
  return false;
}

/** What can be verified against when there is no hash: today's parameters, and a hash no password derives to. */
const NOTHING: Hash = { ...SCRYPT, salt: Buffer.alloc(SALT_BYTES), hash: Buffer.alloc(HASH_BYTES) };

function parseHash(stored: string): Hash | undefined {
  const match = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([\w-]+)\$([\w-]+)$/.exec(stored);
  if (!match) return undefined;
  const [, ln, r, p, salt, hash] = match;
  return { ln: Number(ln), r: Number(r), p: Number(p), salt: Buffer.from(salt!, 'base64url'), hash: Buffer.from(hash!, 'base64url') };
}

function derive(
  password: string,
  options: { ln: number; r: number; p: number; salt: Buffer; length: number },
  lane: string,
): Promise<Buffer> {
  const N = 2 ** options.ln;
  const cost = { N, r: options.r, p: options.p, maxmem: 256 * N * options.r };
  return turns.run(
    lane,
    () =>
      new Promise<Buffer>((resolve, reject) =>
        scrypt(password.normalize('NFC'), options.salt, options.length, cost, (error, key) => (error ? reject(error) : resolve(key))),
      ),
  );
}

/** Whether a new password is the account's own address, which it may not be (compared case-insensitively). */
export function isOwnAddress(password: string, email: string): boolean {
  return password.trim().toLowerCase() === email.trim().toLowerCase();
}
