import type { Output } from '../../../client/tenpo-client.ts';
import { confirmDialog } from '../../ui/confirm-dialog.ts';
import { h, replace, type Child } from '../../ui/dom.ts';
import { saveFile } from '../../ui/save-file.ts';
import { formatCount, formatDateTime } from '../../ui/format.ts';
import { messageKindLabel } from '../../../words/email-kinds.ts';
import {
  CHANNEL_LABELS,
  CHAT_DESTINATION_LABELS,
  labelOf,
  messageStateLabel,
  RESERVATION_STATUS_LABELS,
  SUBSCRIPTION_STATUS_LABELS,
} from '../../../words/labels.ts';
import { productName } from '../../api/products.ts';
import { placeholder } from '../../records/record-table.ts';
import type { Screen, ScreenContext } from '../../screen.ts';
import { exportFileName, readableExport } from './readable.ts';

type PersonalData = Output<'/api/admin/personal-data/export'>;

/**
 * 個人情報: a customer's request to see or erase their data. Staff type the address, see
 * every reservation, restock subscription and message held for it (archived ones too), download it
 * as a text file to send to the customer (readable.ts) or as JSON for systems, or erase it all
 * after a dialog naming what goes and what stays outside the shop.
 */
export function openScreen(context: ScreenContext): Screen {
  return {
    show(container) {
      const address = h('input', {
        type: 'text',
        id: 'personal-email',
        inputmode: 'email',
        autocomplete: 'off',
        maxlength: 254,
        required: true,
        placeholder: 'customer@example.com',
      });
      const result = h('div', { class: 'personal-result' });
      const form = h(
        'form',
        {
          class: 'personal-search',
          role: 'search',
          // An empty or malformed address is said by the service's refusal, in Japanese: no browser bubble.
          novalidate: true,
          onSubmit: (event: Event) => (event.preventDefault(), void find(address.value)),
        },
        h('label', { for: 'personal-email' }, 'メールアドレス'),
        address,
        h('button', { type: 'submit', class: 'primary' }, '検索'),
      );
      replace(
        container,
        h('div', { class: 'view-head' }, h('h1', {}, '個人情報')),
        h(
          'p',
          { class: 'hint' },
          'お客様から開示・削除の依頼があったとき、メールアドレスで保存しているすべての記録（アーカイブ済みを含む）を探します。大文字・小文字は区別しません。',
        ),
        form,
        result,
      );

      async function find(email: string): Promise<void> {
        result.setAttribute('aria-busy', 'true');
        try {
          const data = await context.api.call('/api/admin/personal-data/export', { email });
          // The files are named with the address as typed: the customer's own, not the canonical form the service compares.
          replace(result, ...showData(data, email.trim(), context, () => void find(email)));
        } catch (error) {
          context.fail(error);
          replace(result);
        } finally {
          result.removeAttribute('aria-busy');
        }
      }
    },
  };
}

function showData(data: PersonalData, typed: string, context: ScreenContext, reload: () => void): Child[] {
  const { reservations, subscriptions, messages } = data;
  const total = reservations.length + subscriptions.length + messages.length;
  const summary = h(
    'p',
    { class: 'personal-summary', 'data-testid': 'personal-summary' },
    h('strong', {}, data.email),
    `：予約 ${formatCount(reservations.length)} 件、再入荷通知 ${formatCount(subscriptions.length)} 件、送信記録 ${formatCount(messages.length)} 件`,
  );
  if (total === 0) return [summary, placeholder('このメールアドレスの記録はありません。')];
  const actions = h(
    'div',
    { class: 'actions' },
    h(
      'button',
      { type: 'button', class: 'primary', onClick: () => void downloadReadable(data, typed, context) },
      'お客様用ファイル（テキスト）',
    ),
    h('button', { type: 'button', onClick: () => downloadJson(data, typed) }, 'システム用ファイル（JSON）'),
    h('button', { type: 'button', class: 'danger', onClick: () => void erase(data, context, reload) }, 'すべて削除…'),
  );
  return [
    summary,
    actions,
    h(
      'p',
      { class: 'hint' },
      'お客様にはテキストファイルを送ってください。日本語の見出し、日本時間、商品名、ご予約番号、各記録の経過（ステータスの変更とメモ）を載せた、どのパソコンやスマートフォンでも開けるファイルです。JSON はほかのシステムに取り込むためのものです。',
    ),
    section(
      '予約',
      reservations.length,
      table(
        ['ご予約番号', '商品', 'お名前', '状態', '受付日時', 'アーカイブ'],
        reservations.map((r) => [
          String(r.number),
          productName(context.products, r.productSlug),
          r.name,
          labelOf(RESERVATION_STATUS_LABELS, r.status),
          formatDateTime(r.createdAt),
          archived(r.archivedAt),
        ]),
      ),
    ),
    section(
      '再入荷通知',
      subscriptions.length,
      table(
        ['登録番号', '商品', '状態', '登録日時', 'アーカイブ'],
        subscriptions.map((s) => [
          s.id,
          productName(context.products, s.productSlug),
          labelOf(SUBSCRIPTION_STATUS_LABELS, s.status),
          formatDateTime(s.createdAt),
          archived(s.archivedAt),
        ]),
      ),
    ),
    section(
      '送信記録',
      messages.length,
      table(
        ['種類', '内容', '宛先', '状態', '作成', '送信'],
        messages.map((m) => [
          labelOf(CHANNEL_LABELS, m.channel),
          messageKindLabel(m),
          m.channel === 'email' ? m.to : labelOf(CHAT_DESTINATION_LABELS, m.to),
          messageStateLabel(m),
          formatDateTime(m.createdAt),
          formatDateTime(m.sentAt),
        ]),
      ),
    ),
  ];
}

