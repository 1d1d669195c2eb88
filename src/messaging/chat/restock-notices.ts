import type { Product } from '../../catalog/product.ts';
import { formatJapanTime, formatYen } from '../../text/japan-format.ts';
import type { ChatContent } from '../outbox/message.ts';

/** A subscription as just made: what the shop's chat notice of it is made from. */
export interface NewSubscription {
  id: string;
  email: string;
  createdAt: string;
}

/** The shop's chat notice of a new restock signup (the restock webhook). */
export function restockSignupChatMessage(subscription: NewSubscription, product: Product, pageUrl: string): ChatContent {
  return {
    title: `入荷通知の登録: ${product.name}`,
    fields: [
      { label: '商品', value: `${product.name} (${product.slug})` },
      { label: 'メールアドレス', value: subscription.email },
      { label: '登録番号', value: subscription.id },
      { label: '登録日時', value: formatJapanTime(subscription.createdAt) },
    ],
    timestamp: subscription.createdAt,
    link: { label: '管理画面で登録を開く', url: pageUrl },
  };
}

/**
 * The public announcement that a product is back (the public webhook). It goes to a channel anyone
 * may read, so it is built from catalog facts only: no address, no name, no subscriber count, no
 * link into the console.
 */
export function restockPublicChatMessage(product: Product, productUrl: string, at: string): ChatContent {
  return {
    title: `入荷しました: ${product.name}`,
    fields: [
      { label: '商品', value: product.name },
      { label: '価格', value: formatYen(product.price) },
      { label: '商品ページ', value: productUrl },
    ],
    timestamp: at,
  };
}
