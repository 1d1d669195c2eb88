import type { Email, EmailSender } from './email.ts';
import type { JsonPoster } from './http-post.ts';

/**
 * A Resend-compatible HTTP API: `POST <url>` with the key as a bearer token and the message's
 * idempotency key as `Idempotency-Key`, so a retry after a lost answer does not send the email twice.
 * Its answer's `id` is the email's, which the provider's events name.
 */
export function emailApiSender(api: { url: string; key: string }, http: JsonPoster): EmailSender {
  return {
    send: async (email: Email, idempotencyKey: string) => {
      const answer = await http.post(
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
      );
      return emailIdOf(answer);
    },
    close: async () => {},
  };
}

/** The `id` of the API's answer, if it is JSON naming one. */
function emailIdOf(answer: string): string | undefined {
  try {
    const { id } = JSON.parse(answer) as { id?: unknown };
    return typeof id === 'string' && id !== '' ? id : undefined;
  } catch {
    return undefined;
  }
}
