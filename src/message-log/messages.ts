import type { Database } from '../db/database.ts';
import { LEGACY_KINDS } from '../email-templates/facts.ts';
import { DEFAULT_PAGE_SIZE, pageWindow, paging, type Paging } from '../records/lists.ts';
import { isStorable } from '../records/storable-text.ts';
import {
  existingMessageIds,
  listMessageRows,
  requeueDead,
  type LoggedRow,
  type MessageChannel,
  type MessageFilter,
  type MessageStatus,
} from './store.ts';

// The message log (SPEC §6.5): what the outbox sent, is sending, skipped or gave up, and sending
// again what it gave up.

/** One message as the log shows it: whom it went to, never what it said, and never a webhook's URL. */
export interface LoggedMessage {
  id: string;
  recordId: string | null;
  channel: MessageChannel;
  /** The template kind of an email; the webhook's name for a chat message (SPEC §6.6). */
  kind: string;
  /** The address of an email; the webhook's name for a chat message. */
  to: string;
  status: MessageStatus;
  attempts: number;
  lastError: string | null;
  createdAt: string;
  sentAt: string | null;
}

export interface MessagePage extends Paging {
  messages: LoggedMessage[];
}

/** One page of the log, newest first. */
export async function listMessages(
  database: Database,
  request: MessageFilter & { page?: number; pageSize?: number },
): Promise<MessagePage> {
  const page = request.page ?? 1;
  const pageSize = request.pageSize ?? DEFAULT_PAGE_SIZE;
  const { recordId, status, channel } = request;
  const { rows, total } = await listMessageRows(database.db, { recordId, status, channel }, pageWindow(page, pageSize));
  return { messages: rows.map(loggedMessage), ...paging(total, page, pageSize) };
}

/** A stored outbox row as the log (and a personal-data export) shows it. */
export function loggedMessage(row: LoggedRow): LoggedMessage {
  const channel = row.channel as MessageChannel;
  return {
    id: row.id,
    recordId: row.record_id,
    channel,
    kind: channel === 'email' ? emailKind(row.payload) : row.destination,
    to: row.destination,
    status: row.status as MessageStatus,
    attempts: row.attempts,
    lastError: row.last_error,
    createdAt: row.created_at,
    sentAt: row.sent_at,
  };
}

/** An email's template kind, under its current name for emails queued before templates were editable. */
function emailKind(payload: string): string {
  const { template } = JSON.parse(payload) as { template: string };
  return LEGACY_KINDS[template] ?? template;
}

export interface RetryOutcome {
  retriedIds: string[];
  errors: { id: string; error: string }[];
}

/**
 * Puts dead messages back in the queue, each on its own terms as in bulk archive: an item that is
 * not an id, names no message or names one that is not dead is reported, the others are retried.
 * Naming a message twice retries it once and reports the second as not dead.
 */
export async function retryMessages(database: Database, items: unknown[], now: string): Promise<RetryOutcome> {
  const ids = items.filter(isMessageId);
  const retried = new Set(await requeueDead(database.db, [...new Set(ids)], now));
  const existing = await existingMessageIds(
    database.db,
    ids.filter((id) => !retried.has(id)),
  );
  const outcome: RetryOutcome = { retriedIds: [], errors: [] };
  const done = new Set<string>();
  for (const item of items) {
    if (!isMessageId(item)) {
      outcome.errors.push({ id: typeof item === 'string' ? item : '', error: 'Invalid item' });
    } else if (retried.has(item) && !done.has(item)) {
      done.add(item);
      outcome.retriedIds.push(item);
    } else {
      outcome.errors.push({ id: item, error: retried.has(item) || existing.has(item) ? 'Message is not dead' : 'Message not found' });
    }
  }
  return outcome;
}

/** A non-empty string that can be looked up (see isStorable). */
const isMessageId = (item: unknown): item is string => typeof item === 'string' && item !== '' && isStorable(item);
