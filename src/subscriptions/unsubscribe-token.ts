import { createHmac, timingSafeEqual } from 'node:crypto';

// An unsubscribe link names the subscription and proves the shop made the link: `<id>.<mac>`, the
// MAC an HMAC-SHA256 of the id under the server's unsubscribe secret. The id is random and says
// nothing about the customer, so the URL carries no personal data, and without the secret no one
// can make a valid token for another id.

function mac(secret: string, subscriptionId: string): Buffer {
  return createHmac('sha256', secret).update(subscriptionId).digest();
}

export function unsubscribeToken(secret: string, subscriptionId: string): string {
  return `${subscriptionId}.${mac(secret, subscriptionId).toString('base64url')}`;
}

/** The subscription id a token was made for, or undefined when the token was not made with this secret. */
export function verifyUnsubscribeToken(secret: string, token: string): string | undefined {
  const dot = token.lastIndexOf('.');
  if (dot <= 0) return undefined;
  const subscriptionId = token.slice(0, dot);
  const presented = Buffer.from(token.slice(dot + 1), 'base64url');
  const expected = mac(secret, subscriptionId);
  // base64url decoding ignores stray characters, so the text must also be exactly the canonical one.
  if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) return undefined;
  return presented.toString('base64url') === token.slice(dot + 1) ? subscriptionId : undefined;
}
