import { createHash, timingSafeEqual } from 'node:crypto';
import { AppError } from './app-error.ts';

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
    if (!accepted || presented === '') throw new AppError('unauthorized', 'Unauthorized');
  };
}

/** What the comparison sees of a token: its SHA-256, 32 bytes whatever the token. */
export function tokenDigest(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}
