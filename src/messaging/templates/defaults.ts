import type { TemplateKind, TemplateText } from '../kinds.ts';

// The Japanese text each kind has until staff edit it: what a template is compared with for
// `isDefault`. Every one ends with the shop's signature (its name, address and how to reach it), a
// line left out while the shop has set none. This is migration 017's wording with 022's number and
// 023's 発送予定, which a new shop has as version 1 (an older store has it as a later version); a new
// wording needs a migration of its own (src/messaging/README.md says how).

const RESERVATION_DETAILS = [
  'ご予約番号: {{reservationNumber}}',
  '商品: {{productName}}',
  '価格: {{price}}',
  '受付日時: {{reservedAt}}',
].join('\n');
/** The details with when the preorder campaign ships: a line left out for a reservation without one. */
const PREORDER_DETAILS = `${RESERVATION_DETAILS}\n発送予定: {{shipsIn}}`;
/** The preorder campaign's note to its customers: a line left out for a reservation without one. */
const PREORDER_NOTE = '{{preorderNote}}';
const MANAGE = 'ご予約の確認・キャンセルはこちらのページから行えます:\n{{manageUrl}}';
const CONTACT = 'ご不明な点やお心当たりのない場合は、お手数ですが下記までお問い合わせください。';
const SIGNATURE = '{{shopSignature}}';

export const DEFAULT_TEMPLATES: Record<TemplateKind, TemplateText> = {
  'reservation-received': {
    subject: 'ご予約を受け付けました（{{productName}}）',
    body: [
      '{{name}} 様',
      'このたびはご予約いただき、誠にありがとうございます。\n以下の内容でご予約を受け付けました。',
      PREORDER_DETAILS,
      PREORDER_NOTE,
      '■ 今後の流れ\n1. 担当者がご予約内容を確認し、あらためてメールでご連絡いたします。\n2. 商品のご用意ができ次第、お支払い方法とお受け取り方法をご案内いたします。',
      MANAGE,
      CONTACT,
      SIGNATURE,
    ].join('\n\n'),
  },
  'reservation-confirmed': {
    subject: 'ご予約が確定しました（{{productName}}）',
    body: [
      '{{name}} 様',
      'ご予約いただいた商品について、担当者が内容を確認し、ご予約を確定いたしました。\n商品のご用意ができ次第、お支払い方法とお受け取り方法をあらためてご案内いたします。',
      PREORDER_DETAILS,
      PREORDER_NOTE,
      'ご予約の内容はこちらのページでご確認いただけます。確定したご予約のキャンセルは、下記までご連絡ください:\n{{manageUrl}}',
      CONTACT,
      SIGNATURE,
    ].join('\n\n'),
  },
  'reservation-fulfilled': {
    subject: '商品のお渡しが完了しました（{{productName}}）',
    body: [
      '{{name}} 様',
      'ご予約の商品のお渡しが完了しました。\nこのたびはご利用いただき、誠にありがとうございました。製品についてご不明な点がございましたら、お気軽に下記までお問い合わせください。',
      RESERVATION_DETAILS,
      'ご予約の記録:\n{{manageUrl}}',
      SIGNATURE,
    ].join('\n\n'),
  },
  'reservation-cancelled': {
    subject: 'ご予約をキャンセルしました（{{productName}}）',
    body: [
      '{{name}} 様',
      '以下のご予約をキャンセルいたしました。\nまたのご利用を心よりお待ちしております。',
      RESERVATION_DETAILS,
      'ご予約の記録:\n{{manageUrl}}',
      CONTACT,
      SIGNATURE,
    ].join('\n\n'),
  },
  'restock-available': {
    subject: '【入荷のお知らせ】{{productName}}',
    body: [
      '入荷通知にご登録いただいた商品が入荷しました。\n数に限りがございますので、お早めに商品ページをご確認ください。',
      '商品: {{productName}}\n価格: {{price}}',
      '商品ページを見る:\n{{productUrl}}',
      'このメールは、この商品の入荷通知にご登録いただいた方に、下記のショップからお送りしています。',
      '配信停止（この商品の入荷通知を解除する）:\n{{unsubscribeUrl}}',
      SIGNATURE,
    ].join('\n\n'),
  },
};
