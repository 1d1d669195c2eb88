import type { Catalog } from '../catalog/catalog.ts';
import type { Database } from '../db/database.ts';
import { uuidV7 } from '../db/time-ordered-id.ts';
import type { OutboxEntry } from '../messaging/outbox/message.ts';
import { enqueueMessages } from '../messaging/outbox/store.ts';
import { recordMoves } from '../records/history.ts';
import { restockEmailFacts } from '../messaging/templates/facts.ts';
import { restockPublicChatMessage } from '../messaging/chat/restock-notices.ts';
import { productPageUrl, unsubscribeUrl } from '../messaging/links.ts';
import { markPendingNotified } from './store.ts';
import { unsubscribeToken } from '../messaging/links.ts';

/** Subscriptions notified per transaction: memory holds one batch of rows and rendered emails, whatever the total. */
export const SEND_BATCH_SIZE = 500;

export interface RestockSendDeps {
  database: Database;
  catalog: Catalog;
  /** PUBLIC_BASE_URL, for the product and unsubscribe links. */
  publicBaseUrl: string;
  unsubscribeSecret: string;
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
  const productUrl = productPageUrl(deps.publicBaseUrl, product);
  const sendId = uuidV7();
  const { database } = deps;

  let notifiedCount = 0;
  for (let more = true; more;) {
    notifiedCount += await database.db.transaction().execute(async (trx) => {
      const now = new Date().toISOString();
      const notified = await markPendingNotified(trx, database.dialect, product.slug, now, batchSize);
      await recordMoves(
        trx,
        notified.map(({ id }) => ({ id, from: 'pending', to: 'notified', at: now, actor: 'staff' as const, customerEmailed: true })),
      );
      const messages: OutboxEntry[] = notified.map((subscription) => ({
        // Unique per notification: an administrator may move a subscription back to pending and send again.
        idempotencyKey: `subscription/${subscription.id}/restock-email/${now}`,
        recordId: subscription.id,
        queuedAt: now,
        message: {
          channel: 'email',
          to: subscription.email,
          email: {
            template: 'restock-available',
            facts: restockEmailFacts(product, {
              productUrl,
              unsubscribeUrl: unsubscribeUrl(deps.publicBaseUrl, unsubscribeToken(deps.unsubscribeSecret, subscription.id)),
            }),
          },
        },
      }));
      more = notified.length === batchSize;
      if (!more && notifiedCount + notified.length > 0) {
        messages.push({
          idempotencyKey: `restock/${product.slug}/${sendId}/public-chat`,
          queuedAt: now,
          message: { channel: 'chat', webhook: 'public', content: restockPublicChatMessage(product, productUrl, now) },
        });
      }
      await enqueueMessages(trx, messages);
      return notified.length;
    });
    deps.wakeDispatcher();
  }
  return { ok: true, notifiedCount };
}
