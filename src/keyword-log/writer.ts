import { ClientBudgets } from '../http/rate-limit.ts';
import type { Logger } from '../log.ts';
import type { KeywordLogStore, LoggedSearch } from './store.ts';

export interface KeywordLogWriterOptions {
  /** A batch is written as soon as this many entries wait. */
  batchSize: number;
  /** Whatever waits is written at least this often. */
  intervalMs: number;
  /** Entries beyond this many waiting (the store is slow, or down) are skipped. */
  maxWaiting: number;
  /**
   * Searches one client may add to the log in a minute; its searches beyond them are answered but
   * not logged (skipped), so one client's flood cannot grow the log, or what is read from it, at
   * the rate it can send requests. A shopper typing, even with a search at every keystroke, stays
   * well below it.
   */
  perClientPerMinute: number;
  /**
   * Searches one loopback peer may pass on in a minute, whoever it says they are from: a local
   * proxy carries every shopper's, but so could any local process naming a new client in each
   * X-Forwarded-For (as TRUST_PROXY=true lets it), which would otherwise get a client's share each.
   */
  perLoopbackPeerPerMinute: number;
}

export const DEFAULT_WRITER_OPTIONS: KeywordLogWriterOptions = {
  batchSize: 500,
  intervalMs: 1_000,
  maxWaiting: 50_000,
  perClientPerMinute: 120,
  perLoopbackPeerPerMinute: 1_200,
};

export interface KeywordLogWriter {
  /**
   * Queues one search, made by `client` and passed on by the loopback peer `via` when one did.
   * Never waits and never throws: a search must not notice the log.
   */
  append(search: LoggedSearch & { via?: string }): void;
  /** Writes everything queued so far (after any write under way). Never rejects. */
  flush(): Promise<void>;
  /** Stops the timer and writes what is left; call before the store closes. */
  close(): Promise<void>;
  /**
   * Since the start: entries appended, written, and skipped because the store failed, the queue was
   * full or their client had used its minute's share. `queued` is `written + skipped` plus what waits.
   */
  counts(): { queued: number; written: number; skipped: number };
}

/**
 * The keyword log's only writer. Searches append to a queue in memory; batches go to the store on
 * an interval, when the queue reaches a batch, and at shutdown, one write at a time. When the store
 * fails, the batch is skipped and counted (a lost analytics line beats a slow or failed search),
 * with one warning when the trouble starts and one line when writes succeed again.
 */
export function createKeywordLogWriter(
  store: KeywordLogStore,
  log: Logger,
  options: KeywordLogWriterOptions = DEFAULT_WRITER_OPTIONS,
): KeywordLogWriter {
  let waiting: LoggedSearch[] = [];
  const budgets = new ClientBudgets(options.perClientPerMinute, Date.now);
  const loopbackBudgets = new ClientBudgets(options.perLoopbackPeerPerMinute, Date.now);
  let queued = 0;
  let written = 0;
  let skipped = 0;
  let skippedSinceFailure = 0;
  let failing = false;
  let writing: Promise<void> = Promise.resolve();
  let busy = false;

  const skip = (count: number) => {
    skipped += count;
    skippedSinceFailure += count;
  };

  const writeWaiting = async () => {
    busy = true;
    while (waiting.length > 0) {
      const batch = waiting.length <= options.batchSize ? waiting : waiting.slice(0, options.batchSize);
      waiting = batch === waiting ? [] : waiting.slice(batch.length);
      try {
        await store.append(batch);
        written += batch.length;
        if (failing) {
          failing = false;
          log.info({ skipped: skippedSinceFailure }, 'keyword log writes resumed');
        }
      } catch (error) {
        skip(batch.length);
        if (!failing) {
          failing = true;
          skippedSinceFailure = batch.length;
          log.warn(
            { err: error instanceof Error ? error.message : String(error) },
            'keyword log store failed; entries are skipped until it answers',
          );
        }
      }
    }
    busy = false;
  };

  const flush = () => {
    writing = writing.then(writeWaiting);
    return writing;
  };

  // A store that hangs holds one write; the timer does not queue more behind it.
  const timer = setInterval(() => {
    if (!busy) void flush();
  }, options.intervalMs);
  // The log must not keep a stopping process alive; close() writes what is left.
  timer.unref();

  return {
    append: ({ via, ...search }) => {
      queued += 1;
      const overShare = budgets.take(search.client) > 0 || (via !== undefined && loopbackBudgets.take(via) > 0);
      if (waiting.length >= options.maxWaiting || overShare) {
        skip(1);
        return;
      }
      waiting.push(search);
      if (waiting.length === options.batchSize) void flush();
    },
    flush,
    close: async () => {
      clearInterval(timer);
      await flush();
      if (skipped > 0) log.info({ written, skipped }, 'keyword log closed with skipped entries');
    },
    counts: () => ({ queued, written, skipped }),
  };
}
