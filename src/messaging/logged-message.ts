import type { Selectable } from 'kysely';
import { z } from 'zod';
import { MESSAGE_CHANNELS, MESSAGE_STATUSES, type MessageChannel, type MessageStatus, type OutboxRow } from '../db/schema.ts';
import type { RecordMessage } from '../records/history.ts';
import { LEGACY_KINDS } from './templates/facts.ts';

// A message as staff read it, in the message log and in a customer's personal-data export: whom it
// went to and how its delivery stands, never what it said, and never a webhook's URL.

export { MESSAGE_CHANNELS, MESSAGE_STATUSES, type MessageChannel, type MessageStatus };

/** One message as staff see it. */
export interface LoggedMessage extends RecordMessage {
  recordId: string | null;
}

export const MessageSchema = z
  .object({
    id: z.string(),
    recordId: z.string().nullable().describe('The reservation or subscription it is about; null for a message about none'),
    channel: z.enum(MESSAGE_CHANNELS),
    kind: z
      .string()
      .describe("The template kind of an email (reservation-received, …); the webhook's name for chat (reservation, restock, public)"),
    to: z.string().describe("The address of an email; the webhook's name for chat, never its URL"),
    status: z
      .enum(MESSAGE_STATUSES)
      .describe(
        'pending: still to deliver; sent; skipped: its channel is not configured; dead: given up; superseded: not sent, because the record changed so that it was no longer true (a cancelled reservation, a later email about it, an unsubscribed subscription)',
      ),
    attempts: z.number().int().describe('Delivery attempts made'),
    lastError: z.string().nullable().describe("Why the last attempt failed (the provider's answer); null when it did not"),
    createdAt: z.string().describe('When it was queued'),
    sentAt: z.string().nullable().describe('When it was sent or skipped; null otherwise'),
  })
  .meta({ id: 'LoggedMessage' });

/** The outbox columns a logged message is read from. */
export type LoggedRow = Pick<
  Selectable<OutboxRow>,
  'id' | 'record_id' | 'channel' | 'destination' | 'payload' | 'status' | 'attempts' | 'last_error' | 'created_at' | 'sent_at'
>;

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
