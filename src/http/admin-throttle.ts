import type { Context } from 'hono';
import { AppError } from './app-error.ts';
import type { Budgets } from './rate-limit.ts';

/** Checks a request's admin authentication (throws 401), counting the failures of its client. */
export type AdminThrottle = (c: Context, authenticate: () => void) => void | Promise<void>;

/**
 * Failed admin authentications, counted per client: once a client has failed `perMinute`
 * times in a minute (a window from its first failure), every admin request of its gets 429 until
 * the window ends, before its token is looked at, so a guesser learns nothing more even by hitting
 * the right one. 0 turns it off. The counts are kept as the public write limit's are
 * (`budgets`: in PostgreSQL, shared by the instances, or in memory).
 */
export function adminThrottle(options: { perMinute: number; clientAddress: (c: Context) => string; budgets: Budgets }): AdminThrottle {
  if (options.perMinute === 0) return (_c, authenticate) => authenticate();
  return async (c, authenticate) => {
    const client = options.clientAddress(c);
    const wait = await options.budgets.exhausted(client);
    if (wait > 0)
      throw new AppError('too_many_failed_authentications', 'Too many failed authentications', {
        headers: { 'Retry-After': String(wait) },
      });
    try {
      authenticate();
    } catch (error) {
      await options.budgets.take(client);
      throw error;
    }
  };
}
