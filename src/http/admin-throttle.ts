import type { Context } from 'hono';
import { AppError } from './app-error.ts';
import type { Budgets } from './rate-limit.ts';

/**
 * Runs an authentication (the admin check, a sign-in) for a request, counting its client's
 * failures: it answers what `authenticate` answers, or 429 once the client has failed too often.
 */
export type AdminThrottle = <T>(c: Context, authenticate: () => T | Promise<T>) => Promise<T>;

/**
 * Failed admin authentications, counted per client: once a client has failed `perMinute`
 * times in a minute (a window from its first failure), every admin request of its gets 429 until
 * the window ends, before its token is looked at, so a guesser learns nothing more even by hitting
 * the right one. A failure is a 401: a wrong or missing token, a session that is not live, a
 * sign-in refused; nothing else counts. 0 turns it off. The counts are kept as the public write
 * limit's are (`budgets`: in PostgreSQL, shared by the instances, or in memory).
 */
export function adminThrottle(options: { perMinute: number; clientAddress: (c: Context) => string; budgets: Budgets }): AdminThrottle {
  if (options.perMinute === 0) return async (_c, authenticate) => authenticate();
  return async (c, authenticate) => {
    const client = options.clientAddress(c);
    const wait = await options.budgets.exhausted(client);
    if (wait > 0)
      throw new AppError('too_many_failed_authentications', 'Too many failed authentications', {
        headers: { 'Retry-After': String(wait) },
      });
    try {
      return await authenticate();
    } catch (error) {
      if (error instanceof AppError && error.status === 401) await options.budgets.take(client);
      throw error;
    }
  };
}
