import { ApiError } from '../../client/tenpo-client.ts';
import { labelOf } from '../../words/labels.ts';

// What staff read when a call fails: a sentence in Japanese saying what happened and what to do.
// The service's own (English) wording is kept in brackets where it adds a fact.

const SERVICE_TEXTS: Record<string, string> = {
  'Invalid status': 'ステータスの指定が正しくありません',
  'notes must be a string of at most 2000 characters': 'メモは2000文字以内で入力してください',
  'ids array cannot exceed 500 items': '一度に操作できるのは500件までです',
  'ids array cannot be empty': '対象が選択されていません',
  'Reservation is archived': 'この予約はアーカイブ済みです',
  'Subscription is archived': 'この登録はアーカイブ済みです',
  'Reservation not found': '予約が見つかりません',
  'Subscription not found': '登録が見つかりません',
  'Reservation already archived': 'すでにアーカイブ済みです',
  'Subscription already archived': 'すでにアーカイブ済みです',
  'Reservation is not archived': 'アーカイブされていません',
  'Subscription is not archived': 'アーカイブされていません',
  'Invalid item': '指定が正しくありません',
  'Another pending subscription exists for this email and product': '同じメールアドレスと商品の通知待ちの登録がほかにあります',
  'Product not found': '商品が見つかりません',
  'Reservation was changed by someone else': 'この予約は他の担当者が先に変更しました',
  'Subscription was changed by someone else': 'この登録は他の担当者が先に変更しました',
};

/** The service's error text in Japanese when the console knows it. */
export function serviceText(text: string): string {
  return Object.hasOwn(SERVICE_TEXTS, text) ? SERVICE_TEXTS[text]! : text;
}

export const WRONG_TOKEN = '管理トークンが正しくありません。入力したトークンを確認してください。';
export const TOKEN_REJECTED = '管理トークンが無効になりました（変更された可能性があります）。もう一度ログインしてください。';

/** What to tell staff about a failed call; `labels` name the statuses a refused move quotes. */
export function errorMessage(error: unknown, labels: Record<string, string> = {}): string {
  if (!(error instanceof ApiError)) return '予期しないエラーが発生しました。ページを再読み込みしてください。';
  const text = serviceText(error.message);
  switch (true) {
    case error.status === 0:
      return 'サーバーに接続できませんでした。ネットワークを確認して、もう一度お試しください。';
    case error.status === 401:
      return WRONG_TOKEN;
    case error.status === 400:
      return `入力内容に誤りがあります（${text}）。`;
    case error.status === 404:
      return `${text}。他の担当者が削除した可能性があります。一覧を再読み込みしてください。`;
    case error.status === 409:
      return conflictMessage(error.message, text, labels);
    case error.status === 413:
      return '送信する内容が大きすぎます。選択する件数を減らしてください。';
    case error.status === 429:
      return 'リクエストが多すぎます。しばらくしてから再度お試しください。';
    case error.status >= 500:
      return `サーバーエラーが発生しました。しばらくしてから再度お試しください。${error.requestId ? `（問い合わせ番号: ${error.requestId}）` : ''}`;
    default:
      return `エラーが発生しました（HTTP ${error.status}: ${text}）。`;
  }
}

function conflictMessage(original: string, text: string, labels: Record<string, string>): string {
  const move = /^Invalid status transition: (\S+) -> (\S+)$/.exec(original);
  if (move)
    return `ステータスを「${labelOf(labels, move[1]!)}」から「${labelOf(labels, move[2]!)}」へは変更できません。一覧を再読み込みして、現在の状態を確認してください。`;
  return `${text}。一覧を再読み込みして、現在の状態を確認してください。`;
}
