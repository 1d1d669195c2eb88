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
  { outcome: 'signedIn'; staff: Staff; token: string } | { outcome: 'refused' } | { outcome: 'locked'; retryAfterSeconds: number };

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
 * Checks a password against an address's count of failures. The attempt is counted before the
 * hash runs and given back only when `check` matches, so attempts sent at once are refused (`locked`)
 * past the address's allowance before any is hashed: of 95 at once, 10 are checked.
 */
export async function checkCounted(
  accountFailures: Budgets,
  email: string,
  check: () => Promise<boolean>,
): Promise<{ outcome: 'matched' | 'failed' } | { outcome: 'locked'; retryAfterSeconds: number }> {
  const key = failuresKey(email);
  const wait = await accountFailures.take(key);
  if (wait > 0) return { outcome: 'locked', retryAfterSeconds: wait };
  if (!(await check())) return { outcome: 'failed' };
  await accountFailures.giveBack(key);
  return { outcome: 'matched' };
}

/**
 * Signs in, for a client (whose lane at the hash it is, password.ts):
 * 1. the attempt counts towards the address's failures first; past 10 in its 15 minutes it is
 *    refused until they pass (`locked`), whatever the password, without hashing;
 * 2. the account is read by its address, and the password verified against its hash, or, when there
 *    is no account, against a hash of no account's with the same cost (password.ts): a wrong address,
 *    a wrong password and a disabled account are one `refused`, answered in the same time, and each
 *    stays counted; a sign-in that succeeds is given back;
 * 3. a session begins, and the account notes when it signed in.
 */
export async function signIn(
  deps: { db: Kysely<Tables>; accountFailures: Budgets; now: () => Date },
  credentials: { email: string; password: string; client: string },
): Promise<SignInResult> {
  let account: Staff | undefined;
  const checked = await checkCounted(deps.accountFailures, credentials.email, async () => {
    account = await findStaffByEmail(deps.db, credentials.email);
    const matches = account
      ? await verifyPassword(credentials.password, account.password_hash, credentials.client)
      : await verifyAgainstNoAccount(credentials.password, credentials.client);
    return matches && account?.disabled !== 1;
  });
  if (checked.outcome === 'locked') return checked;
  if (checked.outcome === 'failed' || !account) return { outcome: 'refused' };
  const now = deps.now();
  const { token } = await startSession(deps.db, account.id, now);
  const staff = await updateStaffRow(deps.db, account.id, { last_sign_in_at: now.toISOString() });
  return { outcome: 'signedIn', staff, token };
}
