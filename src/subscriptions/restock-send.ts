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
 * The product is back in stock: batch by batch, its active pending subscriptions, oldest first,
 * become `notified` in the transaction that queues their emails (notified exactly when promised),
 * the dispatcher woken after each batch. With `limit` (a wave) at most that many, the answer saying
 * how many still wait. The public chat announcement is queued by the batch ending a send that
 * notified anyone, with a limit only by the last wave, so the public never hears before the
 * subscribers. Returns once all is queued; sending again finds no one and sends nothing.
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