const archived = (at: string | null) => (at ? `済（${formatDateTime(at)}）` : '—');

function section(title: string, count: number, content: HTMLElement): HTMLElement {
  return h(
    'section',
    { class: 'personal-section', 'aria-label': title },
    h('h2', {}, `${title}（${formatCount(count)} 件）`),
    count > 0 ? content : placeholder('ありません。'),
  );
}

function table(headings: string[], rows: string[][]): HTMLTableElement {
  return h(
    'table',
    { class: 'records personal' },
    h('thead', {}, h('tr', {}, ...headings.map((label) => h('th', {}, label)))),
    h('tbody', {}, ...rows.map((row) => h('tr', {}, ...row.map((value, i) => h('td', { 'data-label': headings[i]! }, value))))),
  );
}

/** The export as the customer reads it, named for the address as typed and the day in Japan; it names the shop as its settings do. */
async function downloadReadable(data: PersonalData, typed: string, context: ScreenContext): Promise<void> {
  let shopName: string;
  try {
    shopName = (await context.api.call('/api/admin/shop/get', {})).shop.name;
  } catch (error) {
    return context.fail(error);
  }
  const madeAt = new Date();
  const text = readableExport(data, { products: context.products, shopName, madeAt });
  saveFile(new Blob([text], { type: 'text/plain;charset=utf-8' }), exportFileName(typed, madeAt, 'txt'));
}

/** The export for systems: the API's answer as it is, named as the customer's file is. */
function downloadJson(data: PersonalData, typed: string): void {
  const { success: _success, ...content } = data;
  saveFile(new Blob([JSON.stringify(content, null, 2)], { type: 'application/json' }), exportFileName(typed, new Date(), 'json'));
}

/**
 * Asks before erasing, naming what goes (each reservation by its number, each subscription by its
 * id, the count of messages) and what stays outside the shop: the chat posts already made, which
 * carry the name and address (staff delete them in the chat, each named with when it was posted),
 * and the emails already in the customer's mailbox.
 */
async function erase(data: PersonalData, context: ScreenContext, reload: () => void): Promise<void> {
  const ids = (label: string, names: string[]) =>
    names.length > 0 ? h('li', {}, `${label} ${formatCount(names.length)} 件：`, h('span', { class: 'ids' }, names.join('、'))) : null;
  const sent = (channel: string) => data.messages.filter((m) => m.channel === channel && m.status === 'sent');
  const posts = sent('chat');
  const emails = sent('email');
  const message = h(
    'span',
    { class: 'erase-message' },
    `${data.email} の記録をすべて削除します。元に戻せません。`,
    h(
      'ul',
      { class: 'erase-list' },
      ids(
        '予約',
        data.reservations.map((r) => String(r.number)),
      ),
      ids(
        '再入荷通知',
        data.subscriptions.map((s) => s.id),
      ),
      data.messages.length > 0 ? h('li', {}, `送信記録 ${formatCount(data.messages.length)} 件（送信待ちのものは送信されません）`) : null,
    ),
    h('strong', { class: 'outside-heading' }, '当店の外に残るもの（この削除では消えません）'),
    h(
      'ul',
      { class: 'erase-list outside' },
      posts.length > 0
        ? h(
            'li',
            { 'data-testid': 'chat-posts' },
            `チャット（Slack・Discord）に投稿済みの通知 ${formatCount(posts.length)} 件。お名前とメールアドレスが載っています。削除したら、チャットでこの投稿を探して削除してください：`,
            h('span', { class: 'posts' }, posts.map((m) => `${formatDateTime(m.sentAt)}「${messageKindLabel(m)}」`).join('、')),
          )
        : h('li', { 'data-testid': 'chat-posts' }, 'チャット（Slack・Discord）に投稿済みの通知はありません。'),
      h(
        'li',
        {},
        emails.length > 0
          ? `お客様に送信済みのメール ${formatCount(emails.length)} 件は、お客様のメールボックスに残ります（当店からは消せません）。`
          : '送信済みのメールはありません。',
      ),
    ),
  );
  if (!(await confirmDialog({ title: '個人情報の削除', message, confirm: '削除する', danger: true }))) return;
  try {
    const { erased } = await context.api.call('/api/admin/personal-data/erase', { email: data.email });
    context.announce(
      `${data.email} の記録を削除しました（予約 ${formatCount(erased.reservations)} 件、再入荷通知 ${formatCount(erased.subscriptions)} 件、送信記録 ${formatCount(erased.messages)} 件）。`,
      'success',
    );
    reload();
  } catch (error) {
    context.fail(error);
  }
}
