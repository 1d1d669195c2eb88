import type { Context } from 'hono';
import { requestHeader } from './request.ts';

// The staff console's session cookie: what the browser sends back instead of the admin token. It
// holds only a random token; the session it names lives in the database, so any instance accepts it
// and ending or disabling takes effect everywhere at once.

export const SESSION_COOKIE = 'tenpo_session';

/**
 * The session token a request's cookies carry; undefined when there is none. Of two cookies by that
 * name (one set for a wider path or domain), the first the browser sent is the one read.
 */
export function sessionTokenOf(c: Context): string | undefined {
  const header = requestHeader(c, 'cookie');
  if (header === undefined) return undefined;
  for (const pair of header.split(';')) {
    const at = pair.indexOf('=');
    if (at !== -1 && pair.slice(0, at).trim() === SESSION_COOKIE) return pair.slice(at + 1).trim();
  }
  return undefined;
}

/**
 * `Set-Cookie` for a new session: unreadable by scripts, sent only by the service's own site
 * (`SameSite=Strict`), to every path, only over HTTPS when the service is reached over HTTPS. It
 * lasts as long as a session can (the database decides when it ends sooner).
 */
export function sessionCookie(token: string, options: { secure: boolean; maxAgeSeconds: number }): string {
  return `${SESSION_COOKIE}=${token}; ${attributes(options.secure)}; Max-Age=${options.maxAgeSeconds}`;
}

/** `Set-Cookie` that makes the browser forget the session cookie. */
export function endedSessionCookie(options: { secure: boolean }): string {
  return `${SESSION_COOKIE}=; ${attributes(options.secure)}; Max-Age=0`;
}

function attributes(secure: boolean): string {
  return `HttpOnly; SameSite=Strict; Path=/${secure ? '; Secure' : ''}`;
}
