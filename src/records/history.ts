import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Tables } from '../db/schema.ts';
import { MESSAGE_CHANNELS, MESSAGE_STATUSES, type MessageChannel, type MessageStatus } from '../db/schema.ts';
import { insertHistory, type HistoryRow, type NewHistoryRow } from './history-store.ts';
import type { RecordColumns } from './record-rows.ts';

// A record's history: what is written with each change (and each retry of one of its messages),
// and how it reads in an answer, with the record's messages as they stand now.

/**
 * Who made a change: the customer (their own page or link), or the shop's staff: a signed-in
 * account (its id), or the bearer token (null: a script's, no one's account).
 */
export type ChangedBy = { actor: 'customer' } | { actor: 'staff'; staffId: string | null };

export const BY_CUSTOMER: ChangedBy = { actor: 'customer' };

export function byStaff(staffId: string | null): ChangedBy {
  return { actor: 'staff', staffId };
}

/** The columns that say who made a change. */
function whoColumns(by: ChangedBy): { actor: string; staff_id: string | null } {
  return { actor: by.actor, staff_id: by.actor === 'staff' ? by.staffId : null };
}

const Who = {
  staffId: z.string().nullable().describe('The staff account that made it; null for the customer, the bearer token, and a message'),
  staffName: z.string().nullable().describe('That account’s name (as it is now); null with staffId'),
};

const Said = {
  at: z.string().describe('When, as the record’s updatedAt was set by the change'),
  actor: z
    .enum(['staff', 'customer'])
    .describe('staff: the admin API or console; customer: their own reservation page or unsubscribe link'),
  ...Who,
};

export const HistoryEntrySchema = z
  .discriminatedUnion('type', [
    z.object({
      type: z.literal('status'),
      ...Said,
      from: z.string(),
      to: z.string(),
      customerEmailed: z
        .boolean()
        .nullable()
        .describe('Whether the move queued the customer’s email; null for a kind that emails nothing on a move'),
    }),
    z.object({ type: z.literal('memo'), ...Said, before: z.string(), after: z.string() }),
    z.object({ type: z.literal('archived'), ...Said }),
    z.object({ type: z.literal('unarchived'), ...Said }),
    z.object({
      type: z.literal('message'),
      at: z.string().describe('When it was queued'),
      messageId: z.string(),
      channel: z.enum(MESSAGE_CHANNELS),
      kind: z.string().describe("The template kind of an email; the webhook's name for chat"),
      status: z.enum(MESSAGE_STATUSES).describe('As it stands now (the message log’s status)'),
      attempts: z.number().int(),
      sentAt: z.string().nullable(),
      to: z.string().describe("The address of an email; the webhook's name for chat (an extension, as the message log shows it)"),
      lastError: z.string().nullable().describe('Why its last attempt failed (an extension, as the message log shows it)'),
      ...Who,
    }),
    z.object({
      type: z.literal('retry'),
      ...Said,
      at: z.string().describe('When staff sent the message again'),
      messageId: z.string().describe('The given-up message sent again'),
    }),
  ])
  .meta({ id: 'HistoryEntry' });

export type HistoryEntry = z.output<typeof HistoryEntrySchema>;

/** The memo of a kind that has one (reservations' notes); undefined for one that has none. */
function notesOf(row: RecordColumns): string | undefined {
  const notes: unknown = (row as RecordColumns & { notes?: unknown }).notes;
  return typeof notes === 'string' ? notes : undefined;
}

/**
 * Writes a status request's change in its transaction: the move, the memo edit, or both in one row.
 * Nothing when the request changed nothing (a repeated request: the record kept its updatedAt).
 */
export async function recordStatusChange(
  trx: Kysely<Tables>,
  before: RecordColumns,
  after: RecordColumns,
  how: { by: ChangedBy; customerEmailed?: boolean },
): Promise<void> {
  if (after.updated_at === before.updated_at) return;
  const [notesBefore, notesAfter] = [notesOf(before), notesOf(after)];
  const memoEdited = notesBefore !== notesAfter;
  await insertHistory(trx, [
    {
      record_id: after.id,
      at: after.updated_at,
      ...whoColumns(how.by),
      action: 'change',
      from_status: before.status,
      to_status: after.status,
      customer_emailed: how.customerEmailed === undefined ? null : Number(how.customerEmailed),
      notes_before: memoEdited ? (notesBefore ?? '') : null,
      notes_after: memoEdited ? (notesAfter ?? '') : null,
    },
  ]);
}

