import type { Product } from '../../catalog/product.ts';
import type { ChatContent, EmailContent } from '../message.ts';
import { formatJapanTime, formatYen, renderEmail } from './email-layout.ts';

/** A reservation as just taken: what its confirmation and chat notice are made from. */
export interface NewReservation {
  id: string;
  name: string;
  email: string;
  createdAt: string;
}

/** What the confirmation email states, fixed when the reservation is taken (the price of that day). */
export interface ReservationConfirmationFacts {
  reservationId: string;
  name: string;
  createdAt: string;
  productName: string;
  price: number | null;
}

/** The facts stored with the queued confirmation email (message.ts); the wording is applied when it is sent. */
export function reservationConfirmationFacts(reservation: NewReservation, product: Product): ReservationConfirmationFacts {
  return { reservationId: reservation.id, name: reservation.name, createdAt: reservation.createdAt, productName: product.name, price: product.price };
}

/** The customer's confirmation: what was reserved, at what price, under which number, and what comes next. */
export function renderReservationConfirmation(facts: ReservationConfirmationFacts): EmailContent {
  return renderEmail({
    subject: `ご予約を受け付けました（${facts.productName}）`,
    addressee: facts.name,
    paragraphs: ['このたびはご予約いただき、誠にありがとうございます。', '以下の内容でご予約を受け付けました。'],
    details: [
      { label: 'ご予約番号', value: facts.reservationId },
      { label: '商品', value: facts.productName },
      { label: '価格', value: formatYen(facts.price) },
      { label: '受付日時', value: formatJapanTime(facts.createdAt) },
    ],
    sections: [
      {
        heading: '今後の流れ',
        items: [
          '担当者がご予約内容を確認し、あらためてメールでご連絡いたします。',
          '商品のご用意ができ次第、お支払い方法とお受け取り方法をご案内いたします。',
          'ご予約の変更・キャンセルをご希望の際は、ご予約番号を添えてショップまでお問い合わせください。',
        ],
      },
    ],
    footer: 'このメールは送信専用のアドレスからお送りしています。お心当たりのない場合は、このメールを破棄してください。',
  });
}

/** The shop's chat notice of a new reservation, with everything needed to act on it. */
export function reservationChatMessage(reservation: NewReservation, product: Product): ChatContent {
  return {
    title: `新しい予約: ${product.name}`,
    fields: [
      { label: '商品', value: `${product.name} (${product.slug})` },
      { label: 'お名前', value: reservation.name },
      { label: 'メールアドレス', value: reservation.email },
      { label: '予約番号', value: reservation.id },
      { label: '受付日時', value: formatJapanTime(reservation.createdAt) },
    ],
    timestamp: reservation.createdAt,
  };
}
