import type { Output } from '../../../client/tenpo-client.ts';
import { confirmDialog } from '../../ui/confirm-dialog.ts';
import { h, replace, type Child } from '../../ui/dom.ts';
import { saveFile } from '../../ui/save-file.ts';
import { formatCount, formatDateTime } from '../../ui/format.ts';
import {
  CHANNEL_LABELS,
  labelOf,
  MESSAGE_STATUS_LABELS,
  RESERVATION_STATUS_LABELS,
  SUBSCRIPTION_STATUS_LABELS,
} from '../../../words/labels.ts';
import { productName } from '../../api/products.ts';
import { placeholder } from '../../records/record-table.ts';
import type { Screen, ScreenContext } from '../../screen.ts';

type PersonalData = Output<'/api/admin/personal-data/export'>;

/**
 * 個人情報: a customer's request to see or erase their data. Staff type the address, see
 * every reservation, restock subscription and message held for it (archived ones too), download it
 * as a JSON file to send to the customer, or erase it all after a dialog naming what goes.
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
        { class: 'personal-search', role: 'search', onSubmit: (event: Event) => (event.preventDefault(), void find(address.value)) },
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
          replace(result, ...showData(data, context, () => void find(data.email)));
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

function showData(data: PersonalData, context: ScreenContext, reload: () => void): Child[] {
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
    h('button', { type: 'button', onClick: () => download(data) }, 'JSONで書き出す'),
    h('button', { type: 'button', class: 'danger', onClick: () => void erase(data, context, reload) }, 'すべて削除…'),
  );
  return [
    summary,
    actions,
    section(
      '予約',
      reservations.length,
      table(
        ['予約番号', '商品', 'お名前', '状態', '受付日時', 'アーカイブ'],
        reservations.map((r) => [
          r.id,
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
          m.kind,
          m.to,
          labelOf(MESSAGE_STATUS_LABELS, m.status),
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

/** The export as the customer gets it: the API's answer, as a file named for the address and the day. */
function download(data: PersonalData): void {
  const content = { email: data.email, reservations: data.reservations, subscriptions: data.subscriptions, messages: data.messages };
  const day = new Date().toISOString().slice(0, 10);
  saveFile(new Blob([JSON.stringify(content, null, 2)], { type: 'application/json' }), `personal-data-${data.email}-${day}.json`);
}

async function erase(data: PersonalData, context: ScreenContext, reload: () => void): Promise<void> {
  const ids = (label: string, records: { id: string }[]) =>
    records.length > 0
      ? h('li', {}, `${label} ${formatCount(records.length)} 件：`, h('span', { class: 'ids' }, records.map((r) => r.id).join('、')))
      : null;
  const message = h(
    'span',
    { class: 'erase-message' },
    `${data.email} の記録をすべて削除します。元に戻せません。`,
    h(
      'ul',
      { class: 'erase-list' },
      ids('予約', data.reservations),
      ids('再入荷通知', data.subscriptions),
      data.messages.length > 0 ? h('li', {}, `送信記録 ${formatCount(data.messages.length)} 件（送信待ちのものは送信されません）`) : null,
    ),
  );
  if (!(await confirmDialog({ title: '個人情報の削除', message, confirm: '削除する' }))) return;
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
