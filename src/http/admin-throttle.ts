import type { Context } from 'hono';
import { AppError } from './app-error.ts';
import type { Budgets } from './rate-limit.ts';

/**
 * Runs an authentication (the admin check, a sign-in) for a request, counting its client's
 * failures: it answers what `authenticate` (given the client's address) answers, or 429 once the
 * client has failed too often. With `countFirst`, for an authentication whose work is dear (a
 * password's hash), the attempt is counted before it runs and given back unless it fails, so
 * attempts sent at once cannot all pass the check before any of them is counted.
 */
export type AdminThrottle = <T>(
  c: Context,
  authenticate: (client: string) => T | Promise<T>,
  options?: { countFirst?: boolean },
) => Promise<T>;

/**
 * Failed admin authentications, counted per client: once a client has failed `perMinute`
 * times in a minute (a window from its first failure), every admin request of its gets 429 until
 * the window ends, before its token is looked at, so a guesser learns nothing more even by hitting
 * the right one. A failure is a 401: a wrong or missing token, a session that is not live, a
 * sign-in refused; nothing else counts. 0 turns it off. The counts are kept as the public write
 * limit's are (`budgets`: in PostgreSQL, shared by the instances, or in memory).
 */
export function adminThrottle(options: { perMinute: number; clientAddress: (c: Context) => string; budgets: Budgets }): AdminThrottle {
  const { budgets } = options;
  if (options.perMinute === 0) return async (c, authenticate) => authenticate(options.clientAddress(c));
  return async (c, authenticate, { countFirst = false } = {}) => {
    const client = options.clientAddress(c);
    const wait = await (countFirst ? budgets.take(client) : budgets.exhausted(client));
    if (wait > 0)
      throw new AppError('too_many_failed_authentications', 'Too many failed authentications', {
        headers: { 'Retry-After': String(wait) },
      });
    let failed = false;
    try {
      return await authenticate(client);
    } catch (error) {
      failed = error instanceof AppError && error.status === 401;
      throw error;
    } finally {
      if (failed && !countFirst) await budgets.take(client);
      if (!failed && countFirst) await budgets.giveBack(client);
    }
  };
}