/** Writes status moves made outside a status request (the restock send, an unsubscribe link) in their transaction. */
export async function recordMoves(
  trx: Kysely<Tables>,
  moves: { id: string; from: string; to: string; at: string; customerEmailed: boolean | null }[],
  by: ChangedBy,
): Promise<void> {
  await insertHistory(
    trx,
    moves.map((move): NewHistoryRow => ({
      record_id: move.id,
      at: move.at,
      ...whoColumns(by),
      action: 'change',
      from_status: move.from,
      to_status: move.to,
      customer_emailed: move.customerEmailed === null ? null : Number(move.customerEmailed),
      notes_before: null,
      notes_after: null,
    })),
  );
}

/** Writes, in their transaction, that staff sent these given-up messages about these records again at `at`. */
export async function recordRetries(
  trx: Kysely<Tables>,
  retries: { recordId: string; messageId: string }[],
  at: string,
  by: ChangedBy,
): Promise<void> {
  await insertHistory(
    trx,
    retries.map(({ recordId, messageId }): NewHistoryRow => ({
      record_id: recordId,
      at,
      ...whoColumns(by),
      action: 'retry',
      from_status: null,
      to_status: null,
      customer_emailed: null,
      notes_before: null,
      notes_after: null,
      message_id: messageId,
    })),
  );
}

/** Writes, in their transaction, that these records were archived or restored at `at`. */
export async function recordArchiving(
  trx: Kysely<Tables>,
  ids: string[],
  action: 'archive' | 'unarchive',
  at: string,
  by: ChangedBy,
): Promise<void> {
  await insertHistory(
    trx,
    ids.map((id): NewHistoryRow => ({
      record_id: id,
      at,
      ...whoColumns(by),
      action,
      from_status: null,
      to_status: null,
      customer_emailed: null,
      notes_before: null,
      notes_after: null,
    })),
  );
}

/** A message about the record as staff see it (messaging's LoggedMessage is this and the record's id). */
export interface RecordMessage {
  id: string;
  channel: MessageChannel;
  /** The template kind of an email; the webhook's name for a chat message. */
  kind: string;
  /** The address of an email; the webhook's name for a chat message. */
  to: string;
  status: MessageStatus;
  attempts: number;
  lastError: string | null;
  createdAt: string;
  sentAt: string | null;
}

/**
 * Stored rows and the record's messages as the answer's entries, oldest first: a change that moved
 * and edited the memo is two entries, the move first; a message at the time it was queued, after
 * the change that queued it. `staffNames` names the accounts the rows name.
 */
export function historyEntries(rows: HistoryRow[], messages: RecordMessage[], staffNames: ReadonlyMap<string, string>): HistoryEntry[] {
  const changes = rows.flatMap((row) => changeEntries(row, staffNames));
  const inOrder = [...messages].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  const sent = inOrder.map((message): HistoryEntry => ({
    type: 'message',
    at: message.createdAt,
    messageId: message.id,
    channel: message.channel,
    kind: message.kind,
    status: message.status,
    attempts: message.attempts,
    sentAt: message.sentAt,
    to: message.to,
    lastError: message.lastError,
    staffId: null,
    staffName: null,
  }));
  // A stable sort of the changes then the messages: at the same time, the change comes first.
  return [...changes, ...sent].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
}

function changeEntries(row: HistoryRow, staffNames: ReadonlyMap<string, string>): HistoryEntry[] {
  const said = {
    at: row.at,
    actor: row.actor === 'customer' ? ('customer' as const) : ('staff' as const),
    staffId: row.staff_id,
    staffName: row.staff_id === null ? null : (staffNames.get(row.staff_id) ?? null),
  };
  if (row.action === 'archive') return [{ type: 'archived', ...said }];
  if (row.action === 'unarchive') return [{ type: 'unarchived', ...said }];
  if (row.action === 'retry') return [{ type: 'retry', ...said, messageId: row.message_id ?? '' }];
  const entries: HistoryEntry[] = [];
  if (row.from_status !== row.to_status) {
    const customerEmailed = row.customer_emailed === null ? null : row.customer_emailed === 1;
    entries.push({ type: 'status', ...said, from: row.from_status ?? '', to: row.to_status ?? '', customerEmailed });
  }
  if (row.notes_after !== null) entries.push({ type: 'memo', ...said, before: row.notes_before ?? '', after: row.notes_after });
  return entries;
}
