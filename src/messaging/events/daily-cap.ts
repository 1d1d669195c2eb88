import { sql, type Kysely } from 'kysely';
import { canonicalAddressSql } from '../../db/address.ts';
import type { Tables } from '../../db/schema.ts';
import { canonicalAddress } from '../../text/canonical-address.ts';
import type { OutboxEntry } from '../outbox/message.ts';

/**
 * The emails a public form causes (a reservation's confirmation: a stranger can make the shop send
 * one to any address) go to one address at most `perDay` times in 24 hours; past that, the record is
 * still stored and the email is queued as `skipped` with CAP_REASON, so staff see why in the message
 * log and nobody's mailbox is flooded in the shop's name. 0 turns the cap off. Addresses count in
 * their canonical form (text/canonical-address.ts), so +tags and gmail's dots make no new mailbox.
 */
export const CAP_REASON = 'not sent: EMAILS_PER_ADDRESS_PER_DAY reached for this address in the last 24 hours';

const DAY_MS = 86_400_000;

/** A literal, so the planner can match the partial index `outbox_customer`. */
const EMAIL = sql.lit('email');

/** The idempotency keys of the emails public forms cause (events/reservations.ts). */
const FORM_EMAIL_KEY = 'reservation/%/confirmation-email';

export async function capFormEmails(trx: Kysely<Tables>, entries: OutboxEntry[], perDay: number, now: Date): Promise<OutboxEntry[]> {
  const emails = entries.filter((entry) => entry.message.channel === 'email');
  if (perDay === 0 || emails.length === 0) return entries;
  const addresses = [...new Set(emails.map((entry) => address(entry)))];
  // Counted by the address as stored and summed here under its canonical form: the canonical
  // expression, long, is written once (where the index is matched), not thrice, which on
  // PostgreSQL halves the statement's parsing and planning, the most of its cost.
  const rows = await trx
    .selectFrom('outbox')
    .select(['destination', (eb) => eb.fn.countAll<number>().as('sent')])
    .where('channel', '=', EMAIL)
    .where(canonicalAddressSql('destination'), 'in', addresses)
    .where('created_at', '>=', new Date(now.getTime() - DAY_MS).toISOString())
    .where('idempotency_key', 'like', FORM_EMAIL_KEY)
    .where((eb) => eb.or([eb('status', '!=', 'skipped'), eb('last_error', 'is', null), eb('last_error', '!=', CAP_REASON)]))
    .groupBy('destination')
    .execute();
  const sent = new Map<string, number>();
  for (const row of rows) {
    const key = canonicalAddress(row.destination);
    sent.set(key, (sent.get(key) ?? 0) + Number(row.sent));
  }
  return entries.map((entry) => {
    if (entry.message.channel !== 'email') return entry;
    const to = address(entry);
    const count = sent.get(to) ?? 0;
    sent.set(to, count + 1);
    return count < perDay ? entry : { ...entry, skippedBecause: CAP_REASON };
  });
}

function address(entry: OutboxEntry): string {
  return entry.message.channel === 'email' ? canonicalAddress(entry.message.to) : '';
}
