import type { Database } from '../../db/database.ts';
import type { BulkItemError } from '../../records/bulk-archive.ts';
import { byStaff, recordRetries } from '../../records/history.ts';
import { isStorable } from '../../text/storable-text.ts';
import { messagesAsTheyStand } from '../outbox/standing.ts';
import { markDeadSuperseded, requeueDead } from './store.ts';

// Staff send again what the outbox gave up, unless it is no longer true.

export interface RetryOutcome {
  retriedIds: string[];
  errors: BulkItemError[];
}

/**
 * Puts dead messages back in the queue, each on its own terms as in bulk archive: an item that is
 * not an id, names no message or names one that is not dead is reported, the others are retried.
 * Each is checked against its record first, as the dispatcher checks before every attempt: a dead
 * message that is no longer true (outbox/standing.ts) becomes `superseded` instead, and is
 * reported so, as is one superseded already. Naming a message twice retries it once and reports the
 * second as not dead. The dispatcher asks again before it sends, so a record changed after this
 * check still stops the message. Each retry is written to its record's history, with the staff
 * account that asked (`staffId`; null for the bearer token), in the transaction that requeues it.
 */
export async function retryMessages(database: Database, items: unknown[], now: string, staffId: string | null): Promise<RetryOutcome> {
  const ids = [...new Set(items.filter(isMessageId))];
  const standing = await messagesAsTheyStand(database.db, ids);
  const untrue = ids.filter((id) => standing.get(id)?.superseded && standing.get(id)?.status === 'dead');
  await markDeadSuperseded(database.db, untrue, now);
  const superseded = new Set([...untrue, ...ids.filter((id) => standing.get(id)?.status === 'superseded')]);
  const requeued = await database.db.transaction().execute(async (trx) => {
    const rows = await requeueDead(
      trx,
      ids.filter((id) => !superseded.has(id)),
      now,
    );
    await recordRetries(
      trx,
      rows.flatMap(({ id, recordId }) => (recordId === null ? [] : [{ recordId, messageId: id }])),
      now,
      byStaff(staffId),
    );
    return rows;
  });
  const retried = new Set(requeued.map((row) => row.id));
  const outcome: RetryOutcome = { retriedIds: [], errors: [] };
  const done = new Set<string>();
  for (const item of items) {
    if (!isMessageId(item)) {
      outcome.errors.push({ id: typeof item === 'string' ? item : '', error: 'Invalid item', code: 'invalid_item' });
    } else if (superseded.has(item)) {
      outcome.errors.push({ id: item, error: 'Message is superseded', code: 'message_superseded' });
    } else if (retried.has(item) && !done.has(item)) {
      done.add(item);
      outcome.retriedIds.push(item);
    } else {
      outcome.errors.push(
        standing.has(item)
          ? { id: item, error: 'Message is not dead', code: 'message_not_dead' }
          : { id: item, error: 'Message not found', code: 'message_not_found' },
      );
    }
  }
  return outcome;
}

/** A non-empty string that can be looked up (see isStorable). */
const isMessageId = (item: unknown): item is string => typeof item === 'string' && item !== '' && isStorable(item);
