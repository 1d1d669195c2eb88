import type { Database } from '../db/database.ts';
import { BY_CUSTOMER, recordMoves } from '../records/history.ts';
import { changeTime } from '../records/status-checks.ts';
import { findRecordForUpdate } from '../records/store.ts';
import { markUnsubscribed } from './store.ts';
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
