import type { Kysely } from 'kysely';
import type { Tables } from '../db/schema.ts';
import { DEAD, PENDING, SENT, SKIPPED, SUPERSEDED } from './outbox/store.ts';
import { countComplaintsAbout, eventCountsSince } from './reputation/store.ts';

// How many messages wait, were given up, were delivered or superseded: the dashboard's and /metrics' figures.

/** The dashboard's message figures: what waits and was given up now, what was sent, skipped or superseded since `since`. */
export async function messageFigures(
  db: Kysely<Tables>,
  since: string,
): Promise<{ pending: number; dead: number; sent: number; skipped: number; superseded: number }> {
  return { ...(await countUndelivered(db)), ...(await countDeliveredSince(db, since)) };
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
 * Messages sent since `since` (by `sent_at`, a range of `outbox_sent_at`), emails skipped for want
 * of a provider among those queued since then (by `created_at`, a range of `outbox_log_skipped`,
 * which holds the channel: a skip happens at the first attempt, moments after the queuing), and
 * messages superseded among those queued since then (a range of `outbox_log_superseded`). Chat
 * messages skipped for an unset webhook are left out: that is a choice, not a fault.
 */
export async function countDeliveredSince(
  db: Kysely<Tables>,
  since: string,
): Promise<{ sent: number; skipped: number; superseded: number }> {
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
  const superseded = await db
    .selectFrom('outbox')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '=', SUPERSEDED)
    .where('created_at', '>=', since)
    .executeTakeFirstOrThrow();
  return { sent: Number(sent.n), skipped: Number(skipped.n), superseded: Number(superseded.n) };
}

/** What waits to be delivered, what was given up or superseded (kept until retention), and when the oldest waiting message was queued (null: none waits), for /metrics. */
export async function outboxBacklog(
  db: Kysely<Tables>,
): Promise<{ pending: number; dead: number; superseded: number; oldestPendingAt: string | null }> {
  // One statement, so the figures are read from one snapshot: read apart, a message delivered
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
        .select((e) => e.fn.countAll<number>().as('n'))
        .where('status', '=', SUPERSEDED)
        .as('superseded'),
      eb
        .selectFrom('outbox')
        .select((e) => e.fn.min<string>('created_at').as('at'))
        .where('status', '=', PENDING)
        .as('oldestPendingAt'),
    ])
    .executeTakeFirstOrThrow();
  return {
    pending: Number(row.pending),
    dead: Number(row.dead),
    superseded: Number(row.superseded),
    oldestPendingAt: row.oldestPendingAt ?? null,
  };
}

/** The complaint rate above which Gmail and Yahoo throttle and block a sender (their 2024 sender rules). */
export const COMPLAINT_RATE_LIMIT = 0.003;

const RESTOCK = 'restock-available';

/**
 * What the shop's mail did to its sender reputation since `since`: bounces and complaints, and the
 * complaint rate of restock mail (complaints about restock emails over restock emails sent), null
 * when none was sent, beside the 0.3 % mailbox providers allow.
 */
export async function deliverabilityFigures(db: Kysely<Tables>, since: string) {
  const events = await eventCountsSince(db, since);
  const restockComplaints = await countComplaintsAbout(db, since, RESTOCK);
  const sent = await db
    .selectFrom('outbox')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '=', SENT)
    .where('sent_at', '>=', since)
    .where('payload', 'like', `%"template":"${RESTOCK}"%`)
    .executeTakeFirstOrThrow();
  const restockSent = Number(sent.n);
  return {
    hardBounces: events.get('hard_bounce') ?? 0,
    softBounces: events.get('soft_bounce') ?? 0,
    complaints: events.get('complaint') ?? 0,
    restockSent,
    restockComplaints,
    restockComplaintRate: restockSent === 0 ? null : restockComplaints / restockSent,
    complaintRateLimit: COMPLAINT_RATE_LIMIT,
  };
}
