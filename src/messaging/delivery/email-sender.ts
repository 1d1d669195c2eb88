import type { Config } from '../../config.ts';
import { emailApiSender } from './email-api.ts';
import type { JsonPoster } from './http-post.ts';
import type { Email, EmailSender } from './email.ts';
import { singleLine } from '../../text/safe-text.ts';

/**
 * The configured provider: the HTTP API when its key is set, else SMTP when its URL is; none → undefined.
 * nodemailer is loaded only when SMTP is configured: importing it costs ~40 ms of every start.
 */
export async function createEmailSender(settings: Config['email'], http: JsonPoster): Promise<EmailSender | undefined> {
  if (settings.api) return emailApiSender(settings.api, http);
  if (settings.smtpUrl) return (await import('./email-smtp.ts')).smtpSender(settings.smtpUrl, settings.dkim);
  return undefined;
}

/** The addresses, subject and extra headers on one line each, whatever they were given as. */
export function headerSafe(email: Email): Email {
  const headers = email.headers
    ? Object.fromEntries(
        Object.entries(email.headers).map(([name, value]) => [singleLine(name).replace(/[^!-9;-~]/g, ''), singleLine(value)]),
      )
    : undefined;
  return { ...email, from: singleLine(email.from), to: singleLine(email.to), subject: singleLine(email.subject), headers };
}
