import { sql, type Kysely, type Selectable } from 'kysely';
import { atAddress } from '../db/address.ts';
import type { Dialect } from '../db/database.ts';
import { currentVersionNumbers } from '../email-templates/store.ts';
import type { OutboxRow, Tables } from '../db/schema.ts';
import { uuidV7 } from '../db/time-ordered-id.ts';
import type { OutboxEntry, OutgoingMessage, QueuedMessage, WebhookName } from './message.ts';

// The outbox's SQL. A message is `pending` until delivered (`sent`), found to have no configured
// channel (`skipped`), or given up (`dead`). A claim is a lease: `locked_until` marks who holds it and
// until when, and `next_attempt_at` moves to the same instant, so a message whose holder crashed
// simply becomes due again when the lease runs out. Every write after a claim names the lease it
// holds, so a holder whose lease ran out and was taken over can no longer change the row (a lease
// is only ever set on a pending message, and settling clears it).

// Written into the SQL as literals, not bound: only then can the planner use the partial indexes
// (`outbox_due`, `outbox_log_dead`, …) whose condition they match.
const PENDING = sql.lit('pending');
const DEAD = sql.lit('dead');
const SENT = sql.lit('sent');
const SKIPPED = sql.lit('skipped');

/**
 * Queues messages, normally inside the transaction that writes their cause, each due at its
 * `queuedAt`. A message whose idempotency key is already queued is left as it was.
 */
export async function enqueueMessages(db: Kysely<Tables>, entries: OutboxEntry[]): Promise<void> {
  if (entries.length === 0) return;
  // An email is rendered with the template version current now, however the template changes before it is sent.
  const unversioned = entries.flatMap(({ message }) =>
    message.channel === 'email' && message.email.version === undefined ? [message.email.template] : [],
  );
  const versions = unversioned.length > 0 ? await currentVersionNumbers(db, [...new Set(unversioned)]) : undefined;
  await db
    .insertInto('outbox')
    .values(
      entries.map(({ idempotencyKey, recordId, queuedAt, message }) => ({
        id: uuidV7(),
        channel: message.channel,
        destination: message.channel === 'email' ? message.to : message.webhook,
        payload: JSON.stringify(
          message.channel === 'email'
            ? { ...message.email, version: message.email.version ?? versions?.get(message.email.template) }
            : message.content,
        ),
        idempotency_key: idempotencyKey,
        record_id: recordId ?? null,
        status: 'pending',
        next_attempt_at: queuedAt,
        created_at: queuedAt,
      })),
    )
    .onConflict((conflict) => conflict.column('idempotency_key').doNothing())
    .execute();
}

/** A claimed message and the lease that must be named to settle it. */
export interface ClaimedMessage extends QueuedMessage {
  lease: string;
}

/**
 * Takes up to `limit` due messages, oldest first, under a lease until `leaseUntil`, counting the
 * attempt. One statement on both dialects; on PostgreSQL rows another instance is claiming are
 * skipped (`FOR UPDATE SKIP LOCKED`) rather than waited for, and the due condition is checked again
 * on the locked row, so no message is handed to two instances.
 */
export async function claimDueMessages(
  db: Kysely<Tables>,
  dialect: Dialect,
  options: { now: string; leaseUntil: string; limit: number },
): Promise<ClaimedMessage[]> {
  const { now, leaseUntil, limit } = options;
  const rows = await db
    // A CTE, not `id IN (subquery)`: PostgreSQL may run such a subquery more than once, which with
    // SKIP LOCKED can claim more than `limit` rows; a CTE with FOR UPDATE is run exactly once.
    .with('due', (qb) => {
      const due = qb
        .selectFrom('outbox')
        .select('id')
        .where('status', '=', PENDING)
        .where('next_attempt_at', '<=', now)
        .orderBy('next_attempt_at')
        .limit(limit);
      return dialect === 'postgres' ? due.forUpdate().skipLocked() : due;
    })
    .updateTable('outbox')
    .set({ locked_until: leaseUntil, next_attempt_at: leaseUntil, attempts: sql<number>`attempts + 1` })
    .where('id', 'in', (eb) => eb.selectFrom('due').select('id'))
    .where('status', '=', PENDING)
    .where('next_attempt_at', '<=', now)
    .returning(['id', 'channel', 'destination', 'payload', 'idempotency_key', 'attempts'])
    .execute();
  return rows.map((row) => ({ ...toQueued(row), lease: leaseUntil }));
}

