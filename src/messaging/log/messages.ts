import type { Database } from '../../db/database.ts';
import { LEGACY_KINDS } from '../templates/facts.ts';
import { DEFAULT_PAGE_SIZE, pageWindow, paging, type Paging } from '../../records/lists.ts';
import { listMessageRows, type LoggedRow, type MessageChannel, type MessageFilter, type MessageStatus } from './store.ts';

// The message log: what the outbox sent, is sending, skipped or gave up, as staff read it.

/** One message as the log shows it: whom it went to, never what it said, and never a webhook's URL. */
export interface LoggedMessage {
  id: string;
  recordId: string | null;
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
