import { labelOf, RESERVATION_STATUS_LABELS } from '../words/labels.ts';
import { formatJapanTime } from '../text/japan-format.ts';
import { htmlPage } from '../text/html-page.ts';
import { escapeHtml } from '../text/safe-text.ts';
import { MANAGE_PATH } from '../messaging/links.ts';
import type { Reservation } from './store.ts';

// The customer's reservation page (the link in every reservation email): the reservation with the
// console's status words (src/words/labels.ts), and while it is pending a plain form to cancel it,
// so it works without JavaScript. It shows no email address: whoever holds the link sees only what
// the email already said.

export type PageNotice = 'cancelled' | 'not-pending';

export function reservationPage(reservation: Reservation, productName: string, token: string, notice?: PageNotice): string {
  const e = escapeHtml;
  const status = labelOf(RESERVATION_STATUS_LABELS, reservation.status);
  const cancellable = reservation.status === 'pending' && reservation.archived_at === null;
  const parts: string[] = [];
  if (notice === 'cancelled') parts.push('<p class="notice" role="status">ご予約をキャンセルしました。</p>');
  if (notice === 'not-pending') parts.push(`<p class="notice warn" role="status">${e(whyNot(reservation, status))}</p>`);
  parts.push(
    '<dl>',
    `<dt>ご予約番号</dt><dd>${e(reservation.id)}</dd>`,
    `<dt>商品</dt><dd>${e(productName)}</dd>`,
    `<dt>状態</dt><dd>${e(status)}</dd>`,
    `<dt>受付日時</dt><dd>${e(formatJapanTime(reservation.created_at))}</dd>`,
    '</dl>',
  );
  if (cancellable) {
    parts.push(
      `<form method="post" action="${MANAGE_PATH}">`,
      `<input type="hidden" name="token" value="${e(token)}">`,
      '<p>ご予約をキャンセルする場合は、下のボタンを押してください。キャンセルした予約は元に戻せません。</p>',
      '<button type="submit">予約をキャンセルする</button>',
      '</form>',
    );
  } else if (!notice) {
    parts.push(`<p>${e(whyNot(reservation, status))}</p>`);
  }
  parts.push('<p style="color: #666; font-size: .9em;">ご不明な点は、ご予約番号を添えてショップまでお問い合わせください。</p>');
  return htmlPage('ご予約の確認', parts.join('\n'));
}

/** Why this reservation cannot be cancelled here. */
function whyNot(reservation: Reservation, status: string): string {
  if (reservation.status === 'cancelled') return 'このご予約はすでにキャンセルされています。';
  if (reservation.archived_at !== null || reservation.status !== 'pending')
    return `このご予約は「${status}」のため、このページからはキャンセルできません。ショップまでお問い合わせください。`;
  return '';
}

export function invalidManageLinkPage(): string {
  return htmlPage(
    'リンクが無効です',
    [
      'このリンクは正しくないか、すでに使えなくなっています。',
      'お手数ですが、ご予約のメールに記載のリンクをもう一度そのままお開きください。',
    ]
      .map((p) => `<p>${escapeHtml(p)}</p>`)
      .join('\n'),
  );
}

export function reservationGonePage(): string {
  return htmlPage('ご予約が見つかりません', '<p>このご予約は削除されたため、表示できません。ショップまでお問い合わせください。</p>');
}
