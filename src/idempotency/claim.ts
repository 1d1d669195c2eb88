import { createHmac } from 'node:crypto';

/** A client's Idempotency-Key as the request carried it: keys are per client address. */
export interface IdempotencyKey {
  client: string;
  key: string;
}

/** A key and what it stands for: the request it was first sent with, by fingerprint. */
export interface Claim extends IdempotencyKey {
  fingerprint: string;
}

/** How long a key answers with its first answer. */
export const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;

/**
 * The request a key stands for, as the form validated it: the form's name and its fields in a
 * fixed order (the name trimmed, the address lowercased), hashed. A retry that serialises its JSON
 * differently (key order, spacing, escapes, extra fields the form ignores) is the same request,
 * because it would write the same record; raw bytes would call it a different one and answer 422.
 * An HMAC under the service's secret, so the table holds no name or address, and one who reads it
 * cannot confirm a guessed name and address by hashing them (a plain hash of so little would).
 */
export function claimOf(secret: string, key: IdempotencyKey, form: string, fields: readonly string[]): Claim {
  const fingerprint = createHmac('sha256', secret)
    .update(JSON.stringify([form, ...fields]))
    .digest('hex');
  return { client: key.client, key: key.key, fingerprint };
}
