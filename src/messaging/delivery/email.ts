import type { EmailContent } from '../outbox/message.ts';

/** An email ready to hand to a provider. */
export interface Email extends EmailContent {
  from: string;
  to: string;
}

/** A provider's way in (its HTTP API or SMTP), which `email-sender.ts` picks from the configuration. */
export interface EmailSender {
  /**
   * Resolves once the provider accepted the email, with the id it gave it (which its later events
   * name; undefined when its answer named none); throws otherwise.
   */
  send(email: Email, idempotencyKey: string): Promise<string | undefined>;
  close(): Promise<void>;
}
