import { sql, type Kysely } from 'kysely';
import type { Database } from './database.ts';
import type { Tables } from './schema.ts';

/** A use case's statements, run in the transaction it is given; what it answers once that commits. */
export type Work<R> = (trx: Kysely<Tables>) => Promise<R>;

/** Runs a unit of work in a transaction and answers its result once the transaction has committed. */
export type Transaction = <R>(work: Work<R>) => Promise<R>;

/**
 * Runs units of work that arrive together in one transaction, one after another in arrival order
 * ("group commit"): each caller waits for the commit holding its work (durability unchanged), one
 * commit shared by a moment's requests (most of a small write's cost: bench/reservations.ts). One
 * transaction at a time, so work is written in the order it came (first come, first served); on
 * PostgreSQL `lock` makes that hold across instances too (an advisory lock of that name, taken first
 * in each transaction). A failed transaction's works are tried again alone, in order, before the
 * next batch. `gatherMs`: batches start at least this far apart, so a steady stream is not a commit
 * (an fsync on SQLite's thread) per request; after a quiet moment, at once.
 */
export function groupCommit(database: Database, options: { maxBatch?: number; gatherMs?: number; lock?: string } = {}): Transaction {
  const maxBatch = options.maxBatch ?? 100;
  const lock = database.dialect === 'postgres' && options.lock;
  let waiting: { work: Work<unknown>; done: (outcome: { result?: unknown; error?: unknown }) => void }[] = [];
  let busy = false;
  let scheduled = false;
  let lastBatchAt = -Infinity;

  const commit = (works: Work<unknown>[]) =>
    database.db.transaction().execute(async (trx) => {
      if (lock) await sql`select pg_advisory_xact_lock(hashtext(${lock}))`.execute(trx);
      const results: unknown[] = [];
      for (const work of works) results.push(await work(trx));
      return results;
    });

  const flush = async () => {
    scheduled = false;
    busy = true;
    const batch = waiting.slice(0, maxBatch);
    waiting = waiting.slice(maxBatch);
    lastBatchAt = performance.now();
    try {
      const results = await commit(batch.map((w) => w.work));
      batch.forEach((w, i) => w.done({ result: results[i] }));
    } catch (error) {
      if (batch.length === 1) batch[0]!.done({ error });
      else
        for (const w of batch)
          await commit([w.work]).then(
            ([result]) => w.done({ result }),
            (alone) => w.done({ error: alone }),
          );
    }
    busy = false;
    schedule();
  };

  const schedule = () => {
    if (busy || scheduled || waiting.length === 0) return;
    scheduled = true;
    // After the current I/O phase, so every request read in this turn joins the batch.
    const wait = lastBatchAt + (options.gatherMs ?? 0) - performance.now();
    if (wait > 0) setTimeout(flush, wait);
    else setImmediate(flush);
  };

  return <R>(work: Work<R>) =>
    new Promise<R>((resolve, reject) => {
      waiting.push({ work, done: ({ result, error }) => (error === undefined ? resolve(result as R) : reject(error)) });
      schedule();
    });
}
