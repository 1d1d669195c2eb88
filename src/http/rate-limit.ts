import type { Context } from 'hono';
import type { AppEnv } from './app-env.ts';
import { AppError } from './app-error.ts';
import { JA } from './storefront-texts.ts';

const WINDOW_MS = 60_000;

/** A per-client request budget, checked by the routes that share it before their input is read. */
export interface RateLimit {
  /** Counts the request; throws (or rejects with) 429 with Retry-After when its client is over budget. */
  check(c: Context<AppEnv>): void | Promise<void>;
}

/** Counts kept per client: in this process (ClientBudgets) or shared by every instance (shared-budgets.ts). */
export interface Budgets {
  /** Counts one request; 0 when it is within budget, else the seconds until the client's window ends. */
  take(client: string): number | Promise<number>;
  /** Counts nothing; 0 while the client has budget left, else the seconds until its window ends. */
  exhausted(client: string): number | Promise<number>;
  /** Uncounts one request taken, whose work turned out not to be what is counted (a sign-in that succeeded). */
  giveBack(client: string): void | Promise<void>;
}

/**
 * `perMinute` requests per client in any window of a minute that starts at the client's first
 * request; 0 turns the limit off. Every request checked counts, refused ones too, so retrying
 * in a loop does not get through sooner. One instance is one budget: routes given the same
 * instance share it. Who the client is, `clientAddress` says (client-address.ts).
 */
export function createRateLimit(options: { perMinute: number; clientAddress: (c: Context) => string; budgets: Budgets }): RateLimit {
  return {
    check: (c) => {
      if (options.perMinute === 0) return;
      const wait = options.budgets.take(options.clientAddress(c));
      return typeof wait === 'number' ? refuseOver(wait) : wait.then(refuseOver);
    },
  };
}

export function refuseOver(retryAfterSeconds: number): void {
  if (retryAfterSeconds > 0)
    throw new AppError('too_many_requests', JA.tooManyRequests, { headers: { 'Retry-After': String(retryAfterSeconds) } });
}

/** Request counts per client and window (a minute unless told), in this process's memory. */
export class ClientBudgets implements Budgets {
  readonly #perWindow: number;
  readonly #windowMs: number;
  readonly #now: () => number;
  readonly #windows = new Map<string, { start: number; count: number }>();
  #lastSweep: number;

  constructor(perWindow: number, now: () => number, windowMs = WINDOW_MS) {
    this.#perWindow = perWindow;
    this.#windowMs = windowMs;
    this.#now = now;
    this.#lastSweep = now();
  }

  /** Counts one request; returns 0 when it is within budget, else the seconds until the window ends. */
  take(client: string): number {
    const now = this.#now();
    this.#sweep(now);
    let window = this.#windows.get(client);
    if (!window || now - window.start >= this.#windowMs) this.#windows.set(client, (window = { start: now, count: 0 }));
    window.count += 1;
    if (window.count <= this.#perWindow) return 0;
    return Math.max(1, Math.ceil((window.start + this.#windowMs - now) / 1000));
  }

  exhausted(client: string): number {
    const now = this.#now();
    const window = this.#windows.get(client);
    if (!window || now - window.start >= this.#windowMs || window.count < this.#perWindow) return 0;
    return Math.max(1, Math.ceil((window.start + this.#windowMs - now) / 1000));
  }

  giveBack(client: string): void {
    const window = this.#windows.get(client);
    if (window && window.count > 0) window.count -= 1;
  }

  /** Forgets ended windows once a window, so memory follows the clients of the last minute only. */
  #sweep(now: number): void {
    if (now - this.#lastSweep < this.#windowMs) return;
    this.#lastSweep = now;
    for (const [client, window] of this.#windows) if (now - window.start >= this.#windowMs) this.#windows.delete(client);
  }

  get clients(): number {
    return this.#windows.size;
  }
}
