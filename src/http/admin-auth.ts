import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import type { AdminIdentity, AppEnv } from './app-env.ts';
import { AppError } from './app-error.ts';
import type { OriginGuard } from './cors.ts';
import { requestHeaderLines } from './request.ts';
import { sessionTokenOf } from './session-cookie.ts';

/** The bearer token's identity: an owner, and no account. */
export const TOKEN_HOLDER: AdminIdentity = { role: 'owner', staff: null, sessionId: null };

/**
 * Finds the live session a cookie's token names (the staff domain keeps them): undefined when there
 * is none, it has ended or expired, or its account is disabled.
 */
export interface SessionReader {
  read(token: string): Promise<AdminIdentity | undefined>;
}

const UNAUTHORIZED = () => new AppError('unauthorized', 'Unauthorized');

/**
 * Authenticates an admin request, before its body is read: with an `Authorization` header, by the
 * bearer token alone (a script; a cookie beside it is ignored); without one, by the session cookie,
 * provided the request comes from the service's own pages (a signed-in browser posting from another
 * site is a cross-site request forgery, refused 403 before the session is even looked up). Anything
 * else is 401.
 */
export function adminAuthentication(options: {
  sessions: SessionReader;
  checkOrigin: OriginGuard;
}): (c: Context<AppEnv>, checkToken: (authorization: readonly string[]) => void) => Promise<AdminIdentity> {
  return async (c, checkToken) => {
    const authorization = requestHeaderLines(c, 'authorization');
    if (authorization.length > 0) {
      checkToken(authorization);
      return TOKEN_HOLDER;
    }
    const token = sessionTokenOf(c);
    if (token === undefined || token === '') throw UNAUTHORIZED();
    options.checkOrigin(c, 'service');
    const identity = await options.sessions.read(token);
    if (!identity) throw UNAUTHORIZED();
    return identity;
  };
}

/** The signed-in account an admin request comes from, for the history of what it changes; null for the bearer token. */
export function staffIdOf(c: Context<AppEnv>): string | null {
  return adminIdentity(c).staff?.id ?? null;
}

/** Who the admin request being served comes from (set by mount.ts once it is authenticated). */
export function adminIdentity(c: Context<AppEnv>): AdminIdentity {
  const identity = c.get('admin');
  if (!identity) throw new Error('adminIdentity() outside an authenticated admin route');
  return identity;
}

/**
 * Checks `Authorization: Bearer <token>` against the admin token in constant time: both sides are
 * hashed first, so the values compared are always two 32-byte digests, and neither the token's
 * content, its length nor where a guess first differs from it shows in the time taken. The scheme
 * is case-insensitive (RFC 9110 §11.1); the token is not. A request with two Authorization headers
 * is refused whatever they hold: a proxy in front may have judged it by the other one.
 */
export function adminGuard(adminToken: string, otherToken?: string): (authorization: readonly string[]) => void {
  const expected = tokenDigest(adminToken);
  // A route that also takes another token (METRICS_TOKEN on /metrics) compares with both, always both.
  const other = otherToken === undefined ? undefined : tokenDigest(otherToken);
  return (authorization) => {
    const presented = authorization.length === 1 ? (/^Bearer +(\S+) *$/i.exec(authorization[0]!)?.[1] ?? '') : '';
    const digest = tokenDigest(presented);
    const admin = timingSafeEqual(digest, expected);
    const accepted = other ? timingSafeEqual(digest, other) || admin : admin;
    if (!accepted || presented === '') throw UNAUTHORIZED();
  };
}

/** What the comparison sees of a token: its SHA-256, 32 bytes whatever the token. */
export function tokenDigest(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}
