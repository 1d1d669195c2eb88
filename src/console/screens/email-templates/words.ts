import type { TemplateKind } from '../../../messaging/kinds.ts';

// The email templates screen's words: when each kind goes out, each placeholder's meaning, and the
// service's template problems in Japanese. The kinds' names are src/words/email-kinds.ts.

export const TEMPLATE_KIND_WHEN: Record<TemplateKind, string> = {
  'reservation-received': 'ご予約を受け付けたときに送信します（無効にはできません）。',
  'reservation-confirmed': '予約のステータスを「確定」に変更したときに送信します。',
  'reservation-fulfilled': '予約のステータスを「お渡し済み」に変更したときに送信します。',
  'reservation-cancelled': '予約を「キャンセル」にしたとき（お客様ご自身のキャンセルを含む）に送信します。',
  'restock-available': '「再入荷通知を送信」で、通知待ちの方に送信します（無効にはできません）。',
};

export const PLACEHOLDER_LABELS: Record<string, string> = {
  name: 'お名前',
  productName: '商品名',
  productUrl: '商品ページURL',
  price: '価格',
  reservationId: 'ご予約番号',
  reservedAt: '受付日時',
  manageUrl: '予約確認ページURL',
  unsubscribeUrl: '配信停止URL',
};

const FIELD_WORDS: Record<string, string> = { subject: '件名', body: '本文' };

/** A template problem (a detail of the service's `Invalid template`) as staff read it; one the console does not know stays as it is. */
export function templateProblemText(message: string): string {
  const unknown = /^Unknown placeholder: (\{\{.*\}\})$/.exec(message);
  if (unknown) return `${unknown[1]} は使えない差し込み項目です（大文字・小文字も区別されます）`;
  const missing = /^Missing required placeholder: \{\{(.*)\}\}$/.exec(message);
  if (missing) return `必須の差し込み項目 {{${missing[1]}}}（${PLACEHOLDER_LABELS[missing[1]!] ?? missing[1]}）が本文にありません`;
  const unbalanced = /^Unbalanced \{\{ at character (\d+)/.exec(message);
  if (unbalanced) return `${unbalanced[1]}文字目の「{{」が閉じられていません（「}}」で閉じてください）`;
  const length = /^(subject|body) must be 1–([\d,]+) characters \(it has (\d+)\)$/.exec(message);
  if (length) return `${FIELD_WORDS[length[1]!]}は1〜${length[2]}文字で入力してください（現在 ${length[3]} 文字）`;
  if (message === 'subject must be one line') return '件名に改行は入れられません';
  const nul = /^(subject|body) must not contain NUL$/.exec(message);
  if (nul) return `${FIELD_WORDS[nul[1]!]}に使えない文字（NUL）が含まれています`;
  if (message.endsWith(' cannot be disabled')) return 'このメールは無効にできません';
  if (message.startsWith('to must be')) return '有効なメールアドレスを入力してください';
  return message;
}
