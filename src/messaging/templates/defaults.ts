import type { TemplateKind, TemplateText } from '../kinds.ts';

// The Japanese text each kind has until staff edit it, keeping the wording of the emails the service
// sent before templates were editable: what a template is compared with for `isDefault`. The
// store's version 1 of each kind is migration 007's own copy of this text as it was then; a new
// wording needs a migration of its own (src/messaging/README.md says how).

const RESERVATION_DETAILS = ['ご予約番号: {{reservationId}}', '商品: {{productName}}', '価格: {{price}}', '受付日時: {{reservedAt}}'].join(
  '\n',
);
const MANAGE = 'ご予約の確認・キャンセルはこちらのページから行えます:\n{{manageUrl}}';
const SEND_ONLY = 'このメールは送信専用のアドレスからお送りしています。お心当たりのない場合は、このメールを破棄してください。';

export const DEFAULT_TEMPLATES: Record<TemplateKind, TemplateText> = {
  'reservation-received': {
    subject: 'ご予約を受け付けました（{{productName}}）',
    body: [
      '{{name}} 様',
      'このたびはご予約いただき、誠にありがとうございます。\n以下の内容でご予約を受け付けました。',
      RESERVATION_DETAILS,
      '■ 今後の流れ\n1. 担当者がご予約内容を確認し、あらためてメールでご連絡いたします。\n2. 商品のご用意ができ次第、お支払い方法とお受け取り方法をご案内いたします。',
      MANAGE,
      SEND_ONLY,
    ].join('\n\n'),
  },
  'reservation-confirmed': {
    subject: 'ご予約が確定しました（{{productName}}）',
    body: [
      '{{name}} 様',
      'ご予約いただいた商品について、担当者が内容を確認し、ご予約を確定いたしました。\n商品のご用意ができ次第、お支払い方法とお受け取り方法をあらためてご案内いたします。',
      RESERVATION_DETAILS,
      MANAGE,
      SEND_ONLY,
    ].join('\n\n'),
  },
  'reservation-fulfilled': {
    subject: '商品のお渡しが完了しました（{{productName}}）',
    body: [
      '{{name}} 様',
      'ご予約の商品のお渡しが完了しました。\nこのたびはご利用いただき、誠にありがとうございました。製品についてご不明な点がございましたら、お気軽にショップまでお問い合わせください。',
      RESERVATION_DETAILS,
      'ご予約の記録:\n{{manageUrl}}',
      SEND_ONLY,
    ].join('\n\n'),
  },
  'reservation-cancelled': {
    subject: 'ご予約をキャンセルしました（{{productName}}）',
    body: [
      '{{name}} 様',
      '以下のご予約をキャンセルいたしました。\nまたのご利用を心よりお待ちしております。',
      RESERVATION_DETAILS,
      'ご予約の記録:\n{{manageUrl}}',
      'お心当たりのない場合は、お手数ですがショップまでお問い合わせください。このメールは送信専用のアドレスからお送りしています。',
    ].join('\n\n'),
  },
  'restock-available': {
    subject: '【入荷のお知らせ】{{productName}}',
    body: [
      '入荷通知にご登録いただいた商品が入荷しました。\n数に限りがございますので、お早めに商品ページをご確認ください。',
      '商品: {{productName}}\n価格: {{price}}',
      '商品ページを見る:\n{{productUrl}}',
      'このメールは、この商品の入荷通知にご登録いただいた方にお送りしています。送信専用のアドレスからお送りしているため、ご返信いただいてもお答えできません。',
      '配信停止（この商品の入荷通知を解除する）:\n{{unsubscribeUrl}}',
    ].join('\n\n'),
  },
};
