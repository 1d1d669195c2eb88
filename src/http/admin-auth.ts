import { createHash, timingSafeEqual } from 'node:crypto';
import { AppError } from './app-error.ts';

/**
 * Checks `Authorization: Bearer <token>` against the admin token in constant time: both sides are
 * hashed first, so neither the token's content nor its length shows in the time taken.
 */
export function adminGuard(adminToken: string): (authorization: string | undefined) => void {
  const expected = digest(adminToken);
  return (authorization) => {
    const presented = /^Bearer +(\S+) *$/i.exec(authorization ?? '')?.[1] ?? '';
    if (!timingSafeEqual(digest(presented), expected) || presented === '') throw new AppError(401, 'Unauthorized');
  };
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
