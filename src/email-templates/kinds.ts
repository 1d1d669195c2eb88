// The five customer emails the shop controls (SPEC §6.1), in the table's order, with their
// placeholders and Japanese defaults. The defaults keep the wording of the emails the service sent
// before templates were editable.

export const TEMPLATE_KINDS = [
  'reservation-received',
  'reservation-confirmed',
  'reservation-fulfilled',
  'reservation-cancelled',
  'restock-available',
] as const;
export type TemplateKind = (typeof TEMPLATE_KINDS)[number];

/** The kinds sent about a reservation (status emails and the first one). */
export type ReservationTemplateKind = Exclude<TemplateKind, 'restock-available'>;

export interface Placeholder {
  name: string;
  required: boolean;
}

/** The placeholders whose values are links: in the HTML part they become `<a>` elements. */
export const URL_PLACEHOLDERS: ReadonlySet<string> = new Set(['productUrl', 'manageUrl', 'unsubscribeUrl']);

const RESERVATION_PLACEHOLDERS: Placeholder[] = [
  { name: 'name', required: false },
  { name: 'productName', required: false },
  { name: 'productUrl', required: false },
  { name: 'price', required: false },
  { name: 'reservationId', required: false },
  { name: 'reservedAt', required: false },
  { name: 'manageUrl', required: true },
];

const RESTOCK_PLACEHOLDERS: Placeholder[] = [
  { name: 'productName', required: false },
  { name: 'productUrl', required: false },
  { name: 'price', required: false },
  { name: 'unsubscribeUrl', required: true },
];

export interface KindRules {
  placeholders: Placeholder[];
  /** Whether staff may turn the email off (the receipt and the restock notice are always sent). */
  mayDisable: boolean;
}

export const KIND_RULES: Record<TemplateKind, KindRules> = {
  'reservation-received': { placeholders: RESERVATION_PLACEHOLDERS, mayDisable: false },
  'reservation-confirmed': { placeholders: RESERVATION_PLACEHOLDERS, mayDisable: true },
  'reservation-fulfilled': { placeholders: RESERVATION_PLACEHOLDERS, mayDisable: true },
  'reservation-cancelled': { placeholders: RESERVATION_PLACEHOLDERS, mayDisable: true },
  'restock-available': { placeholders: RESTOCK_PLACEHOLDERS, mayDisable: false },
};

/** The email a move to each status sends (SPEC §6.3); a move back to pending sends none. The console reads it too. */
const EMAIL_OF_STATUS: Readonly<Record<string, ReservationTemplateKind>> = {
  confirmed: 'reservation-confirmed',
  fulfilled: 'reservation-fulfilled',
  cancelled: 'reservation-cancelled',
};

/** The kind of email a move to `status` sends, if any. */
export function statusEmailKind(status: string): ReservationTemplateKind | undefined {
  return Object.hasOwn(EMAIL_OF_STATUS, status) ? EMAIL_OF_STATUS[status] : undefined;
}

export function isTemplateKind(kind: string): kind is TemplateKind {
  return (TEMPLATE_KINDS as readonly string[]).includes(kind);
}

export interface TemplateText {
  subject: string;
  body: string;
}

const RESERVATION_DETAILS = ['ご予約番号: {{reservationId}}', '商品: {{productName}}', '価格: {{price}}', '受付日時: {{reservedAt}}'].join(
  '\n',
);
const MANAGE = 'ご予約の確認・キャンセルはこちらのページから行えます:\n{{manageUrl}}';
const SEND_ONLY = 'このメールは送信専用のアドレスからお送りしています。お心当たりのない場合は、このメールを破棄してください。';

/** Each kind's version 1 (migration 007 stores them), and what `isDefault` compares with. */
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
