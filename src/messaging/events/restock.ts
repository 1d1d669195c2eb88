import type { Selectable } from 'kysely';
import type { Product } from '../../catalog/product.ts';
import type { SubscriptionRow } from '../../db/schema.ts';
import { uuidV7 } from '../../db/time-ordered-id.ts';
import { restockPublicChatMessage, restockSignupChatMessage } from '../chat/restock-notices.ts';
import { consoleRecordUrl, productPageUrl, unsubscribeToken, unsubscribeUrl } from '../links.ts';
import type { MessagingSettings } from './settings.ts';
import type { OutboxEntry } from '../outbox/message.ts';
import { restockEmailFacts } from '../templates/facts.ts';

// The messages a restock subscription's events queue, with their idempotency keys and what they state.

/** A subscription as its messages name it: a row of the subscriptions table. */
export type SubscriptionRecord = Pick<Selectable<SubscriptionRow>, 'id' | 'email' | 'created_at'>;

/** The shop's chat notice of a new signup (the restock webhook), due when it was made. */
export function signupNotice(settings: MessagingSettings, subscription: SubscriptionRecord, product: Product): OutboxEntry {
  const { id, email, created_at: queuedAt } = subscription;
  return {
    idempotencyKey: `subscription/${id}/chat`,
    recordId: id,
    queuedAt,
    message: {
      channel: 'chat',
      webhook: 'restock',
      content: restockSignupChatMessage({ id, email, createdAt: queuedAt }, product, consoleRecordUrl(settings.publicBaseUrl, id)),
    },
  };
}

/**
 * Each notified subscription's restock email, with its own unsubscribe link. Unique per
 * notification (the key holds its time): staff may move a subscription back to pending and send again.
 */
export function restockEmails(
  settings: MessagingSettings,
  product: Product,
  subscriptions: Pick<SubscriptionRecord, 'id' | 'email'>[],
  at: string,
): OutboxEntry[] {
  const productUrl = productPageUrl(settings.storefrontUrl, product);
  return subscriptions.map((subscription) => ({
    idempotencyKey: `subscription/${subscription.id}/restock-email/${at}`,
    recordId: subscription.id,
    queuedAt: at,
    message: {
      channel: 'email',
      to: subscription.email,
      email: {
        template: 'restock-available',
        facts: restockEmailFacts(product, {
          productUrl,
          unsubscribeUrl: unsubscribeUrl(settings.publicBaseUrl, unsubscribeToken(settings.linkSecret, subscription.id)),
        }),
      },
    },
  }));
}

/**
 * The public announcement that the product is back (the public webhook), one per send. It goes to
 * a channel anyone may read, so it is about no record and made of catalog facts only.
 */
export function restockAnnouncement(settings: MessagingSettings, product: Product, at: string): OutboxEntry {
  return {
    idempotencyKey: `restock/${product.slug}/${uuidV7()}/public-chat`,
    queuedAt: at,
    message: {
      channel: 'chat',
      webhook: 'public',
      content: restockPublicChatMessage(product, productPageUrl(settings.storefrontUrl, product), at),
    },
  };
}
