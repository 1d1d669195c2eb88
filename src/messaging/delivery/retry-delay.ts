/**
 * The wait before attempt `attempt + 1`: exponential from `baseMs` (base, 2×base, 4×base, …) up to
 * `capMs`, then jittered down by up to half, so messages that failed together (a provider outage)
 * do not all come back in the same instant.
 */
export function retryDelayMs(attempt: number, options: { baseMs: number; capMs: number }, random: () => number = Math.random): number {
  const exponential = Math.min(options.capMs, options.baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(exponential * (1 - random() / 2));
}
