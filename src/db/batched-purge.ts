import type { Logger } from '../log.ts';

export interface BatchedPurge {
  /** Deletes everything due by now, a batch at a time; resolves with how many rows. */
  run(): Promise<number>;
  /** Stops the timer and waits for a purge in progress. */
  close(): Promise<void>;
}

export interface BatchedPurgeOptions {
  /** What is deleted, for the log: `expired idempotency keys`. */
  what: string;
  /** Deletes at most `limit` rows due at `now` (ISO) in one statement; resolves with how many it deleted. */
  deleteBatch(now: string, limit: number): Promise<number>;
  intervalMs: number;
  batchSize: number;
  now?: () => Date;
}

/**
 * How long after its start a purge first runs: a service's start is done when it listens, and its
 * first requests are not made to wait behind the purges' statements (a few milliseconds of CPU).
 */
const FIRST_PURGE_AFTER_MS = 1_000;

/**
 * Deletes rows that are due every `intervalMs` (and once a second after start), `batchSize` rows per statement,
 * so a purge never holds a lock for long nor makes one long transaction; between batches the event
 * loop turns, so requests (and, on SQLite's one connection, their writes) get their turn. Each
 * instance purges; on a shared PostgreSQL they may delete the same rows, which only makes one of
 * them delete fewer. A failure is logged and tried again at the next interval.
 */
export function startBatchedPurge(log: Logger, options: BatchedPurgeOptions): BatchedPurge {
  const now = options.now ?? (() => new Date());
  let running: Promise<number> = Promise.resolve(0);

  const purge = async () => {
    const at = now().toISOString();
    let deleted = 0;
    for (;;) {
      const batch = await options.deleteBatch(at, options.batchSize);
      deleted += batch;
      if (batch < options.batchSize) return deleted;
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  const run = () => {
    running = running.then(purge, purge);
    return running;
  };
  const tick = () => {
    run().then(
      (deleted) => deleted > 0 && log.debug({ deleted }, `${options.what} deleted`),
      (error: unknown) =>
        log.warn({ err: error instanceof Error ? error.message : String(error) }, `purge of ${options.what} failed; tried again later`),
    );
  };

  const first = setTimeout(tick, FIRST_PURGE_AFTER_MS);
  const timer = setInterval(tick, options.intervalMs);
  // The purge must not keep a stopping process alive.
  first.unref();
  timer.unref();

  return {
    run,
    close: async () => {
      clearTimeout(first);
      clearInterval(timer);
      await running.catch(() => undefined);
    },
  };
}
