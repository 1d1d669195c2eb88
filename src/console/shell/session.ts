import type { Output } from '../../client/tenpo-client.ts';

// Who this tab of the console acts as, and how it is kept.
//
// A staff account signs in with its address and password: the service sets an HttpOnly session
// cookie, which no script here can read and every tab of the browser sends, so a new tab, a reload
// or a Ctrl-click on a record stays signed in. localStorage only notes that an account may be signed
// in: a tab asks the service who it is only then (asking without a session would count as a failed
// authentication against the browser's address), and the note's removal tells every other tab that
// the account signed out.
//
// The admin token lives in this tab's sessionStorage only: it is gone when the tab closes, is not
// shared with other tabs, and is never put in a URL, a cookie or the console's log.

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
