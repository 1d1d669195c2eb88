import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { createEmailRenderer } from '../email-templates/templates.ts';
import type { Logger } from '../log.ts';
import { chatPayload } from './chat-payload.ts';
import type { Deliver } from './dispatcher.ts';
import { createEmailSender, headerSafe } from './email-sender.ts';
import { createJsonPoster } from './http-post.ts';
import type { QueuedMessage } from './message.ts';

export interface Delivery {
  deliver: Deliver;
  close(): Promise<void>;
}

/**
 * Delivers one queued message through the channel configured now: the email provider, or the chat
 * webhook of that name (read at send time, so its URL is never stored). An email with no provider
 * configured is written to the log and skipped; a chat message whose webhook is unset is skipped
 * without a word, as SPEC §1 asks. An email is rendered here, with the template version it was
 * queued with (read from `database` once per version).
 */
export async function createDelivery(config: Pick<Config, 'email' | 'webhooks'>, log: Logger, database: Database): Promise<Delivery> {
  const render = createEmailRenderer(database);
  const http = createJsonPoster();
  const email = await createEmailSender(config.email, http);
  if (!email) log.warn('no email provider configured (EMAIL_PROVIDER_API_KEY or SMTP_URL): emails are logged and skipped');

  const deliver: Deliver = async ({ message, idempotencyKey, id }: QueuedMessage) => {
    if (message.channel === 'email') {
      const outgoing = headerSafe({ ...(await render(message.email)), from: config.email.from, to: message.to });
      if (!email) {
        log.info({ messageId: id, to: outgoing.to, subject: outgoing.subject, text: outgoing.text }, 'email skipped: no provider configured');
        return 'skipped';
      }
      await email.send(outgoing, idempotencyKey);
      return 'sent';
    }
    const url = config.webhooks[message.webhook];
    if (!url) return 'skipped';
    await http.post(url, chatPayload(url, message.content));
    return 'sent';
  };

  return {
    deliver,
    close: async () => {
      await email?.close();
      http.close();
    },
  };
}
