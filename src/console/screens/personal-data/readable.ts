import type { Output } from '../../../client/tenpo-client.ts';
import { emailKindLabel } from '../../../words/email-kinds.ts';
import {
  labelOf,
  messageStateLabel,
  CUSTOMER_RESERVATION_STATUS_LABELS,
  SUPPRESSION_REASON_LABELS,
  SUBSCRIPTION_STATUS_LABELS,
  WEBHOOK_LABELS,
} from '../../../words/labels.ts';
import { productName, type ProductOption } from '../../api/products.ts';
import { formatJapanTime as when } from '../../../text/japan-format.ts';
import { formatCount, japanDay } from '../../ui/format.ts';

// The personal-data export as a customer reads it: a plain text file any computer or phone opens,
// in Japanese, times in Japan time, products by name, statuses as the customer's own page names
// them, messages in words, reservations by the number the customer knows. The JSON answer stays
// the file for systems.

type PersonalData = Output<'/api/admin/personal-data/export'>;
type Reservation = PersonalData['reservations'][number];
type Subscription = PersonalData['subscriptions'][number];
type Message = PersonalData['messages'][number];
type HistoryEntry = PersonalData['history'][number]['entries'][number];

/** Windows' line breaks, which every editor reads; a byte-order mark before them, so old Windows editors read UTF-8. */
const LINE_BREAK = '\r\n';
export const TEXT_FILE_START = '\uFEFF';

/**
 * The file's name: `個人情報-<address>-<the day in Japan>.<ext>`, with whatever a file name may not
 * hold on some system (Windows refuses `<>:"/\|?*`, every system control characters) made `_`,
 * and the address cut to 100 characters so the name fits every file system's 255 bytes.
 */
