// The console's words for the API's status values.

export const RESERVATION_STATUS_LABELS: Record<string, string> = {
  pending: '未対応',
  confirmed: '確定',
  fulfilled: 'お渡し済み',
  cancelled: 'キャンセル',
  // Statuses of records from the previous system, still found in the archive.
  reserved: '予約済み（旧）',
  responded: '対応済み（旧）',
};

export const SUBSCRIPTION_STATUS_LABELS: Record<string, string> = {
  pending: '通知待ち',
  notified: '通知済み',
  unsubscribed: '配信停止',
};

/** The label of a status, or the value itself for one the console does not know. */
export function labelOf(labels: Record<string, string>, status: string): string {
  return Object.hasOwn(labels, status) ? labels[status]! : status;
}
