import type { TemplateKind } from '../../../messaging/kinds.ts';
import type { TemplateProblem } from '../../../messaging/templates/placeholders.ts';
import { formatCount } from '../../ui/format.ts';

// The email templates screen's words: when each kind goes out, each placeholder's meaning, and the
// problems of a template in Japanese. The kinds' names are src/words/email-kinds.ts.

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
  reservationNumber: 'ご予約番号',
  reservationId: '予約ID',
  reservedAt: '受付日時',
  manageUrl: '予約確認ページURL',
  unsubscribeUrl: '配信停止URL',
  shipsIn: '発送予定',
  preorderNote: '予約受付のお知らせ',
  shopSignature: 'ショップの署名',
};

const FIELD_WORDS: Record<'subject' | 'body', string> = { subject: '件名', body: '本文' };

/** A problem of a template, as staff read it: what is wrong and how to fix it. */
export function problemWords(problem: TemplateProblem): string {
  switch (problem.type) {
    case 'length':
      return `${FIELD_WORDS[problem.field]}は1〜${formatCount(problem.max)}文字で入力してください（現在 ${formatCount(problem.length)} 文字）`;
    case 'nul':
      return `${FIELD_WORDS[problem.field]}に使えない文字（NUL）が含まれています`;
    case 'unbalanced':
      return `${problem.at}文字目の「{{」が閉じられていません（「}}」で閉じてください）`;
    case 'unknownPlaceholder':
      return `{{${problem.name}}} は使えない差し込み項目です（大文字・小文字も区別されます）`;
    case 'missingPlaceholder':
      return `必須の差し込み項目 {{${problem.name}}}（${PLACEHOLDER_LABELS[problem.name] ?? problem.name}）が本文にありません`;
    case 'multiline':
      return '件名に改行は入れられません';
    case 'alwaysSent':
      return 'このメールは無効にできません';
  }
}