export function exportFileName(email: string, madeAt: Date, extension: 'txt' | 'json'): string {
  const address = [...email.replace(/[<>:"/\\|?*\p{Cc}]/gu, '_')].slice(0, 100).join('');
  return `個人情報-${address}-${japanDay(madeAt)}.${extension}`;
}

export function readableExport(
  data: PersonalData,
  options: { products: Map<string, ProductOption>; shopName: string; madeAt: Date },
): string {
  const shop = options.shopName.trim() || '当店';
  const product = (slug: string) => productName(options.products, slug);
  const historyOf = new Map(data.history.map((h) => [h.recordId, h.entries]));
  const recordName = new Map<string, string>([
    ...data.reservations.map((r) => [r.id, `ご予約番号 ${r.number}`] as const),
    ...data.subscriptions.map((s) => [s.id, `再入荷通知の登録 ${s.id}`] as const),
  ]);
  const lines: string[] = [
    `${shop}が保存しているお客様の情報`,
    '',
    `メールアドレス: ${data.email}`,
    `作成日時: ${when(options.madeAt.toISOString())}`,
    '',
    `このメールアドレスについて${shop}が保存している情報のすべてです（アーカイブ済みのものを含みます）。時刻はすべて日本時間です。`,
    '',
    ...section(
      `ご予約（${formatCount(data.reservations.length)} 件）`,
      data.reservations.flatMap((r) => [...reservation(r), '']),
    ),
    ...section(
      `再入荷通知のご登録（${formatCount(data.subscriptions.length)} 件）`,
      data.subscriptions.flatMap((s) => [...subscription(s), '']),
    ),
    ...section(`お送りしたメールと、${shop}のスタッフ用チャットへの通知（${formatCount(data.messages.length)} 件）`, [
      ...data.messages.map((m) => `${when(m.createdAt)}　${messageText(m)}`),
      '',
    ]),
    ...section(`メールの配信停止（${formatCount(data.suppressions.length)} 件）`, [
      ...data.suppressions.map((s) => {
        const since = `${when(s.since)}から　${labelOf(SUPPRESSION_REASON_LABELS, s.reason)}`;
        return s.liftedAt ? `${since}（${when(s.liftedAt)}に解除）` : since;
      }),
      '',
    ]),
  ];
  return TEXT_FILE_START + lines.join(LINE_BREAK) + LINE_BREAK;

  function reservation(r: Reservation): string[] {
    return [
      `ご予約番号 ${r.number}`,
      ...facts([
        ['商品', product(r.productSlug)],
        ['お名前', r.name],
        ['メールアドレス', r.email],
        ['状態', labelOf(CUSTOMER_RESERVATION_STATUS_LABELS, r.status)],
        ['受付日時', when(r.createdAt)],
        ['初回対応日時', r.respondedAt && when(r.respondedAt)],
        ['最終更新日時', when(r.updatedAt)],
        ['予約受付', r.preorderId && '予約受付（台数や期間を決めた受付）でのご予約'],
        ['アーカイブ', r.archivedAt && `${when(r.archivedAt)}（一覧から外して保管しています）`],
        ['メモ（当店の記録）', r.notes],
      ]),
      ...timeline(r.id, r.createdAt, 'ご予約を受け付けました', CUSTOMER_RESERVATION_STATUS_LABELS),
    ];
  }

  function subscription(s: Subscription): string[] {
    return [
      `登録番号 ${s.id}`,
      ...facts([
        ['商品', product(s.productSlug)],
        ['メールアドレス', s.email],
        ['状態', labelOf(SUBSCRIPTION_STATUS_LABELS, s.status)],
        ['登録日時', when(s.createdAt)],
        ['通知日時', s.notifiedAt && when(s.notifiedAt)],
        ['最終更新日時', when(s.updatedAt)],
        ['アーカイブ', s.archivedAt && `${when(s.archivedAt)}（一覧から外して保管しています）`],
      ]),
      ...timeline(s.id, s.createdAt, '再入荷通知のご登録を受け付けました', SUBSCRIPTION_STATUS_LABELS),
    ];
  }

  /** A record's history, oldest first, from its creation; `labels` name its kind's statuses. */
  function timeline(recordId: string, createdAt: string, created: string, labels: Record<string, string>): string[] {
    const entries = historyOf.get(recordId) ?? [];
    return [
      '  これまでの経過:',
      `    ${when(createdAt)}　${created}`,
      ...entries.map((entry) => `    ${when(entry.at)}　${change(entry, labels)}`),
    ];
  }

  function change(entry: HistoryEntry, labels: Record<string, string>): string {
    // The export keeps a record's messages in its messages, but the entry's type allows one here.
    if (entry.type === 'message') return messageText({ ...entry, recordId: null });
    const by = entry.actor === 'customer' ? 'お客様ご本人' : shop;
    switch (entry.type) {
      case 'status': {
        const emailed = entry.customerEmailed ? '、メールでお知らせ' : '';
        return `状態を「${labelOf(labels, entry.from)}」から「${labelOf(labels, entry.to)}」に変更（${by}${emailed}）`;
      }
      case 'memo':
        return `メモを${entry.after ? `「${oneLine(entry.after)}」に` : '空に'}変更（${by}${entry.before ? `。変更前は「${oneLine(entry.before)}」` : ''}）`;
      case 'archived':
        return `アーカイブしました（${by}）`;
      case 'unarchived':
        return `アーカイブから戻しました（${by}）`;
      case 'retry':
        return `お送りできなかった通知を送り直しました（${by}）`;
    }
  }

  function messageText(m: Pick<Message, 'channel' | 'kind' | 'to' | 'status' | 'lastError' | 'sentAt' | 'recordId'>): string {
    const what =
      m.channel === 'email'
        ? `メール「${emailKindLabel(m.kind)}」（宛先 ${m.to}）`
        : `${shop}のスタッフ用チャットへの通知「${labelOf(WEBHOOK_LABELS, m.kind)}」`;
    const state = m.status === 'sent' && m.sentAt ? `送信済み（${when(m.sentAt)}）` : messageStateLabel(m);
    const about = m.recordId && recordName.get(m.recordId);
    return `${what}: ${state}${about ? `（${about} について）` : ''}`;
  }
}

/** A part of the file under its heading; `body` ends with a blank line, or is empty when there is nothing. */
function section(heading: string, body: string[]): string[] {
  return [`■ ${heading}`, '', ...(body.length > 1 ? body : ['  ありません。', ''])];
}

/** `  label: value` for each value there is; a value of several lines continues under the first, indented. */
function facts(pairs: [string, string | null | undefined][]): string[] {
  return pairs.flatMap(([label, value]) => (value ? [`  ${label}: ${value.replace(/\r?\n/g, `${LINE_BREAK}    `)}`] : []));
}

function oneLine(text: string): string {
  return text.replace(/\s*\r?\n\s*/g, ' / ');
}
