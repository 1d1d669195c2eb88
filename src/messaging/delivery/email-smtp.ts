import { createHash } from 'node:crypto';
import nodemailer from 'nodemailer';
import type { DkimKey } from '../../config.ts';
import { DeliveryFailure, isPermanentSmtpCode } from './delivery-failure.ts';
import type { Email, EmailSender } from './email.ts';
import { SEND_TIMEOUT_MS } from './http-post.ts';

/**
 * SMTP through nodemailer, on a small pool of kept-open connections, each email signed with DKIM
 * when a key is configured. SMTP has no idempotency key; the Message-ID is derived from it instead,
 * so a repeated delivery carries the same Message-ID and mail systems that deduplicate on it show
 * one email. That Message-ID is the id the email is known by afterwards.
 */
export function smtpSender(url: string, dkim?: DkimKey): EmailSender {
  const transport = nodemailer.createTransport({
    url,
    pool: true,
    maxConnections: 4,
    connectionTimeout: SEND_TIMEOUT_MS,
    greetingTimeout: SEND_TIMEOUT_MS,
    socketTimeout: SEND_TIMEOUT_MS,
    ...(dkim ? { dkim: { domainName: dkim.domain, keySelector: dkim.selector, privateKey: dkim.privateKey } } : {}),
  });
  return {
    send: async (email: Email, idempotencyKey: string) => {
      const id = messageId(idempotencyKey, email.from);
      try {
        await transport.sendMail({
          from: email.from,
          to: email.to,
          subject: email.subject,
          text: email.text,
          html: email.html,
          headers: email.headers,
          messageId: id,
        });
      } catch (error) {
        throw refusal(error) ?? error;
      }
      return id;
    },
    close: async () => transport.close(),
  };
}

function messageId(idempotencyKey: string, from: string): string {
  const domain = /@([A-Za-z0-9.-]+)/.exec(from)?.[1] ?? 'tenpo.invalid';
  return `<${createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 32)}@${domain}>`;
}

/**
 * A server's 5xx reply (a rejected recipient, a refused login) as a permanent failure, with the
 * server's own words; anything else (a 4xx reply, a connection lost) is left to be retried. A 5xx
 * to RCPT TO is the recipient's address refused: a hard bounce.
 */
function refusal(error: unknown): DeliveryFailure | undefined {
  const { responseCode, command } = (error ?? {}) as { responseCode?: unknown; command?: unknown };
  if (typeof responseCode !== 'number' || !isPermanentSmtpCode(responseCode)) return undefined;
  // nodemailer's message says what was refused and quotes the reply ("Invalid login: 535 …").
  return new DeliveryFailure(error instanceof Error ? error.message : `SMTP ${responseCode}`, {
    permanent: true,
    hardBounce: command === 'RCPT TO',
  });
}
