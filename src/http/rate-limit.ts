import type { Context } from 'hono';
import type { AppEnv } from './app-env.ts';
import { AppError } from './app-error.ts';
import { JA } from './messages.ts';
import { nodeRequest, requestHeader } from './request.ts';

const WINDOW_MS = 60_000;

/** A per-client request budget, checked by the routes that share it before their input is read. */
export interface RateLimit {
  /** Counts the request; throws 429 with Retry-After when its client is over budget. */
  check(c: Context<AppEnv>): void;
}

/**
 * `perMinute` requests per client in any window of a minute that starts at the client's first
 * request; 0 turns the limit off. Every request checked counts, refused ones too, so retrying
 * in a loop does not get through sooner. One instance is one budget: routes given the same
 * instance share it. Counts live in memory, per process.
 *
 * The client is the connection's address, or with `trustProxy` the last X-Forwarded-For entry
 * (the address the proxy in front of us saw; earlier entries are the client's own claims).
 */
export function createRateLimit(options: { perMinute: number; trustProxy: boolean; now?: () => number }): RateLimit {
  const limiter = new ClientBudgets(options.perMinute, options.now ?? Date.now);
  return {
    check: (c) => {
      if (options.perMinute === 0) return;
      const retryAfterSeconds = limiter.take(clientAddress(c, options.trustProxy));
      if (retryAfterSeconds > 0) throw new AppError(429, JA.tooManyRequests, { headers: { 'Retry-After': String(retryAfterSeconds) } });
    },
  };
}

/** Request counts per client and minute window. */
export class ClientBudgets {
  readonly #perMinute: number;
  readonly #now: () => number;
  readonly #windows = new Map<string, { start: number; count: number }>();
  #lastSweep: number;

  constructor(perMinute: number, now: () => number) {
    this.#perMinute = perMinute;
    this.#now = now;
    this.#lastSweep = now();
  }

  /** Counts one request; returns 0 when it is within budget, else the seconds until the window ends. */
  take(client: string): number {
    const now = this.#now();
    this.#sweep(now);
    let window = this.#windows.get(client);
    if (!window || now - window.start >= WINDOW_MS) this.#windows.set(client, (window = { start: now, count: 0 }));
    window.count += 1;
    if (window.count <= this.#perMinute) return 0;
    return Math.max(1, Math.ceil((window.start + WINDOW_MS - now) / 1000));
  }

  /** Forgets ended windows once a minute, so memory follows the clients of the last minute only. */
  #sweep(now: number): void {
    if (now - this.#lastSweep < WINDOW_MS) return;
    this.#lastSweep = now;
    for (const [client, window] of this.#windows) if (now - window.start >= WINDOW_MS) this.#windows.delete(client);
  }

  get clients(): number {
    return this.#windows.size;
  }
}

function clientAddress(c: Context<AppEnv>, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = requestHeader(c, 'x-forwarded-for')?.split(',').at(-1)?.trim();
    if (forwarded) return forwarded;
  }
  const address = nodeRequest(c)?.socket.remoteAddress ?? 'unknown';
  return address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
}
