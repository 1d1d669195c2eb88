import type { Product } from '../../catalog/product.ts';
import { formatJapanTime } from '../../text/japan-format.ts';
import type { ChatContent } from '../outbox/message.ts';

// The customer's emails about a reservation are templates the shop edits (templates/); the shop's
// own chat notices are fixed here, each with a link to the reservation's page in the console.

/** A reservation as just taken: what its confirmation and chat notice are made from. */
export interface NewReservation {
  id: string;
  number: number;
  name: string;
  email: string;
  createdAt: string;
}

const REOPENED = '満席でしたが、このキャンセルで空きができ、再び予約を受け付けています（止めるには管理画面の予約受付で「受付を終了」）';

/** The shop's chat notice of a new reservation, with everything needed to act on it. */
export function reservationChatMessage(reservation: NewReservation, product: Product, pageUrl: string): ChatContent {
  return {
    title: `新しい予約: ${product.name}`,
    fields: [
      { label: '商品', value: `${product.name} (${product.slug})` },
      { label: 'お名前', value: reservation.name },
      { label: 'メールアドレス', value: reservation.email },
      { label: '予約番号', value: String(reservation.number) },
      { label: '受付日時', value: formatJapanTime(reservation.createdAt) },
    ],
    timestamp: reservation.createdAt,
    link: { label: '管理画面で予約を開く', url: pageUrl },
  };
}

/**
 * The shop's chat notice that a customer cancelled a reservation on their own page; `reopened` when
 * the seat given back opened a full campaign again, which the shop is told with how to stop it.
 */
export function reservationCancelledChatMessage(
  reservation: { id: string; number: number; name: string; email: string; product_slug: string },
  productName: string,
  at: string,
  pageUrl: string,
  reopened = false,
): ChatContent {
  return {
    title: `お客様が予約をキャンセルしました: ${productName}`,
    fields: [
      { label: '商品', value: `${productName} (${reservation.product_slug})` },
      { label: 'お名前', value: reservation.name },
      { label: 'メールアドレス', value: reservation.email },
      { label: '予約番号', value: String(reservation.number) },
      { label: 'キャンセル日時', value: formatJapanTime(at) },
      ...(reopened ? [{ label: '予約受付', value: REOPENED }] : []),
    ],
    timestamp: at,
    link: { label: '管理画面で予約を開く', url: pageUrl },
  };
}
