import { createHmac, randomBytes, randomUUID } from 'node:crypto';

/** A webhook secret as Resend shows it: `whsec_` and the base64 of the key. */
export function webhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

export interface SignedDelivery {
  id: string;
  /** Seconds since the epoch, as `svix-timestamp` carries it. */
  timestamp: number;
  body: string;
  headers: Record<string, string>;
}

/**
 * Signs a body as Svix does, written here from its documentation rather than taken from the
 * service's library: `svix-signature` is `v1,` and the base64 HMAC-SHA256 of `${id}.${timestamp}.${body}`,
 * keyed with the base64-decoded part of the secret after `whsec_`.
 */
export function signAsSvix(
  secret: string,
  event: unknown,
  options: { id?: string; timestamp?: number; body?: string } = {},
): SignedDelivery {
  const id = options.id ?? `msg_${randomUUID()}`;
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  const body = options.body ?? JSON.stringify(event);
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const signature = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return {
    id,
    timestamp,
    body,
    headers: {
      'content-type': 'application/json',
      'svix-id': id,
      'svix-timestamp': String(timestamp),
      'svix-signature': `v1,${signature}`,
    },
  };
}

/** A Resend event about the email the provider knows by `emailId`. */
export function resendEvent(type: string, emailId: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type,
    created_at: new Date().toISOString(),
    data: { email_id: emailId, from: 'shop@tenpo.example', to: ['someone@example.com'], subject: '…', ...extra },
  };
}
