import type { Kysely } from 'kysely';
import { startBatchedPurge, type BatchedPurge } from '../db/batched-purge.ts';
import type { Tables } from '../db/schema.ts';
import type { Logger } from '../log.ts';
import { deleteExpiredKeys } from './store.ts';

/**
 * Deletes expired Idempotency-Keys every `intervalMs` (and once a second after start), in batches (see
 * startBatchedPurge). A late purge costs only space: expired keys are already ignored (store.ts).
 */
export function startKeyPurge(
  db: Kysely<Tables>,
  log: Logger,
  options: { intervalMs: number; batchSize: number; now?: () => Date },
): BatchedPurge {
  return startBatchedPurge(log, {
    ...options,
    what: 'expired idempotency keys',
    deleteBatch: (now, limit) => deleteExpiredKeys(db, now, limit),
  });
}
