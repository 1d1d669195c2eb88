import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import type { Tables } from '../db/schema.ts';
import { BY_CUSTOMER, recordMoves } from '../records/history.ts';
import { changeTime } from '../records/status-checks.ts';
import { findRecordForUpdate } from '../records/store.ts';
import { markUnsubscribed, signupsStillSubscribed } from './store.ts';
import { verifyUnsubscribeToken } from '../messaging/links.ts';

/** `productSlug` is absent when the token was only checked. */
export type UnsubscribeResult = { ok: true; productSlug?: string } | { ok: false };

/**
 * The customer's unsubscribe link: a valid token moves its subscription to `unsubscribed`, from any
 * status (the customer's own move, not the admin table's), archived or not, with a line in its
 * history. Repeating it changes nothing more. `apply: false` only checks the token (HEAD, which
 * must change nothing).
 */
export async function unsubscribe(
  deps: { database: Database; unsubscribeSecret: string },
  token: string | undefined,
  options: { apply: boolean } = { apply: true },
): Promise<UnsubscribeResult> {
  const subscriptionId = token === undefined ? undefined : verifyUnsubscribeToken(deps.unsubscribeSecret, token);
  if (subscriptionId === undefined) return { ok: false };
  if (!options.apply) return { ok: true };
  const { database } = deps;
  const productSlug = await database.db.transaction().execute(async (trx) => {
    const current = await findRecordForUpdate(trx, database.dialect, 'subscriptions', subscriptionId);
    if (!current) return undefined;
    if (current.status !== 'unsubscribed') {
      const at = changeTime(current.updated_at, new Date()).toISOString();
      await markUnsubscribed(trx, current.id, at);
      await recordMoves(trx, [{ id: current.id, from: current.status, to: 'unsubscribed', at, customerEmailed: null }], BY_CUSTOMER);
    }
    return current.product_slug;
  });
  return productSlug === undefined ? { ok: false } : { ok: true, productSlug };
}

/**
 * Every restock signup of a customer (by canonical address) unsubscribed, each with a line in its
 * history as the customer's own move: they marked the shop's mail as spam, which says no more of
 * it more plainly than the link. In the caller's transaction (messaging's, recording the complaint).
 */
export async function unsubscribeEverySignupOf(db: Kysely<Tables>, address: string, now: string): Promise<void> {
  const moves = [];
  for (const signup of await signupsStillSubscribed(db, address)) {
    const at = changeTime(signup.updated_at, new Date(now)).toISOString();
    await markUnsubscribed(db, signup.id, at);
    moves.push({ id: signup.id, from: signup.status, to: 'unsubscribed', at, customerEmailed: null });
  }
  if (moves.length > 0) await recordMoves(db, moves, BY_CUSTOMER);
}
