import { startBatchedPurge, type BatchedPurge } from '../db/batched-purge.ts';
import type { Database } from '../db/database.ts';
import type { Logger } from '../log.ts';
import { deleteExpiredMessages } from './outbox-store.ts';

const DAY_MS = 86_400_000;

/**
 * Deletes messages `retentionDays` after they were sent or skipped, or after they were given up
 * (SPEC §6.5), so the outbox does not keep customers' addresses forever: every `intervalMs` and at
 * start, `batchSize` rows a statement (see startBatchedPurge). Pending messages are never deleted.
 */
export function startOutboxRetention(
  database: Database,
  log: Logger,
  options: { retentionDays: number; intervalMs: number; batchSize: number; now?: () => Date },
): BatchedPurge {
  return startBatchedPurge(log, {
    ...options,
    what: 'messages past their retention',
    deleteBatch: (now, limit) =>
      deleteExpiredMessages(database.db, database.dialect, new Date(Date.parse(now) - options.retentionDays * DAY_MS).toISOString(), limit),
  });
}