function toQueued(
  row: Pick<OutboxRow, 'id' | 'channel' | 'destination' | 'payload' | 'idempotency_key'> & { attempts: number },
): QueuedMessage {
  const payload = JSON.parse(row.payload);
  const message: OutgoingMessage =
    row.channel === 'email'
      ? { channel: 'email', to: row.destination, email: payload }
      : { channel: 'chat', webhook: row.destination as WebhookName, content: payload };
  return { id: row.id, idempotencyKey: row.idempotency_key, attempts: row.attempts, message };
}

/**
 * Which of these claimed messages are still queued under their lease, checked just before they are
 * handed to their channel: not one erased with its record (personal-data erasure) since its claim,
 * nor one whose lease ran out and another dispatcher holds now. Either way it is not this
 * dispatcher's to send.
 */
export async function stillHeldIds(db: Kysely<Tables>, claimed: { id: string; lease: string }[]): Promise<Set<string>> {
  const leases = new Map(claimed.map((message) => [message.id, message.lease]));
  const held = new Set<string>();
  for (const ids of chunks([...leases.keys()])) {
    const rows = await db.selectFrom('outbox').select(['id', 'locked_until']).where('id', 'in', ids).execute();
    for (const row of rows) if (row.locked_until === leases.get(row.id)) held.add(row.id);
  }
  return held;
}

/** Settles claimed messages as sent or skipped. Returns how many were still held under their lease. */
export async function markDelivered(
  db: Kysely<Tables>,
  settled: { id: string; lease: string; status: 'sent' | 'skipped' }[],
  now: string,
): Promise<number> {
  let updated = 0;
  // One statement per (lease, status): a claim's messages share its lease, so this is usually one or two.
  for (const group of Map.groupBy(settled, (s) => `${s.lease}\n${s.status}`).values()) {
    const { lease, status } = group[0]!;
    const result = await db
      .updateTable('outbox')
      .set({ status, sent_at: now, locked_until: null, last_error: null })
      .where(
        'id',
        'in',
        group.map((s) => s.id),
      )
      .where('locked_until', '=', lease)
      .executeTakeFirst();
    updated += Number(result.numUpdatedRows);
  }
  return updated;
}

/** A failed attempt at `at`: try again at `retryAt`, or give up (`dead`) when there is none. False if the lease was lost. */
export async function markFailed(
  db: Kysely<Tables>,
  claimed: { id: string; lease: string },
  failure: { error: string; at: string; retryAt: string | null },
): Promise<boolean> {
  const result = await db
    .updateTable('outbox')
    .set(
      failure.retryAt === null
        ? { status: 'dead', locked_until: null, last_error: failure.error, died_at: failure.at }
        : { next_attempt_at: failure.retryAt, locked_until: null, last_error: failure.error },
    )
    .where('id', '=', claimed.id)
    .where('locked_until', '=', claimed.lease)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Messages still to deliver and messages given up, for the dashboard; each count reads a partial index. */
export async function countUndelivered(db: Kysely<Tables>): Promise<{ pending: number; dead: number }> {
  const count = async (status: typeof PENDING) => {
    const row = await db
      .selectFrom('outbox')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', status)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };
  return { pending: await count(PENDING), dead: await count(DEAD) };
}

/**
 * Messages sent since `since` (by `sent_at`, a range of `outbox_sent_at`), and emails skipped for
 * want of a provider among those queued since then (by `created_at`, a range of `outbox_log_skipped`,
 * which holds the channel: a skip happens at the first attempt, moments after the queuing). Chat
 * messages skipped for an unset webhook are left out: that is a choice, not a fault (SPEC §1).
 */
export async function countDeliveredSince(db: Kysely<Tables>, since: string): Promise<{ sent: number; skipped: number }> {
  const sent = await db
    .selectFrom('outbox')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '=', SENT)
    .where('sent_at', '>=', since)
    .executeTakeFirstOrThrow();
  const skipped = await db
    .selectFrom('outbox')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '=', SKIPPED)
    .where('created_at', '>=', since)
    .where('channel', '=', 'email')
    .executeTakeFirstOrThrow();
  return { sent: Number(sent.n), skipped: Number(skipped.n) };
}

