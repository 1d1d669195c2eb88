import type { Database } from '../db/database.ts';
import { isUniqueViolation } from '../db/unique-violation.ts';
import { uuidV7 } from '../db/time-ordered-id.ts';
import type { Budgets } from '../http/rate-limit.ts';
import { hashPassword, isOwnAddress, verifyPassword } from './password.ts';
import type { Role } from './schemas.ts';
import { checkCounted } from './sign-in.ts';
import {
  deleteSessionsOf,
  enabledOwnersForUpdate,
  findStaff,
  findStaffByEmail,
  findStaffForUpdate,
  insertStaff,
  updateStaffRow,
  type Staff,
} from './store.ts';

// Owners manage the staff accounts; everyone signed in changes their own password.

export async function createStaff(
  database: Database,
  account: { email: string; name: string; role: Role; password: string },
  now: Date,
): Promise<{ outcome: 'created'; staff: Staff } | { outcome: 'emailExists' }> {
  if (await findStaffByEmail(database.db, account.email)) return { outcome: 'emailExists' };
  const staff: Staff = {
    id: `stf_${uuidV7(now.getTime())}`,
    email: account.email,
    name: account.name,
    role: account.role,
    disabled: 0,
    password_hash: await hashPassword(account.password),
    created_at: now.toISOString(),
    last_sign_in_at: null,
  };
  try {
    await insertStaff(database.db, staff);
  } catch (error) {
    // Created by another request between the look-up and the insert: the unique index on lower(email).
    if (isUniqueViolation(error)) return { outcome: 'emailExists' };
    throw error;
  }
  return { outcome: 'created', staff };
}

export interface StaffChange {
  id: string;
  name?: string;
  role?: Role;
  disabled?: boolean;
  /** An owner's reset: a new password, and the account's sessions end. */
  password?: string;
}

export type StaffChangeResult =
  { outcome: 'updated'; staff: Staff } | { outcome: 'notFound' } | { outcome: 'ownerRequired' } | { outcome: 'ownAddressPassword' };

/**
 * An owner changes an account, in one transaction, the account locked throughout:
 * 1. a new password may not be the account's address;
 * 2. demoting or disabling an enabled owner needs another enabled owner to remain (the owners are
 *    locked, so two owners demoting each other at once cannot both succeed);
 * 3. the change is written; disabling, or a new password, ends the account's sessions (all of them
 *    but the asking request's own, when an owner resets their own password), so it is signed out
 *    on every instance at its next request.
 */
export async function updateStaff(
  database: Database,
  change: StaffChange,
  asker: { sessionId: string | null },
): Promise<StaffChangeResult> {
  // Hashed before the transaction: a hash takes a tenth of a second or more, too long to hold locks.
  const passwordHash = change.password === undefined ? undefined : await hashPassword(change.password);
  return database.db.transaction().execute(async (trx): Promise<StaffChangeResult> => {
    // A change of role or of the disabled flag locks the enabled owners first, in id order, then the
    // account: two owners demoting each other at once then wait for one another instead of each
    // holding its own row and waiting for the other's (a deadlock PostgreSQL breaks by failing one).
    const owners = change.role !== undefined || change.disabled !== undefined ? await enabledOwnersForUpdate(trx, database.dialect) : [];
    const account = await findStaffForUpdate(trx, database.dialect, change.id);
    if (!account) return { outcome: 'notFound' };
    if (change.password !== undefined && isOwnAddress(change.password, account.email)) return { outcome: 'ownAddressPassword' };
    const disabled = change.disabled === undefined ? account.disabled : Number(change.disabled);
    const role = change.role ?? account.role;
    const stopsBeingOwner = account.role === 'owner' && account.disabled === 0 && (role !== 'owner' || disabled === 1);
    if (stopsBeingOwner && owners.every((id) => id === account.id)) return { outcome: 'ownerRequired' };
    const staff = await updateStaffRow(trx, account.id, {
      ...(change.name !== undefined ? { name: change.name } : {}),
      ...(passwordHash !== undefined ? { password_hash: passwordHash } : {}),
      role,
      disabled,
    });
    if (disabled === 1 && account.disabled === 0) await deleteSessionsOf(trx, account.id);
    else if (passwordHash !== undefined) await deleteSessionsOf(trx, account.id, asker.sessionId);
    return { outcome: 'updated', staff };
  });
}

export type PasswordChangeResult =
  | { outcome: 'changed' }
  | { outcome: 'wrongCurrent' }
  | { outcome: 'ownAddressPassword' }
  | { outcome: 'locked'; retryAfterSeconds: number };

/**
 * A signed-in person changes their own password: the current one must be right (a wrong one counts
 * towards the address's sign-in failures, as a guess at sign-in does, and an address locked out of
 * signing in cannot change it either); the new one may not be the account's address. Their other
 * sessions end; the one asking stays signed in.
 */
export async function changeOwnPassword(
  deps: { database: Database; accountFailures: Budgets },
  who: { staffId: string; sessionId: string | null },
  passwords: { current: string; next: string },
): Promise<PasswordChangeResult> {
  const account = await findStaff(deps.database.db, who.staffId);
  // Accounts are never deleted, and a session is read with its account.
  if (!account) throw new Error(`the signed-in account ${who.staffId} does not exist`);
  const checked = await checkCounted(deps.accountFailures, account.email, () =>
    verifyPassword(passwords.current, account.password_hash, `staff:${account.id}`),
  );
  if (checked.outcome === 'locked') return checked;
  if (checked.outcome === 'failed') return { outcome: 'wrongCurrent' };
  if (isOwnAddress(passwords.next, account.email)) return { outcome: 'ownAddressPassword' };
  const passwordHash = await hashPassword(passwords.next);
  await deps.database.db.transaction().execute(async (trx) => {
    await updateStaffRow(trx, account.id, { password_hash: passwordHash });
    await deleteSessionsOf(trx, account.id, who.sessionId);
  });
  return { outcome: 'changed' };
}
