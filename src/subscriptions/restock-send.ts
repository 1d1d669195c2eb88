import type { Catalog } from '../catalog/catalog.ts';
import type { Database } from '../db/database.ts';
import type { Messaging } from '../messaging/messaging.ts';
import { byStaff, recordMoves } from '../records/history.ts';
import { countActiveRows } from '../records/store.ts';
import { markPendingNotified } from './store.ts';

/** Subscriptions notified per transaction: memory holds one batch of rows and rendered emails, whatever the total. */
export const SEND_BATCH_SIZE = 500;

export interface RestockSendDeps {
  database: Database;
  catalog: Catalog;
  messaging: Messaging;
  wakeDispatcher: () => void;
}

export type RestockSendResult = { ok: true; notifiedCount: number; remaining: number } | { ok: false; reason: 'unknownProduct' };

/**
 * The product is back in stock. Batch by batch, its active pending subscriptions, oldest first
 * (`createdAt`, then `id`), become `notified` in the same transaction that queues their emails, so
 * a subscription is notified exactly when its email is promised; the dispatcher is woken after each
 * batch and delivers while the next is written. With `limit` (a wave: 5 units for 300 waiting) at
 * most that many are notified, and the answer says how many still wait (`remaining`); without it
 * every one is, and `remaining` is 0. The public chat announcement, made of catalog facts only, is
 * queued by the batch that ends a send which notified anyone: without a limit always, with one only
 * when nobody is left waiting (the last wave), so the public is not told before the subscribers.
 * Returns once everything is queued, never waiting for delivery. Sending again finds no pending
 * subscription and sends nothing.
 */
export async function sendRestockNotices(
  deps: RestockSendDeps,
  request: { productSlug: string; limit?: number },
  options: { batchSize?: number; staffId?: string | null } = {},
): Promise<RestockSendResult> {
  const product = deps.catalog.bySlug.get(request.productSlug);
  if (!product) return { ok: false, reason: 'unknownProduct' };
  const batchSize = options.batchSize ?? SEND_BATCH_SIZE;
  const { database, messaging } = deps;
  const wanted = request.limit ?? Infinity;

  let notifiedCount = 0;
  let remaining = 0;
  for (let more = true; more;) {
    notifiedCount += await database.db.transaction().execute(async (trx) => {
      const now = new Date().toISOString();
      const take = Math.min(batchSize, wanted - notifiedCount);
      const notified = await markPendingNotified(trx, database.dialect, product.slug, now, take);
      await recordMoves(
        trx,
        notified.map(({ id }) => ({ id, from: 'pending', to: 'notified', at: now, customerEmailed: true })),
        byStaff(options.staffId ?? null),
      );
      await messaging.restockSent(trx, product, notified, now);
      more = notified.length === take && notifiedCount + notified.length < wanted;
      if (!more) {
        remaining =
          request.limit === undefined ? 0 : await countActiveRows(trx, 'subscriptions', { productSlug: product.slug, status: 'pending' });
        if (notifiedCount + notified.length > 0 && remaining === 0) await messaging.restockAnnounced(trx, product, now);
      }
      return notified.length;
    });
    deps.wakeDispatcher();
  }
  return { ok: true, notifiedCount, remaining };
}
