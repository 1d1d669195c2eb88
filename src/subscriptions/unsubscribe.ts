import type { Database } from '../db/database.ts';
import { markUnsubscribed } from './store.ts';
import { verifyUnsubscribeToken } from './unsubscribe-token.ts';

/** `productSlug` is absent when the token was only checked. */
export type UnsubscribeResult = { ok: true; productSlug?: string } | { ok: false };

/**
 * The customer's unsubscribe link: a valid token moves its subscription to `unsubscribed`, from any
 * status (the customer's own move, not the admin table's), archived or not. Repeating it changes
 * nothing more. `apply: false` only checks the token (HEAD, which must change nothing).
 */
export async function unsubscribe(
  deps: { database: Database; unsubscribeSecret: string },
  token: string | undefined,
  options: { apply: boolean } = { apply: true },
): Promise<UnsubscribeResult> {
  const subscriptionId = token === undefined ? undefined : verifyUnsubscribeToken(deps.unsubscribeSecret, token);
  if (subscriptionId === undefined) return { ok: false };
  if (!options.apply) return { ok: true };
  const unsubscribed = await markUnsubscribed(deps.database.db, subscriptionId);
  return unsubscribed ? { ok: true, productSlug: unsubscribed.productSlug } : { ok: false };
}
