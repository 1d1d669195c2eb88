import type { Database } from '../../db/database.ts';
import type { BulkItemError } from '../../records/bulk-archive.ts';
import { isStorable } from '../../records/storable-text.ts';
import { existingMessageIds, requeueDead } from './store.ts';

// Staff send again what the outbox gave up.

export interface RetryOutcome {
  retriedIds: string[];
  errors: BulkItemError[];
}

/**
 * Puts dead messages back in the queue, each on its own terms as in bulk archive: an item that is
 * not an id, names no message or names one that is not dead is reported, the others are retried.
 * Naming a message twice retries it once and reports the second as not dead.
 */
export async function retryMessages(database: Database, items: unknown[], now: string): Promise<RetryOutcome> {
  const ids = items.filter(isMessageId);
  const retried = new Set(await requeueDead(database.db, [...new Set(ids)], now));
  const existing = await existingMessageIds(
    database.db,
    ids.filter((id) => !retried.has(id)),
  );
  const outcome: RetryOutcome = { retriedIds: [], errors: [] };
  const done = new Set<string>();
  for (const item of items) {
    if (!isMessageId(item)) {
      outcome.errors.push({ id: typeof item === 'string' ? item : '', error: 'Invalid item', code: 'invalid_item' });
    } else if (retried.has(item) && !done.has(item)) {
      done.add(item);
      outcome.retriedIds.push(item);
    } else {
      const exists = retried.has(item) || existing.has(item);
      outcome.errors.push(
        exists
          ? { id: item, error: 'Message is not dead', code: 'message_not_dead' }
          : { id: item, error: 'Message not found', code: 'message_not_found' },
      );
    }
  }
  return outcome;
}

/** A non-empty string that can be looked up (see isStorable). */
const isMessageId = (item: unknown): item is string => typeof item === 'string' && item !== '' && isStorable(item);
