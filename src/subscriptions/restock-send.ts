import type { Catalog } from '../catalog/catalog.ts';
import type { Database } from '../db/database.ts';
import type { Messaging } from '../messaging/messaging.ts';
import { recordMoves } from '../records/history.ts';
import { markPendingNotified } from './store.ts';

/** Subscriptions notified per transaction: memory holds one batch of rows and rendered emails, whatever the total. */
export const SEND_BATCH_SIZE = 500;

export interface RestockSendDeps {
  database: Database;
  catalog: Catalog;
  messaging: Messaging;
  wakeDispatcher: () => void;
}

export type RestockSendResult = { ok: true; notifiedCount: number } | { ok: false; reason: 'unknown-product' };

/**
 * The product is back in stock. Batch by batch, each active pending subscription of it becomes
 * `notified` in the same transaction that queues its email, so a subscription is notified exactly
 * when its email is promised; the dispatcher is woken after each batch and delivers while the next
 * is written. The batch that finds the last of them also queues one public chat message, made of
 * catalog facts only. Returns once everything is queued, never waiting for delivery. Sending again
 * finds no pending subscription and sends nothing.
 */
export async function sendRestockNotices(
  deps: RestockSendDeps,
  productSlug: string,
  options: { batchSize?: number } = {},
): Promise<RestockSendResult> {
  const product = deps.catalog.bySlug.get(productSlug);
  if (!product) return { ok: false, reason: 'unknown-product' };
  const batchSize = options.batchSize ?? SEND_BATCH_SIZE;
  const { database, messaging } = deps;

  let notifiedCount = 0;
  for (let more = true; more;) {
    notifiedCount += await database.db.transaction().execute(async (trx) => {
      const now = new Date().toISOString();
      const notified = await markPendingNotified(trx, database.dialect, product.slug, now, batchSize);
      await recordMoves(
        trx,
        notified.map(({ id }) => ({ id, from: 'pending', to: 'notified', at: now, actor: 'staff' as const, customerEmailed: true })),
      );
      await messaging.restockSent(trx, product, notified, now);
      more = notified.length === batchSize;
      if (!more && notifiedCount + notified.length > 0) await messaging.restockAnnounced(trx, product, now);
      return notified.length;
    });
    deps.wakeDispatcher();
  }
  return { ok: true, notifiedCount };
}
