import type { Kysely } from 'kysely';
import type { Database } from './database.ts';
import type { Tables } from './schema.ts';

/**
 * Writes items that arrive together in one transaction ("group commit"): each caller waits for the
 * commit holding its item (durability unchanged), one commit shared by a turn's requests (most of a
 * small write's cost: bench/reservations.ts). `write` writes the batch with multi-row statements and
 * may answer a result per item. A failed batch's items are tried again alone. `inOrder`: one batch at
 * a time on PostgreSQL too, failed items retried before the next, so items are written in the order
 * they came (first come, first served). `gatherMs`: batches start at least this far apart, so a
 * steady stream is not a commit (an fsync on SQLite's thread) per item; after a quiet moment, at once.
 */
export function groupCommit<T, R = void>(
  database: Database,
  write: (trx: Kysely<Tables>, items: T[]) => Promise<R[] | void>,
  options: { maxBatch?: number; inOrder?: boolean; gatherMs?: number } = {},
): (item: T) => Promise<R> {
  const maxBatch = options.maxBatch ?? 100;
  // SQLite has one connection, so one transaction at a time; PostgreSQL commits a few batches at once.
  const maxInFlight = database.dialect === 'sqlite' || options.inOrder ? 1 : 4;
  let waiting: { item: T; done: (outcome: { result?: R; error?: unknown }) => void }[] = [];
  let inFlight = 0;
  let scheduled = false;
  let lastBatchAt = -Infinity;

  const commit = (items: T[]) => database.db.transaction().execute((trx) => write(trx, items));

  const flush = () => {
    scheduled = false;
    while (waiting.length > 0 && inFlight < maxInFlight) {
      const batch = waiting.slice(0, maxBatch);
      waiting = waiting.slice(maxBatch);
      inFlight += 1;
      lastBatchAt = performance.now();
      void commit(batch.map((w) => w.item))
        .then(
          (results) => batch.forEach((w, i) => w.done({ result: results?.[i] })),
          async (error) => {
            if (batch.length === 1) return batch[0]!.done({ error });
            for (const w of batch) {
              await commit([w.item]).then(
                (results) => w.done({ result: results?.[0] }),
                (alone) => w.done({ error: alone }),
              );
            }
          },
        )
        .finally(() => {
          inFlight -= 1;
          schedule();
        });
    }
  };

  const schedule = () => {
    if (scheduled || waiting.length === 0) return;
    scheduled = true;
    // After the current I/O phase, so every request read in this turn joins the batch.
    const wait = lastBatchAt + (options.gatherMs ?? 0) - performance.now();
    if (wait > 0) setTimeout(flush, wait);
    else setImmediate(flush);
  };

  return (item) =>
    new Promise<R>((resolve, reject) => {
      // A write that answers no results (void) resolves its callers with undefined, which R = void allows.
      waiting.push({ item, done: ({ result, error }) => (error === undefined ? resolve(result as R) : reject(error)) });
      schedule();
    });
}