/** What waits, what was given up, and when the oldest waiting message was queued (null: none waits), for /metrics. */
export async function outboxBacklog(db: Kysely<Tables>): Promise<{ pending: number; dead: number; oldestPendingAt: string | null }> {
  // One statement, so the three figures are read from one snapshot: read apart, a message delivered
  // in between showed as nothing waiting with an oldest waiting age.
  const row = await db
    .selectNoFrom((eb) => [
      eb
        .selectFrom('outbox')
        .select((e) => e.fn.countAll<number>().as('n'))
        .where('status', '=', PENDING)
        .as('pending'),
      eb
        .selectFrom('outbox')
        .select((e) => e.fn.countAll<number>().as('n'))
        .where('status', '=', DEAD)
        .as('dead'),
      eb
        .selectFrom('outbox')
        .select((e) => e.fn.min<string>('created_at').as('at'))
        .where('status', '=', PENDING)
        .as('oldestPendingAt'),
    ])
    .executeTakeFirstOrThrow();
  return { pending: Number(row.pending), dead: Number(row.dead), oldestPendingAt: row.oldestPendingAt ?? null };
}

/**
 * Deletes up to `limit` messages kept long enough: sent and skipped ones sent before `before`, dead
 * ones that died before it. One statement per kind, each a range of its partial index
 * (`outbox_sent_at`, `outbox_skipped_at`; a dead one died after it was queued, so `outbox_log_dead`
 * up to `before`). The condition is repeated outside the subquery because PostgreSQL checks only
 * that part again on a row another transaction changed meanwhile: a dead message retried at that
 * moment is pending and stays. On PostgreSQL rows another instance is deleting are skipped.
 */
export async function deleteExpiredMessages(db: Kysely<Tables>, dialect: Dialect, before: string, limit: number): Promise<number> {
  const kinds = [
    { status: SENT, column: 'sent_at' as const },
    { status: SKIPPED, column: 'sent_at' as const },
    { status: DEAD, column: 'died_at' as const },
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
          .$if(status === DEAD, (q) => q.where('created_at', '<', before))
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

const EMAIL = sql.lit('email');

/** Ids per statement: far below SQLite's and PostgreSQL's limits on bound parameters. */
const IDS_PER_STATEMENT = 500;

function chunks(ids: string[]): string[][] {
  const out: string[][] = [];
  for (let i = 0; i < ids.length; i += IDS_PER_STATEMENT) out.push(ids.slice(i, i + IDS_PER_STATEMENT));
  return out;
}

/**
 * Every message about these records and, given an address's key, every email to that address
 * (one whose record is gone, or from before messages named their record), newest first. The
 * channel is a literal so the planner can match the partial index `outbox_address`.
 */
export async function findMessagesAbout(db: Kysely<Tables>, recordIds: string[], addressKey?: string): Promise<Selectable<OutboxRow>[]> {
  const found = new Map<string, Selectable<OutboxRow>>();
  const queries = chunks(recordIds).map((ids) => db.selectFrom('outbox').selectAll().where('record_id', 'in', ids));
  if (addressKey !== undefined)
    queries.push(db.selectFrom('outbox').selectAll().where('channel', '=', EMAIL).where(atAddress('destination', addressKey)));
  for (const query of queries) for (const row of await query.execute()) found.set(row.id, row);
  return [...found.values()].sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id));
}

/**
 * Erases what findMessagesAbout finds, delivered or not (personal-data erasure); how many. A
 * message a dispatcher has claimed is not sent once erased (stillHeldIds).
 */
export async function deleteMessagesAbout(db: Kysely<Tables>, recordIds: string[], addressKey?: string): Promise<number> {
  const statements = chunks(recordIds).map((ids) => db.deleteFrom('outbox').where('record_id', 'in', ids));
  if (addressKey !== undefined)
    statements.push(db.deleteFrom('outbox').where('channel', '=', EMAIL).where(atAddress('destination', addressKey)));
  let deleted = 0;
  for (const statement of statements) deleted += Number((await statement.executeTakeFirst()).numDeletedRows);
  return deleted;
}
