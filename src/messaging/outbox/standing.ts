import { sql, type Kysely } from 'kysely';
import type { Tables } from '../../db/schema.ts';
import { recordStatuses } from '../../records/store.ts';
import { statusAnnouncedBy, type TemplateKind } from '../kinds.ts';
import { suppressedAmong } from '../reputation/suppression.ts';
import { LEGACY_KINDS } from '../templates/facts.ts';
import { chunks } from './store.ts';

// Whether a queued message may still go, asked right before every delivery attempt and when staff
// send a given-up one again. Erased with its record, or leased by another dispatcher now: `withdrawn`.
// Untrue since it was queued, so never sent (`superseded`): a reservation's first email once it is
// cancelled or a later one is queued; a status email once the reservation left that status or a
// later one is queued; a restock email once unsubscribed; any email about a record that is gone.
// Chat notices, the shop's own record, are never superseded. An email still true to an address
// suppressed by a bounce or a complaint (reputation/) is `suppressed`.

/** Where a message stands now: deliver it, or not (withdrawn, superseded, suppressed). */
export type Standing = 'deliver' | 'withdrawn' | 'superseded' | 'suppressed';

const EMAIL = sql.lit('email');

/** A message as the check reads it: its lease, status and record, and whether a later email about that record is queued. */
interface MessageFacts {
  id: string;
  lockedUntil: string | null;
  status: string;
  /** The address of an email, the webhook's name of a chat notice. */
  destination: string;
  /** The email's template kind; undefined for chat. */
  kind: TemplateKind | undefined;
  recordId: string | null;
  laterEmail: boolean;
}

/** The facts of each message among `ids` that is still in the outbox, and the status of each record they name. */
async function readFacts(db: Kysely<Tables>, ids: string[]): Promise<{ messages: MessageFacts[]; records: Map<string, string> }> {
  const messages: MessageFacts[] = [];
  for (const batch of chunks(ids)) {
    const rows = await db
      .selectFrom('outbox as o')
      .select(['o.id', 'o.locked_until', 'o.status', 'o.channel', 'o.destination', 'o.payload', 'o.record_id'])
      .select((eb) =>
        eb
          .exists(
            eb
              .selectFrom('outbox as later')
              .select('later.id')
              .whereRef('later.record_id', '=', 'o.record_id')
              .where('later.channel', '=', EMAIL)
              .where((w) =>
                w.or([
                  w('later.created_at', '>', w.ref('o.created_at')),
                  w.and([w('later.created_at', '=', w.ref('o.created_at')), w('later.id', '>', w.ref('o.id'))]),
                ]),
              ),
          )
          .as('later_email'),
      )
      .where('o.id', 'in', batch)
      .execute();
    for (const row of rows)
      messages.push({
        id: row.id,
        lockedUntil: row.locked_until,
        status: row.status,
        destination: row.destination,
        kind: row.channel === 'email' ? emailKind(row.payload) : undefined,
        recordId: row.record_id,
        // SQLite answers EXISTS with 0 or 1, PostgreSQL with a boolean.
        laterEmail: Boolean(row.later_email),
      });
  }
  const about = messages.flatMap((m) => (m.kind !== undefined && m.recordId !== null ? [m.recordId] : []));
  return { messages, records: about.length > 0 ? await recordStatuses(db, [...new Set(about)]) : new Map() };
}

/** An email's template kind, under its current name for emails queued before templates were editable. */
function emailKind(payload: string): TemplateKind {
  const { template } = JSON.parse(payload) as { template: string };
  return (LEGACY_KINDS[template] ?? template) as TemplateKind;
}

/** Whether the message is no longer true of its record (see the rules above). */
function isSuperseded(message: MessageFacts, records: Map<string, string>): boolean {
  if (message.kind === undefined || message.recordId === null) return false;
  const status = records.get(message.recordId);
  if (status === undefined) return true;
  if (message.kind === 'restock-available') return status === 'unsubscribed';
  if (message.laterEmail) return true;
  if (message.kind === 'reservation-received') return status === 'cancelled';
  return status !== statusAnnouncedBy(message.kind);
}

/**
 * Where each of these claimed messages stands now, for the dispatcher about to send them: withdrawn
 * when it is gone or held under another lease, superseded when untrue, suppressed when an email to
 * an address that gets none, deliver otherwise. Three statements for any number of messages (the
 * outbox, the records they name, the suppressions of the emails' addresses).
 */
export async function standingsOf(
  db: Kysely<Tables>,
  claimed: { id: string; lease: string }[],
  suppression: { secret: string; now: Date },
): Promise<Map<string, Standing>> {
  const { messages, records } = await readFacts(
    db,
    claimed.map((message) => message.id),
  );
  const leases = new Map(claimed.map((message) => [message.id, message.lease]));
  const standings = new Map<string, Standing>(claimed.map((message) => [message.id, 'withdrawn']));
  const emails: { id: string; to: string; kind: TemplateKind }[] = [];
  for (const message of messages) {
    if (message.lockedUntil !== leases.get(message.id)) continue;
    const superseded = isSuperseded(message, records);
    standings.set(message.id, superseded ? 'superseded' : 'deliver');
    if (!superseded && message.kind !== undefined) emails.push({ id: message.id, to: message.destination, kind: message.kind });
  }
  for (const id of await suppressedAmong(db, emails, suppression)) standings.set(id, 'suppressed');
  return standings;
}

/** The messages among `ids` as they stand, for staff's retry: each one's status, and whether it is untrue now. */
export async function messagesAsTheyStand(
  db: Kysely<Tables>,
  ids: string[],
): Promise<Map<string, { status: string; superseded: boolean }>> {
  const { messages, records } = await readFacts(db, ids);
  return new Map(messages.map((message) => [message.id, { status: message.status, superseded: isSuperseded(message, records) }]));
}
