/**
 * What the outbox carries. A message is rendered when it is queued (so a template change never alters
 * a message already promised) and addressed by name for chat (so the webhook URL, a secret, is read
 * from the configuration at send time and never stored).
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
  /** ISO timestamp the message is about. */
  timestamp: string;
}

export type OutgoingMessage =
  | { channel: 'email'; to: string; content: EmailContent }
  | { channel: 'chat'; webhook: WebhookName; content: ChatContent };

/** A message to queue. */
export interface OutboxEntry {
  /**
   * Unique per message and stable for its cause (`reservation/<id>/confirmation`): queuing the same
   * key twice keeps the first, and the email API receives it as Idempotency-Key.
   */
  idempotencyKey: string;
  /** The record the message is about; erasing the record erases its messages too. */
  recordId?: string;
  message: OutgoingMessage;
}

/** A queued message as the dispatcher hands it to delivery. */
export interface QueuedMessage {
  id: string;
  idempotencyKey: string;
  attempts: number;
  message: OutgoingMessage;
}
