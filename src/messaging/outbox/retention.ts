import type { Kysely } from 'kysely';
import { startBatchedPurge, type BatchedPurge } from '../../db/batched-purge.ts';
import type { Database, Dialect } from '../../db/database.ts';
import type { Tables } from '../../db/schema.ts';
import type { Logger } from '../../log.ts';
import { deleteExpiredEvents } from '../reputation/store.ts';
import { DEAD, SENT, SKIPPED, SUPERSEDED } from './store.ts';

const DAY_MS = 86_400_000;

/**
 * Deletes messages `retentionDays` after they were sent or skipped, or after they were given up or
 * superseded, and the provider's events about emails that long after they happened,
 * so the outbox does not keep customers' addresses forever: every `intervalMs` and at
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
    deleteBatch: async (now, limit) => {
      const before = new Date(Date.parse(now) - options.retentionDays * DAY_MS).toISOString();
      const messages = await deleteExpiredMessages(database.db, database.dialect, before, limit);
      return messages < limit ? messages + (await deleteExpiredEvents(database.db, before, limit - messages)) : messages;
    },
  });
}

/**
 * Deletes up to `limit` messages kept long enough: sent and skipped ones sent before `before`, dead
 * and superseded ones that ended before it (`died_at`). One statement per kind, each a range of its
 * partial index (`outbox_sent_at`, `outbox_skipped_at`; a dead or superseded one ended after it was
 * queued, so `outbox_log_dead` and `outbox_log_superseded` up to `before`). The condition is repeated outside the subquery because PostgreSQL checks only
 * that part again on a row another transaction changed meanwhile: a dead message retried at that
 * moment is pending and stays. On PostgreSQL rows another instance is deleting are skipped.
 */
export async function deleteExpiredMessages(db: Kysely<Tables>, dialect: Dialect, before: string, limit: number): Promise<number> {
  const kinds = [
    { status: SENT, column: 'sent_at' as const },
    { status: SKIPPED, column: 'sent_at' as const },
    { status: DEAD, column: 'died_at' as const },
    { status: SUPERSEDED, column: 'died_at' as const },
  ];
  let deleted = 0;
  for (const { status, column } of kinds) {
    if (deleted >= limit) break;
    const result = await db
      // A CTE, as in claimDueMessages: PostgreSQL may run an `id IN (subquery)` more than once and delete more than `limit`.
      .with('due', (qb) => {
        const due = qb
          .selectFrom('outbox')
          .select('id')
          .where('status', '=', status)
          .where(column, '<', before)
          .$if(column === 'died_at', (q) => q.where('created_at', '<', before))
          .limit(limit - deleted);
        return dialect === 'postgres' ? due.forUpdate().skipLocked() : due;
      })
      .deleteFrom('outbox')
      .where('id', 'in', (eb) => eb.selectFrom('due').select('id'))
      .where('status', '=', status)
      .where(column, '<', before)
      .executeTakeFirst();
    deleted += Number(result.numDeletedRows);
  }
  return deleted;
}
