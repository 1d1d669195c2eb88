import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import type { OutboxRow, Tables } from '../../db/schema.ts';
import { atAddress } from '../../db/address.ts';
import { uuidV7 } from '../../db/time-ordered-id.ts';
import { currentVersionNumbers } from '../templates/store.ts';
import type { OutboxEntry, OutgoingMessage, QueuedMessage, WebhookName } from './message.ts';

// The outbox's SQL. A message is `pending` until delivered (`sent`), found to have no configured
// channel (`skipped`), found no longer true of its record (`superseded`: standing.ts), or given up
// (`dead`). A claim is a lease: `locked_until` marks who holds it and
// until when, and `next_attempt_at` moves to the same instant, so a message whose holder crashed
// simply becomes due again when the lease runs out. Every write after a claim names the lease it
// holds, so a holder whose lease ran out and was taken over can no longer change the row (a lease
// is only ever set on a pending message, and settling clears it).

// Written into the SQL as literals, not bound: only then can the planner use the partial indexes
// (`outbox_due`, `outbox_log_dead`, …) whose condition they match.
export const PENDING = sql.lit('pending');
export const DEAD = sql.lit('dead');
export const SENT = sql.lit('sent');
export const SKIPPED = sql.lit('skipped');
export const SUPERSEDED = sql.lit('superseded');

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
      entries.map(({ idempotencyKey, recordId, queuedAt, message, skippedBecause }) => ({
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
        status: skippedBecause === undefined ? 'pending' : 'skipped',
        next_attempt_at: queuedAt,
        created_at: queuedAt,
        ...(skippedBecause === undefined ? {} : { last_error: skippedBecause, sent_at: queuedAt }),
      })),
    )
    .onConflict((conflict) => conflict.column('idempotency_key').doNothing())
    .execute();
}

/** Why an email a public form caused was queued `skipped`: its address had had its day's emails. */
export const CAP_REASON = 'not sent: EMAILS_PER_ADDRESS_PER_DAY reached for this address in the last 24 hours';

/** A literal, so the planner can match the partial index `outbox_customer`. */
const EMAIL = sql.lit('email');

/**
 * How many emails whose idempotency key is like `keyLike` were queued since `since` to the address
 * whose canonical form is `address` (any spelling of it), not counting those the cap skipped.
 */
export async function emailsQueuedTo(db: Kysely<Tables>, address: string, keyLike: string, since: string): Promise<number> {
  const row = await db
    .selectFrom('outbox')
    .select((eb) => eb.fn.countAll<number>().as('queued'))
    .where('channel', '=', EMAIL)
    .where(atAddress('destination', address))
    .where('created_at', '>=', since)
    .where('idempotency_key', 'like', keyLike)
    .where((eb) => eb.or([eb('status', '!=', 'skipped'), eb('last_error', 'is', null), eb('last_error', '!=', CAP_REASON)]))
    .executeTakeFirstOrThrow();
  return Number(row.queued);
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
 * How a claimed message ends without failing: sent, skipped (no channel configured), superseded
 * (untrue now, not sent) or suppressed (an email to an address that gets none: kept as `skipped`
 * with the reason `suppressed`).
 */
export type Settlement = 'sent' | 'skipped' | 'superseded' | 'suppressed';

/** Why a message skipped for its suppressed address was not sent (its `last_error`). */
export const SUPPRESSED_REASON = 'suppressed';

/**
 * Settles claimed messages: sent and skipped ones at `now` (`sent_at`; a sent email with the id the
 * provider gave it), superseded ones found so at `now` (`died_at`: they were never sent). Returns
 * how many were still held under their lease.
 */
export async function markSettled(
  db: Kysely<Tables>,
  settled: { id: string; lease: string; status: Settlement; providerMessageId?: string }[],
  now: string,
): Promise<number> {
  let updated = 0;
  // One statement per (lease, status): a claim's messages share its lease, so this is usually one or two.
  for (const group of Map.groupBy(settled, (s) => `${s.lease}\n${s.status}`).values()) {
    const { lease, status } = group[0]!;
    const named = group.filter((s) => s.providerMessageId !== undefined);
    const result = await db
      .updateTable('outbox')
      .set({
        ...settledColumns(status, now),
        ...(named.length > 0
          ? {
              provider_message_id: sql<string>`case ${sql.join(
                named.map((s) => sql`when id = ${s.id} then ${s.providerMessageId}`),
                sql` `,
              )} else provider_message_id end`,
            }
          : {}),
      })
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

function settledColumns(status: Settlement, now: string) {
  if (status === 'superseded') return { status, locked_until: null, last_error: null, died_at: now };
  if (status === 'suppressed') return { status: 'skipped', locked_until: null, last_error: SUPPRESSED_REASON, sent_at: now };
  return { status, locked_until: null, last_error: null, sent_at: now };
}

/** The email the provider knows by this id, with its recipient. */
export async function emailByProviderId(db: Kysely<Tables>, providerMessageId: string): Promise<{ id: string; to: string } | undefined> {
  const row = await db
    .selectFrom('outbox')
    .select(['id', 'destination'])
    .where('provider_message_id', '=', providerMessageId)
    .where('channel', '=', sql.lit('email'))
    .executeTakeFirst();
  return row && { id: row.id, to: row.destination };
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

/** Ids per statement: far below SQLite's and PostgreSQL's limits on bound parameters. */
const IDS_PER_STATEMENT = 500;

export function chunks(ids: string[]): string[][] {
  const out: string[][] = [];
  for (let i = 0; i < ids.length; i += IDS_PER_STATEMENT) out.push(ids.slice(i, i + IDS_PER_STATEMENT));
  return out;
}
