import type { Kysely } from 'kysely';
import type { Tables } from '../../db/schema.ts';
import { uuidV7 } from '../../db/time-ordered-id.ts';
import type { TemplateKind } from '../kinds.ts';
import { addressKey, keysOf } from './address-key.ts';
import { countEventsSince, insertEvent, markRetried, suppress, suppressionsOf, type EmailEventKind } from './store.ts';

// The rules of the shop's sender reputation. A hard bounce or a complaint suppresses the address at
// once; soft bounces (a full mailbox, a server down) do when there are three within seven days. A
// suppressed address gets no email, except that an email the customer's own action causes right
// then (the confirmation of the reservation they just made) is tried once when the hard bounce is
// older than 30 days: the mailbox may be back, and they are waiting for it.

export const SOFT_BOUNCES_TO_SUPPRESS = 3;
const DAY_MS = 24 * 60 * 60_000;
const SOFT_BOUNCE_WINDOW_MS = 7 * DAY_MS;
const HARD_BOUNCE_RETRY_AFTER_MS = 30 * DAY_MS;

/** The emails the customer's own action causes right then. */
const CAUSED_BY_CUSTOMER: ReadonlySet<TemplateKind> = new Set(['reservation-received']);

/** An event said of a sent email: by the provider (signed, with its id and timestamp), or found by the service. */
export interface EmailEvent {
  outboxId: string;
  /** The recipient as the message was addressed. */
  to: string;
  kind: EmailEventKind;
  occurredAt: string;
  detail?: string;
  webhook?: { id: string; timestamp: string };
}

/** What the complaint of an address does besides suppressing it (every restock signup of it unsubscribed), in the same transaction. */
export type OnComplaint = (db: Kysely<Tables>, address: string, at: string) => Promise<void>;

const MAX_DETAIL_LENGTH = 500;

/**
 * Records an event and applies its rule, in the caller's transaction. A signed event already
 * recorded changes nothing: `duplicate`, with the timestamp it was first delivered with.
 */
export async function recordEmailEvent(
  db: Kysely<Tables>,
  event: EmailEvent,
  options: { now: string; onComplaint: OnComplaint },
): Promise<{ recorded: true } | { recorded: false; firstTimestamp: string | null }> {
  const address = addressKey(event.to);
  const outcome = await insertEvent(db, {
    id: uuidV7(),
    webhook_id: event.webhook?.id ?? null,
    webhook_timestamp: event.webhook?.timestamp ?? null,
    outbox_id: event.outboxId,
    address,
    kind: event.kind,
    occurred_at: event.occurredAt,
    recorded_at: options.now,
    detail: event.detail?.slice(0, MAX_DETAIL_LENGTH) ?? null,
  });
  if (!outcome.recorded) return outcome;
  if (event.kind === 'hard_bounce') await suppress(db, address, 'hard_bounce', event.occurredAt);
  if (event.kind === 'complaint') {
    await suppress(db, address, 'complaint', event.occurredAt);
    await options.onComplaint(db, address, options.now);
  }
  if (event.kind === 'soft_bounce') await suppressAfterSoftBounces(db, address, event.occurredAt);
  return outcome;
}

/** An SMTP server's 5xx to RCPT for the recipient of this message: a hard bounce, found by the service itself. */
export async function recordRefusedRecipient(
  db: Kysely<Tables>,
  refused: { outboxId: string; to: string; at: string; detail: string },
): Promise<void> {
  await recordEmailEvent(
    db,
    { outboxId: refused.outboxId, to: refused.to, kind: 'hard_bounce', occurredAt: refused.at, detail: refused.detail },
    { now: refused.at, onComplaint: NO_COMPLAINT },
  );
}

/** A hard bounce is no complaint: what a complaint does is never asked for one. */
const NO_COMPLAINT: OnComplaint = async () => {
  throw new Error('a hard bounce is no complaint');
};

/** Suppresses the address at its third soft bounce within seven days, counting none from before a lift. */
async function suppressAfterSoftBounces(db: Kysely<Tables>, address: string, at: string): Promise<void> {
  const [current] = await suppressionsOf(db, [address]);
  if (current && current.lifted_at === null) return;
  const windowStart = new Date(Date.parse(at) - SOFT_BOUNCE_WINDOW_MS).toISOString();
  const since = current?.lifted_at && current.lifted_at > windowStart ? current.lifted_at : windowStart;
  if ((await countEventsSince(db, address, 'soft_bounce', since)) >= SOFT_BOUNCES_TO_SUPPRESS)
    await suppress(db, address, 'soft_bounces', at);
}

/**
 * Which of these emails about to go are to a suppressed address (by the address or, its customer
 * erased, its keyed hash). One read for all of them; an email let through by the 30-day exception
 * marks its suppression as retried, so it is let through once.
 */
export async function suppressedAmong(
  db: Kysely<Tables>,
  emails: { id: string; to: string; kind: TemplateKind }[],
  options: { secret: string; now: Date },
): Promise<Set<string>> {
  if (emails.length === 0) return new Set();
  const keyed = emails.map((email) => ({ ...email, keys: keysOf(options.secret, email.to) }));
  const rows = await suppressionsOf(db, [...new Set(keyed.flatMap((email) => email.keys))]);
  const inForce = new Map(rows.filter((row) => row.lifted_at === null).map((row) => [row.address, row]));
  const suppressed = new Set<string>();
  const retried = new Set<string>();
  const retryBefore = new Date(options.now.getTime() - HARD_BOUNCE_RETRY_AFTER_MS).toISOString();
  for (const email of keyed) {
    const found = email.keys.flatMap((key) => inForce.get(key) ?? []);
    if (found.length === 0) continue;
    const once =
      CAUSED_BY_CUSTOMER.has(email.kind) &&
      found.every((row) => row.reason === 'hard_bounce' && row.since < retryBefore && row.retried_at === null && !retried.has(row.address));
    if (once) {
      for (const row of found) retried.add(row.address);
      continue;
    }
    suppressed.add(email.id);
  }
  await markRetried(db, [...retried], options.now.toISOString());
  return suppressed;
}
