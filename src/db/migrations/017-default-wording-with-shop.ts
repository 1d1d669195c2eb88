import type { Kysely } from 'kysely';

// The default wording that names the shop: every kind ends with the shop's signature (its name,
// address, phone, contact address and hours, a line left out while unset), the reservation kinds
// carry the preorder campaign's note, and the emails no longer say they come from an address that
// cannot be answered. Each kind still on migration 007's text (enabled, and subject and body as
// written there) gets this text as its next version; a kind staff edited or turned off keeps its own,
// and emails already queued keep the version they were queued with. Both texts are copied here,
// never imported, so this migration means the same in every database (src/messaging/README.md).

/** Migration 007's text, as the version this one replaces. */
const PREVIOUS = [
  {
    kind: 'reservation-received',
    subject: 'ご予約を受け付けました（{{productName}}）',
    body: [
      '{{name}} 様',
      '',
      'このたびはご予約いただき、誠にありがとうございます。',
      '以下の内容でご予約を受け付けました。',
      '',
      'ご予約番号: {{reservationId}}',
      '商品: {{productName}}',
      '価格: {{price}}',
      '受付日時: {{reservedAt}}',
      '',
      '■ 今後の流れ',
      '1. 担当者がご予約内容を確認し、あらためてメールでご連絡いたします。',
      '2. 商品のご用意ができ次第、お支払い方法とお受け取り方法をご案内いたします。',
      '',
      'ご予約の確認・キャンセルはこちらのページから行えます:',
      '{{manageUrl}}',
      '',
      'このメールは送信専用のアドレスからお送りしています。お心当たりのない場合は、このメールを破棄してください。',
    ].join('\n'),
  },
  {
    kind: 'reservation-confirmed',
    subject: 'ご予約が確定しました（{{productName}}）',
    body: [
      '{{name}} 様',
      '',
      'ご予約いただいた商品について、担当者が内容を確認し、ご予約を確定いたしました。',
      '商品のご用意ができ次第、お支払い方法とお受け取り方法をあらためてご案内いたします。',
      '',
      'ご予約番号: {{reservationId}}',
      '商品: {{productName}}',
      '価格: {{price}}',
      '受付日時: {{reservedAt}}',
      '',
      'ご予約の確認・キャンセルはこちらのページから行えます:',
      '{{manageUrl}}',
      '',
      'このメールは送信専用のアドレスからお送りしています。お心当たりのない場合は、このメールを破棄してください。',
    ].join('\n'),
  },
  {
    kind: 'reservation-fulfilled',
    subject: '商品のお渡しが完了しました（{{productName}}）',
    body: [
      '{{name}} 様',
      '',
      'ご予約の商品のお渡しが完了しました。',
      'このたびはご利用いただき、誠にありがとうございました。製品についてご不明な点がございましたら、お気軽にショップまでお問い合わせください。',
      '',
      'ご予約番号: {{reservationId}}',
      '商品: {{productName}}',
      '価格: {{price}}',
      '受付日時: {{reservedAt}}',
      '',
      'ご予約の記録:',
      '{{manageUrl}}',
      '',
      'このメールは送信専用のアドレスからお送りしています。お心当たりのない場合は、このメールを破棄してください。',
    ].join('\n'),
  },
  {
    kind: 'reservation-cancelled',
    subject: 'ご予約をキャンセルしました（{{productName}}）',
    body: [
      '{{name}} 様',
      '',
      '以下のご予約をキャンセルいたしました。',
      'またのご利用を心よりお待ちしております。',
      '',
      'ご予約番号: {{reservationId}}',
      '商品: {{productName}}',
      '価格: {{price}}',
      '受付日時: {{reservedAt}}',
      '',
      'ご予約の記録:',
      '{{manageUrl}}',
      '',
      'お心当たりのない場合は、お手数ですがショップまでお問い合わせください。このメールは送信専用のアドレスからお送りしています。',
    ].join('\n'),
  },
  {
    kind: 'restock-available',
    subject: '【入荷のお知らせ】{{productName}}',
    body: [
      '入荷通知にご登録いただいた商品が入荷しました。',
      '数に限りがございますので、お早めに商品ページをご確認ください。',
      '',
      '商品: {{productName}}',
      '価格: {{price}}',
      '',
      '商品ページを見る:',
      '{{productUrl}}',
      '',
      'このメールは、この商品の入荷通知にご登録いただいた方にお送りしています。送信専用のアドレスからお送りしているため、ご返信いただいてもお答えできません。',
      '',
      '配信停止（この商品の入荷通知を解除する）:',
      '{{unsubscribeUrl}}',
    ].join('\n'),
  },
];

