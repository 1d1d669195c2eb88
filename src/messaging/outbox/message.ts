import type { QueuedEmail } from '../templates/facts.ts';

/**
 * What the outbox carries. An email is queued as its template and the facts it states (the product,
 * its price that day, the links), fixed when it is queued; the wording is applied when it is sent
 * with the template version current when it was queued (templates/). A few hundred bytes a message instead of kilobytes of rendered
 * text and HTML: the outbox row is written at enqueue, claim and settle, so its size is most of the
 * cost of a reservation (measured: ~30 % of a reservation's CPU; bench/reservations.ts). Chat is
 * addressed by webhook name, so the URL, a secret, is read from the configuration at send time and
 * never stored.
 */

/** The chat webhooks the service knows, each configured by its own variable. */
export type WebhookName = 'reservation' | 'restock' | 'public';

export interface EmailContent {
  subject: string;
  text: string;
  html: string;
  /** Extra headers (List-Unsubscribe, …); names and values are made single-line before sending. */
  headers?: Record<string, string>;
}

/** A chat message, neutral to the chat service: rendered as Slack blocks or a Discord embed at send time. */
export interface ChatContent {
  title: string;
  fields: { label: string; value: string }[];
  /** ISO timestamp the message is about (shown in Japan time). */
  timestamp: string;
  /** The record's own page in the console; none for a public announcement (or a notice queued before they had one). */
  link?: { label: string; url: string };
}

export type OutgoingMessage =
  { channel: 'email'; to: string; email: QueuedEmail } | { channel: 'chat'; webhook: WebhookName; content: ChatContent };

/** A message to queue. */
export interface OutboxEntry {
  /**
   * Unique per message and stable for its cause (`reservation/<id>/confirmation`): queuing the same
   * key twice keeps the first, and the email API receives it as Idempotency-Key.
   */
  idempotencyKey: string;
  /** The record the message is about; erasing the record erases its messages too. */
  recordId?: string;
  /** When its cause happened (ISO): the row's `created_at`, and when it is first due. Passed in, so tests set the clock. */
  queuedAt: string;
  message: OutgoingMessage;
  /** Queued as `skipped` with this reason instead of to be sent (a cap it reached, say). */
  skippedBecause?: string;
}

/** A queued message as the dispatcher hands it to delivery. */
export interface QueuedMessage {
  id: string;
  idempotencyKey: string;
  attempts: number;
  message: OutgoingMessage;
}
