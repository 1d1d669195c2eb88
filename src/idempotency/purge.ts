import type { Kysely } from 'kysely';
import type { Tables } from '../db/schema.ts';
import type { Logger } from '../log.ts';
import { deleteExpiredKeys } from './store.ts';

export interface KeyPurge {
  /** Deletes every key expired by now, a batch at a time; resolves with how many. */
  run(): Promise<number>;
  /** Stops the timer and waits for a purge in progress. */
  close(): Promise<void>;
}

/**
 * Deletes expired Idempotency-Keys every `intervalMs` (and once at start), `batchSize` rows per
 * statement, so a day's keys never hold a lock for long nor make one long transaction; between
 * batches other writes get their turn (SQLite has one connection). Each instance purges; on a
 * shared PostgreSQL they may delete the same rows, which only makes one of them delete fewer.
 * A failure is logged and tried again at the next interval: expired keys are already ignored
 * (store.ts), so a late purge costs only space.
 */
export function startKeyPurge(db: Kysely<Tables>, log: Logger, options: { intervalMs: number; batchSize: number; now?: () => Date }): KeyPurge {
  const now = options.now ?? (() => new Date());
  let running: Promise<number> = Promise.resolve(0);

  const purge = async () => {
    const at = now().toISOString();
    let deleted = 0;
    for (;;) {
      const batch = await deleteExpiredKeys(db, at, options.batchSize);
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
      (deleted) => deleted > 0 && log.debug({ deleted }, 'expired idempotency keys deleted'),
      (error: unknown) => log.warn({ err: error instanceof Error ? error.message : String(error) }, 'idempotency key purge failed; tried again later'),
    );
  };

  tick();
  const timer = setInterval(tick, options.intervalMs);
  // The purge must not keep a stopping process alive.
  timer.unref();

  return {
    run,
    close: async () => {
      clearInterval(timer);
      await running.catch(() => undefined);
    },
  };
}
