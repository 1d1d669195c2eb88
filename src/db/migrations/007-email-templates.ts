import type { Kysely } from 'kysely';

// The customer emails' templates, one row per saved version, each kind starting with its Japanese
// default as version 1. Queued emails name the version they are rendered with, so versions are
// never changed or deleted.

/**
 * Each kind's version 1: the defaults as they were when this migration was written, copied here and
 * never imported. A migration that read the code's current wording would give "version 1" another
 * text in every database made after a wording change. A new default wording is a new migration with
 * its own copy (src/messaging/README.md says how).
 */
const VERSION_1 = [
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

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('email_template_versions')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('email_template_versions_pk', ['kind', 'version'])
    .execute();
  const now = new Date().toISOString();
  await (db as Kysely<{ email_template_versions: Record<string, string | number> }>)
    .insertInto('email_template_versions')
    .values(VERSION_1.map((text) => ({ ...text, version: 1, enabled: 1, created_at: now })))
    .execute();
}
