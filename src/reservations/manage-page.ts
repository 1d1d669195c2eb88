import { CUSTOMER_RESERVATION_STATUS_LABELS, labelOf } from '../words/labels.ts';
import { formatJapanTime } from '../text/japan-format.ts';
import { htmlPage } from '../text/html-page.ts';
import { escapeHtml } from '../text/safe-text.ts';
import { MANAGE_PATH } from '../messaging/links.ts';
import type { ShopContact } from '../shop/contact.ts';
import { shopContactHtml } from '../shop/contact-html.ts';
import type { Reservation } from './store.ts';

// The customer's reservation page (the link in every reservation email): the reservation in the
// customer's words, its preorder campaign's words, and while it is pending a plain form to cancel
// it, which asks first (a second page with its own form), so it works without JavaScript. When it
// cannot be cancelled here the page says how to reach the shop, whose name and contact end every
// page. It shows no email address of the customer: whoever holds the link sees only what the email
// already said.

/** What the page shows besides the reservation itself. */
export interface PageContext {
  productName: string;
  /** The preorder campaign's words, for a reservation taken under one (null fields: not set). */
  campaign: { shipsIn: string | null; note: string | null } | undefined;
  shop: ShopContact;
}

/** The `ask` of the page's address that asks whether to cancel (the question, by GET). */
export const ASK_CANCEL = 'cancel';

/** The page's own address: where its forms post, and where a cancel sends the browser back to. */
export const managePageUrl = (token: string) => `${MANAGE_PATH}?token=${encodeURIComponent(token)}`;

const e = escapeHtml;

export function reservationPage(reservation: Reservation, token: string, context: PageContext): string {
  const parts = [details(reservation, context)];
  if (cancellable(reservation)) {
    parts.push(
      // A GET: the question is a page of its own address, so Back to it after the cancel reads it
      // again (now saying it is cancelled) instead of asking to resubmit a form.
      `<form method="get" action="${MANAGE_PATH}">`,
      `<input type="hidden" name="token" value="${e(token)}">`,
      `<input type="hidden" name="ask" value="${ASK_CANCEL}">`,
      '<p>ご予約をキャンセルする場合は、下のボタンを押してください。次の画面で確認してからキャンセルします。</p>',
      '<button type="submit">予約をキャンセルする…</button>',
      '</form>',
    );
  } else {
    parts.push(`<p class="notice${reservation.status === 'cancelled' ? '' : ' warn'}" role="status">${e(whyNot(reservation))}</p>`);
  }
  parts.push(contact(context.shop));
  return htmlPage('ご予約の確認', parts.join('\n'));
}

/** The question (`?ask=cancel`, or a form post without `confirm`): the reservation, and a second form that cancels it. */
export function cancelQuestionPage(reservation: Reservation, token: string, context: PageContext): string {
  const parts = [
    '<p class="notice warn" role="alert">このご予約をキャンセルしますか？ キャンセルした予約は元に戻せません。</p>',
    details(reservation, context),
    `<form method="post" action="${MANAGE_PATH}">`,
    `<input type="hidden" name="token" value="${e(token)}">`,
    '<input type="hidden" name="confirm" value="yes">',
    '<div class="actions">',
    '<button type="submit">キャンセルする</button>',
    `<a href="${e(managePageUrl(token))}">キャンセルせずに戻る</a>`,
    '</div>',
    '</form>',
    contact(context.shop),
  ];
  return htmlPage('ご予約のキャンセル', parts.join('\n'));
}

function details(reservation: Reservation, context: PageContext): string {
  const { campaign } = context;
  return [
    '<dl>',
    `<dt>ご予約番号</dt><dd>${e(String(reservation.number))}</dd>`,
    `<dt>商品</dt><dd>${e(context.productName)}</dd>`,
    `<dt>状態</dt><dd>${e(labelOf(CUSTOMER_RESERVATION_STATUS_LABELS, reservation.status))}</dd>`,
    `<dt>受付日時</dt><dd>${e(formatJapanTime(reservation.created_at))}</dd>`,
    campaign?.shipsIn ? `<dt>発送予定</dt><dd>${e(campaign.shipsIn)}</dd>` : '',
    campaign?.note ? `<dt>ご案内</dt><dd class="note">${e(campaign.note)}</dd>` : '',
    '</dl>',
  ].join('');
}

/** Whether the customer may cancel here: a pending, active reservation. */
export const cancellable = (reservation: Reservation) => reservation.status === 'pending' && reservation.archived_at === null;

/** Why this reservation cannot be cancelled here, and what to do instead. */
function whyNot(reservation: Reservation): string {
  if (reservation.status === 'cancelled') return 'このご予約はキャンセル済みです。';
  const because = reservation.status === 'pending' ? '' : `「${labelOf(CUSTOMER_RESERVATION_STATUS_LABELS, reservation.status)}」のため、`;
  return `このご予約は${because}このページからはキャンセルできません。キャンセルやご変更をご希望の場合は、ご予約番号を添えて下記のショップまでご連絡ください。`;
}

/** The shop's name and contact, or, while the shop has set none, the plain advice. */
function contact(shop: ShopContact): string {
  return shopContactHtml(shop) || '<p class="shop">ご不明な点は、ご予約番号を添えてショップまでお問い合わせください。</p>';
}

export function invalidManageLinkPage(shop: ShopContact): string {
  return htmlPage(
    'リンクが無効です',
    [
      'このリンクは正しくないか、すでに使えなくなっています。',
      'お手数ですが、ご予約のメールに記載のリンクをもう一度そのままお開きください。',
    ]
      .map((p) => `<p>${e(p)}</p>`)
      .join('\n') + shopContactHtml(shop),
  );
}

export function reservationGonePage(shop: ShopContact): string {
  return htmlPage(
    'ご予約が見つかりません',
    '<p>このご予約は削除されたため、表示できません。ショップまでお問い合わせください。</p>' + shopContactHtml(shop),
  );
}
