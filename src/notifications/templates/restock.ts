import type { Product } from '../../catalog/product.ts';
import type { ChatContent, EmailContent } from '../message.ts';
import { formatJapanTime, formatYen, renderEmail } from './email-layout.ts';

/** A subscription as just made: what the shop's chat notice of it is made from. */
export interface NewSubscription {
  id: string;
  email: string;
  createdAt: string;
}

/** What a "back in stock" email states, fixed when the send is made. */
export interface RestockNoticeFacts {
  productName: string;
  price: number | null;
  productUrl: string;
  unsubscribeUrl: string;
}

/** The facts stored with a queued restock email (message.ts); the wording is applied when it is sent. */
export function restockNoticeFacts(product: Product, links: { productUrl: string; unsubscribeUrl: string }): RestockNoticeFacts {
  return { productName: product.name, price: product.price, productUrl: links.productUrl, unsubscribeUrl: links.unsubscribeUrl };
}

/**
 * The "back in stock" email: the product, a link to its page and a visible unsubscribe link, with
 * the List-Unsubscribe headers (RFC 2369, and RFC 8058's one-click POST) mail clients show as a button.
 */
export function renderRestockNotice(facts: RestockNoticeFacts): EmailContent {
  return renderEmail({
    subject: `【入荷のお知らせ】${facts.productName}`,
    paragraphs: [
      '入荷通知にご登録いただいた商品が入荷しました。',
      '数に限りがございますので、お早めに商品ページをご確認ください。',
    ],
    action: { label: '商品ページを見る', url: facts.productUrl },
    details: [
      { label: '商品', value: facts.productName },
      { label: '価格', value: formatYen(facts.price) },
    ],
    sections: [],
    footer:
      'このメールは、この商品の入荷通知にご登録いただいた方にお送りしています。送信専用のアドレスからお送りしているため、ご返信いただいてもお答えできません。',
    link: { label: '配信停止（この商品の入荷通知を解除する）', url: facts.unsubscribeUrl },
    headers: {
      'List-Unsubscribe': `<${facts.unsubscribeUrl}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  });
}

/** The shop's chat notice of a new restock signup (the restock webhook). */
export function restockSignupChatMessage(subscription: NewSubscription, product: Product): ChatContent {
  return {
    title: `入荷通知の登録: ${product.name}`,
    fields: [
      { label: '商品', value: `${product.name} (${product.slug})` },
      { label: 'メールアドレス', value: subscription.email },
      { label: '登録番号', value: subscription.id },
      { label: '登録日時', value: formatJapanTime(subscription.createdAt) },
    ],
    timestamp: subscription.createdAt,
  };
}

/**
 * The public announcement that a product is back (the public webhook). It goes to a channel anyone
 * may read, so it is built from catalog facts only: no address, no name, no subscriber count.
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
