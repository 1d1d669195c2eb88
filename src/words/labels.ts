// Staff's words for the API's status values, the same wherever they appear: the console and the CSV
// export; and the customer's words for a reservation's status, on their own page. The server and
// the console both import them from here; neither imports the other.

export const RESERVATION_STATUS_LABELS: Record<string, string> = {
  pending: '未対応',
  confirmed: '確定',
  fulfilled: 'お渡し済み',
  cancelled: 'キャンセル',
  // Statuses of records from the previous system, still found in the archive.
  reserved: '予約済み（旧）',
  responded: '対応済み（旧）',
};

/**
 * A reservation's status as its customer reads it on their own page: not staff's 未対応 ("nobody
 * has looked at it yet") but 受付中 (taken, being handled).
 */
export const CUSTOMER_RESERVATION_STATUS_LABELS: Record<string, string> = {
  pending: '受付中',
  confirmed: '確定',
  fulfilled: 'お渡し済み',
  cancelled: 'キャンセル済み',
  // Statuses of records from the previous system.
  reserved: '受付中',
  responded: '対応済み',
};

export const SUBSCRIPTION_STATUS_LABELS: Record<string, string> = {
  pending: '通知待ち',
  notified: '通知済み',
  unsubscribed: '配信停止',
};

/** A message's status in the outbox. */
export const MESSAGE_STATUS_LABELS: Record<string, string> = {
  pending: '送信待ち',
  sent: '送信済み',
  skipped: '送信せず（送信先が未設定）',
  dead: '送信失敗',
  superseded: '送信取りやめ（状況が変わったため）',
};

/** Why a suppressed address gets no email (配信停止). */
export const SUPPRESSION_REASON_LABELS: Record<string, string> = {
  complaint: '新規メール停止中（迷惑メールとして報告されました）',
  hard_bounce: '配信不能（宛先のメールボックスがありません）',
  soft_bounces: '配信不能（7日間に3回届きませんでした）',
};

/** How a message stands, in staff's words: an email skipped for its suppressed address says so. */
export function messageStateLabel(message: { status: string; lastError: string | null }): string {
  if (message.status === 'skipped' && message.lastError === 'suppressed') return '送信せず（配信停止中のアドレス）';
  return labelOf(MESSAGE_STATUS_LABELS, message.status);
}

/** The shop's own settings (店舗情報), wherever they are named. */
export const SHOP_FIELD_LABELS = {
  name: '店名',
  contactEmail: '連絡先メールアドレス',
  phone: '電話番号',
  address: '所在地',
  hours: '営業時間',
} as const;

export const CHANNEL_LABELS: Record<string, string> = { email: 'メール', chat: 'チャット' };

/** The shop's chat webhooks by name, which is a chat message's kind and its `to` in the message log. */
export const WEBHOOK_LABELS: Record<string, string> = { reservation: '予約の通知', restock: '再入荷通知の登録', public: '再入荷の告知' };

/** Where a chat message went, by its webhook's name: the shop's own chat, or the public announcement channel. */
export const CHAT_DESTINATION_LABELS: Record<string, string> = {
  reservation: 'ショップのチャット',
  restock: 'ショップのチャット',
  public: '告知用のチャンネル（公開）',
};

/** The label of a status, or the value itself for one the console does not know. */
export function labelOf(labels: Record<string, string>, status: string): string {
  return Object.hasOwn(labels, status) ? labels[status]! : status;
}

/** A preorder campaign's settings, as the 予約受付 editor labels them. */
export const PREORDER_FIELD_LABELS = {
  opensAt: '受付開始',
  closesAt: '受付終了',
  capacity: '台数',
  perCustomerLimit: 'お一人様の上限',
  shipsIn: '発送予定',
  note: 'お知らせ',
} as const;
