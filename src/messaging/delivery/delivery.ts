import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { createEmailRenderer } from '../templates/render-queued.ts';
import type { Logger } from '../../log.ts';
import { chatPayload } from '../chat/webhook-payload.ts';
import type { Deliver, SentEmail } from './dispatcher.ts';
import { createEmailSender, headerSafe } from './email-sender.ts';
import { createJsonPoster } from './http-post.ts';
import type { EmailContent, QueuedMessage } from '../outbox/message.ts';

/** Sends one rendered email through the configured provider now: `skipped` (and logged) when none is configured; a refusal is thrown. */
export type SendEmail = (content: EmailContent, to: string, idempotencyKey: string) => Promise<'sent' | 'skipped'>;

export interface Delivery {
  deliver: Deliver;
  /** The provider without the outbox: what the staff's test send goes through. */
  sendEmail: SendEmail;
  close(): Promise<void>;
}

/**
 * Delivers one queued message through the channel configured now: the email provider, or the chat
 * webhook of that name (read at send time, so its URL is never stored). An email is rendered here,
 * with the template version it was queued with (read from `database` once per version), while its
 * standing is asked: an email erased or made untrue since it was queued is not sent, nor written
 * to the log (`withdrawn`, `superseded`); one with no provider configured is written to the log and
 * skipped. A chat message whose webhook is unset is skipped without a word (an unset webhook is the
 * shop's choice, not a fault); otherwise its standing is asked too.
 */
export async function createDelivery(
  config: Pick<Config, 'appEnv' | 'email' | 'webhooks'>,
  log: Logger,
  database: Database,
): Promise<Delivery> {
  const render = createEmailRenderer(database);
  const http = createJsonPoster();
  const email = await createEmailSender(config.email, http);
  if (!email) log.warn('no email provider configured (EMAIL_PROVIDER_API_KEY or SMTP_URL): emails are logged and skipped');

  /** Sends it now: sent with the provider's id for the email when it gave one, or skipped (no provider). */
  const send = async (content: EmailContent, to: string, idempotencyKey: string): Promise<SentEmail | 'sent' | 'skipped'> => {
    const outgoing = headerSafe({ ...content, from: config.email.from, to });
    if (!email) {
      // Only a developer's own machine writes the email out; elsewhere the log would keep the
      // customer's address and words, which no personal-data erasure reaches.
      if (config.appEnv === 'development')
        log.info(
          { idempotencyKey, to: outgoing.to, subject: outgoing.subject, text: outgoing.text },
          'email skipped: no provider configured',
        );
      else log.info({ idempotencyKey }, 'email skipped: no provider configured');
      return 'skipped';
    }
    const providerMessageId = await email.send(outgoing, idempotencyKey);
    return providerMessageId === undefined ? 'sent' : { status: 'sent', providerMessageId };
  };
  const sendEmail: SendEmail = async (content, to, idempotencyKey) =>
    (await send(content, to, idempotencyKey)) === 'skipped' ? 'skipped' : 'sent';

  const deliver: Deliver = async ({ message, idempotencyKey }: QueuedMessage, standing) => {
    if (message.channel === 'email') {
      // Rendered while its standing is asked, not before: rendering reads the shop's details from
      // the store, and a standing asked one read later than the chat notice's of the same record
      // would be asked, and the two settled, in statements of their own.
      const [content, now] = await Promise.all([render(message.email), standing()]);
      return now === 'deliver' ? send(content, message.to, idempotencyKey) : now;
    }
    const url = config.webhooks[message.webhook];
    if (!url) return 'skipped';
    const now = await standing();
    if (now !== 'deliver') return now;
    await http.post(url, chatPayload(url, message.content));
    return 'sent';
  };

  return {
    deliver,
    sendEmail,
    close: async () => {
      await email?.close();
      http.close();
    },
  };
}
