// The admin token lives in this tab's sessionStorage only: it is gone when the tab closes, is not
// shared with other tabs, and is never put in a URL, a cookie or the console's log.

const KEY = 'tenpo.adminToken';

export function storedToken(): string | undefined {
  return sessionStorage.getItem(KEY) ?? undefined;
}

export function storeToken(token: string): void {
  sessionStorage.setItem(KEY, token);
}

export function forgetToken(): void {
  sessionStorage.removeItem(KEY);
}
