import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Tables } from '../db/schema.ts';
import type { Budgets } from '../http/rate-limit.ts';
import { verifyAgainstNoAccount, verifyPassword } from './password.ts';
import { startSession } from './sessions.ts';
import { emailKey, findStaffByEmail, updateStaffRow, type Staff } from './store.ts';

// Signing in with an address and a password.

/** Failed sign-ins one address may have within the window before its sign-in is refused until the window ends. */
export const ACCOUNT_FAILURES = { allowed: 10, windowSeconds: 15 * 60 };

export type SignInResult =
  { outcome: 'signed-in'; staff: Staff; token: string } | { outcome: 'refused' } | { outcome: 'locked'; retryAfterSeconds: number };

/**
 * What an address's failures are counted under: a hash of it, so the counts (kept in PostgreSQL's
 * rate-limit table when shared) hold no address. Counted per address, whether or not it has an
 * account, so a locked sign-in does not tell that it has one.
 */
export const failuresKey = (email: string) =>
  createHash('sha256')
    .update(`sign-in:${emailKey(email)}`)
    .digest('hex');

/**
 * Signs in:
 * 1. an address that failed 10 times in its 15 minutes is refused until they pass (`locked`),
 *    whatever the password, before any hashing;
 * 2. the account is read by its address, and the password verified against its hash, or, when there
 *    is no account, against a hash of no account's with the same cost (password.ts): a wrong address,
 *    a wrong password and a disabled account are one `refused`, answered in the same time, and each
 *    counts towards the address's failures;
 * 3. a session begins, and the account notes when it signed in.
 */
export async function signIn(
  deps: { db: Kysely<Tables>; accountFailures: Budgets; now: () => Date },
  credentials: { email: string; password: string },
): Promise<SignInResult> {
  const key = failuresKey(credentials.email);
  const wait = await deps.accountFailures.exhausted(key);
  if (wait > 0) return { outcome: 'locked', retryAfterSeconds: wait };
  const account = await findStaffByEmail(deps.db, credentials.email);
  const matches = account
    ? await verifyPassword(credentials.password, account.password_hash)
    : await verifyAgainstNoAccount(credentials.password);
  if (!account || !matches || account.disabled === 1) {
    await deps.accountFailures.take(key);
    return { outcome: 'refused' };
  }
  const now = deps.now();
  const { token } = await startSession(deps.db, account.id, now);
  const staff = await updateStaffRow(deps.db, account.id, { last_sign_in_at: now.toISOString() });
  return { outcome: 'signed-in', staff, token };
}
