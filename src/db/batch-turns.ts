/**
 * Long reads take turns: a CSV export or a large read of the keyword log runs one batch (a bounded
 * read and what is made of it) at a time in the whole process, and the event loop turns between two
 * batches, so other requests (`/healthz`, a customer's reservation) wait for one batch at most,
 * however many such reads run at once, instead of one of each. SQLite answers on the event loop's
 * own thread, so without this 16 reads at once would hold it for all 16.
 */
const turns: (() => void)[] = [];
let batchRunning = false;

/** Runs `batch` at its turn. */
export async function inTurn<T>(batch: () => Promise<T>): Promise<T> {
  if (batchRunning) await new Promise<void>((resolve) => turns.push(resolve));
  batchRunning = true;
  try {
    return await batch();
  } finally {
    setImmediate(() => {
      const next = turns.shift();
      if (next) next();
      else batchRunning = false;
    });
  }
}
