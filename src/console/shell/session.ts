import type { Output } from '../../client/tenpo-client.ts';

// Who this tab of the console acts as. A staff account's session is an HttpOnly cookie no script
// reads and every tab sends (a new tab or a reload stays signed in); localStorage only notes that an
// account may be signed in, so a tab asks the service who it is only then (asking without a session
// would count as a failed authentication), and the note's removal tells other tabs of a sign-out.
// The admin token lives in this tab's sessionStorage only: never shared, never in a URL, a cookie or
// the console's log.

export type StaffAccount = NonNullable<Output<'/api/admin/session/get'>['staff']>;

/** A signed-in staff account, or the holder of the admin token (an owner, and no one's account). */
export type SignedIn = { kind: 'account'; staff: StaffAccount } | { kind: 'token' };

export function roleOf(who: SignedIn): StaffAccount['role'] {
  return who.kind === 'token' ? 'owner' : who.staff.role;
}

const TOKEN_KEY = 'tenpo.adminToken';
const ACCOUNT_KEY = 'tenpo.signedIn';

export function storedToken(): string | undefined {
  return sessionStorage.getItem(TOKEN_KEY) ?? undefined;
}

export function storeToken(token: string): void {
  sessionStorage.setItem(TOKEN_KEY, token);
}

export function forgetToken(): void {
  sessionStorage.removeItem(TOKEN_KEY);
}

/** Whether an account may be signed in in this browser (the cookie itself is out of reach). */
export function mayHaveSession(): boolean {
  return localStorage.getItem(ACCOUNT_KEY) !== null;
}

export function noteSignedIn(): void {
  localStorage.setItem(ACCOUNT_KEY, '1');
}

export function noteSignedOut(): void {
  localStorage.removeItem(ACCOUNT_KEY);
}

/** Calls `callback` when another tab signs an account in (`in`) or out (`out`); returns what stops listening. */
export function onOtherTabs(callback: (change: 'in' | 'out') => void): () => void {
  const listener = (event: StorageEvent) => {
    if (event.storageArea === localStorage && event.key === ACCOUNT_KEY) callback(event.newValue === null ? 'out' : 'in');
  };
  window.addEventListener('storage', listener);
  return () => window.removeEventListener('storage', listener);
}