/** The new text of each kind. */
const NEXT = [
  {
    kind: 'reservation-received',
    subject: 'ご予約を受け付けました（{{productName}}）',
    body: [
      '{{name}} 様',
      '',
      'このたびはご予約いただき、誠にありがとうございます。',
      '以下の内容でご予約を受け付けました。',
      '',
      'ご予約番号: {{reservationId}}',
      '商品: {{productName}}',
      '価格: {{price}}',
      '受付日時: {{reservedAt}}',
      '',
      '{{preorderNote}}',
      '',
      '■ 今後の流れ',
      '1. 担当者がご予約内容を確認し、あらためてメールでご連絡いたします。',
      '2. 商品のご用意ができ次第、お支払い方法とお受け取り方法をご案内いたします。',
      '',
      'ご予約の確認・キャンセルはこちらのページから行えます:',
      '{{manageUrl}}',
      '',
      'ご不明な点やお心当たりのない場合は、お手数ですが下記までお問い合わせください。',
      '',
      '{{shopSignature}}',
    ].join('\n'),
  },
  {
    kind: 'reservation-confirmed',
    subject: 'ご予約が確定しました（{{productName}}）',
    body: [
      '{{name}} 様',
      '',
      'ご予約いただいた商品について、担当者が内容を確認し、ご予約を確定いたしました。',
      '商品のご用意ができ次第、お支払い方法とお受け取り方法をあらためてご案内いたします。',
      '',
      'ご予約番号: {{reservationId}}',
      '商品: {{productName}}',
      '価格: {{price}}',
      '受付日時: {{reservedAt}}',
      '',
      '{{preorderNote}}',
      '',
      'ご予約の内容はこちらのページでご確認いただけます。確定したご予約のキャンセルは、下記までご連絡ください:',
      '{{manageUrl}}',
      '',
      'ご不明な点やお心当たりのない場合は、お手数ですが下記までお問い合わせください。',
      '',
      '{{shopSignature}}',
    ].join('\n'),
  },
  {
    kind: 'reservation-fulfilled',
    subject: '商品のお渡しが完了しました（{{productName}}）',
    body: [
      '{{name}} 様',
      '',
      'ご予約の商品のお渡しが完了しました。',
      'このたびはご利用いただき、誠にありがとうございました。製品についてご不明な点がございましたら、お気軽に下記までお問い合わせください。',
      '',
      'ご予約番号: {{reservationId}}',
      '商品: {{productName}}',
      '価格: {{price}}',
      '受付日時: {{reservedAt}}',
      '',
      'ご予約の記録:',
      '{{manageUrl}}',
      '',
      '{{shopSignature}}',
    ].join('\n'),
  },
  {
    kind: 'reservation-cancelled',
    subject: 'ご予約をキャンセルしました（{{productName}}）',
    body: [
      '{{name}} 様',
      '',
      '以下のご予約をキャンセルいたしました。',
      'またのご利用を心よりお待ちしております。',
      '',
      'ご予約番号: {{reservationId}}',
      '商品: {{productName}}',
      '価格: {{price}}',
      '受付日時: {{reservedAt}}',
      '',
      'ご予約の記録:',
      '{{manageUrl}}',
      '',
      'ご不明な点やお心当たりのない場合は、お手数ですが下記までお問い合わせください。',
      '',
      '{{shopSignature}}',
    ].join('\n'),
  },
  {
    kind: 'restock-available',
    subject: '【入荷のお知らせ】{{productName}}',
    body: [
      '入荷通知にご登録いただいた商品が入荷しました。',
      '数に限りがございますので、お早めに商品ページをご確認ください。',
      '',
      '商品: {{productName}}',
      '価格: {{price}}',
      '',
      '商品ページを見る:',
      '{{productUrl}}',
      '',
      'このメールは、この商品の入荷通知にご登録いただいた方に、下記のショップからお送りしています。',
      '',
      '配信停止（この商品の入荷通知を解除する）:',
      '{{unsubscribeUrl}}',
      '',
      '{{shopSignature}}',
    ].join('\n'),
  },
];

type Versions = {
  email_template_versions: { kind: string; version: number; subject: string; body: string; enabled: number; created_at: string };
};

export async function up(untyped: Kysely<unknown>): Promise<void> {
  const db = untyped as Kysely<Versions>;
  const now = new Date().toISOString();
  for (const next of NEXT) {
    const previous = PREVIOUS.find((text) => text.kind === next.kind)!;
    const current = await db
      .selectFrom('email_template_versions')
      .selectAll()
      .where('kind', '=', next.kind)
      .orderBy('version', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (!current || Number(current.enabled) !== 1 || current.subject !== previous.subject || current.body !== previous.body) continue;
    await db
      .insertInto('email_template_versions')
      .values({
        kind: next.kind,
        version: Number(current.version) + 1,
        subject: next.subject,
        body: next.body,
        enabled: 1,
        created_at: now,
      })
      .execute();
  }
}
