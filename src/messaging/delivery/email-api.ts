import type { Email, EmailSender } from './email-sender.ts';
import type { JsonPoster } from './http-post.ts';

/**
 * A Resend-compatible HTTP API: `POST <url>` with the key as a bearer token and the message's
 * idempotency key as `Idempotency-Key`, so a retry after a lost answer does not send the email twice.
 */
export function emailApiSender(api: { url: string; key: string }, http: JsonPoster): EmailSender {
  return {
    send: (email: Email, idempotencyKey: string) =>
      http.post(
        api.url,
        {
          from: email.from,
          to: [email.to],
          subject: email.subject,
          text: email.text,
          html: email.html,
          ...(email.headers && Object.keys(email.headers).length > 0 ? { headers: email.headers } : {}),
        },
        { authorization: `Bearer ${api.key}`, 'idempotency-key': idempotencyKey },
      ),
    close: async () => {},
  };
}
