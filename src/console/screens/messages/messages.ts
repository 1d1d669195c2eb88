import type { Input, Output } from '../../../client/tenpo-client.ts';
import { reasonOf } from '../../api/errors.ts';
import { confirmDialog } from '../../ui/confirm-dialog.ts';
import { h, replace } from '../../ui/dom.ts';
import { messageKindLabel } from '../../../words/email-kinds.ts';
import { formatCount, formatDateTime } from '../../ui/format.ts';
import { CHANNEL_LABELS, CHAT_DESTINATION_LABELS, labelOf, MESSAGE_STATUS_LABELS, messageStateLabel } from '../../../words/labels.ts';
import { clipped } from '../../records/columns.ts';
import type { Column } from '../../records/record-kind.ts';
import { listLoader, pagers, placeholder, recordTable } from '../../records/record-table.ts';
import type { Screen, ScreenContext } from '../../screen.ts';
import { pageParam, writeParams } from '../../shell/url-state.ts';

type Message = Output<'/api/admin/messages/list'>['messages'][number];
type Filter = Pick<Input<'/api/admin/messages/list'>, 'recordId' | 'status' | 'channel'>;

const PAGE_SIZE = 50;

/** What a resend does first, said before staff confirm it. */
const CHECKED_FIRST =
  '送信の直前に、予約や登録の今の状況と照らし合わせます。キャンセル済みの予約への確定メールのように、内容が事実と合わなくなったメールは送信せず「送信取りやめ」にします。';

/** Attempts matter while a message is retried or given up, or when it took more than one; a first-time success says nothing. */
const showAttempts = (m: Message) => (m.status === 'pending' || m.status === 'dead' ? m.attempts > 0 : m.attempts > 1);

/**
 * How a record is named where its messages are shown: a reservation by the number customers quote
 * (looked up; by its id when it is gone), a restock signup by its id.
 */
async function recordName(context: ScreenContext, recordId: string): Promise<string> {
  if (recordId.startsWith('ntf_')) return `再入荷通知の登録 ${recordId}`;
  if (!recordId.startsWith('res_')) return recordId;
  try {
    const { reservation } = await context.api.call('/api/admin/reservations/get', { id: recordId });
    return `ご予約番号 ${reservation.number}`;
  } catch {
    return `予約 ${recordId}`;
  }
}

/** Longer than this, a provider's error is shown by its start in the row, the whole of it a tap away. */
const ERROR_EXCERPT = 60;

/**
 * The provider's last answer, which is what staff fix the cause from (a refused address, a field the
 * email API did not take): whole when short; else its start, and the whole text opened on demand,
 * wrapping and selectable to copy.
 */
function lastError(text: string): HTMLElement {
  if (text.length <= ERROR_EXCERPT) return h('span', { class: 'last-error' }, text);
  return h(
    'details',
    { class: 'last-error' },
    h(
      'summary',
      {},
      h('span', { class: 'excerpt' }, `${text.slice(0, ERROR_EXCERPT)}…`),
      h('span', { class: 'toggle' }, h('span', { class: 'when-closed' }, '全文を表示'), h('span', { class: 'when-open' }, '閉じる')),
    ),
    h('p', { class: 'full-error' }, text),
  );
}

/**
 * 送信履歴: every email and chat message the shop sent, is sending, skipped, gave up or found superseded, newest first,
 * filtered by status and channel, or one record's (`#/messages?record=res_…`, from its row). Dead
 * messages are sent again one by one (再送) or the selected ones together, after a confirmation.
 * What a message said is not shown: the log holds whom it went to, not the text.
 */
export function openScreen(context: ScreenContext): Screen {
  return {
    show(container, params) {
      const state = {
        filter: {
          recordId: params.get('record') || undefined,
          status: params.get('status') || undefined,
          channel: params.get('channel') || undefined,
        } as Filter,
        page: pageParam(params.get('page')),
      };
      const selected = new Map<string, Message>();
      const list = h('div', { class: 'list message-log' });
      const remember = () =>
        writeParams({
          record: state.filter.recordId,
          status: state.filter.status,
          channel: state.filter.channel,
          page: state.page > 1 ? state.page : undefined,
        });

      const select = (key: 'status' | 'channel', label: string, labels: Record<string, string>) =>
        h(
          'span',
          { class: 'field' },
          h('label', { for: `messages-${key}` }, label),
          h(
            'select',
            {
              id: `messages-${key}`,
              onChange: (event: Event) => changed({ [key]: (event.target as HTMLSelectElement).value || undefined }),
            },
            h('option', { value: '' }, 'すべて'),
            ...Object.entries(labels).map(([value, text]) => h('option', { value, selected: value === state.filter[key] }, text)),
          ),
        );
      function changed(change: Partial<Filter>): void {
        state.filter = { ...state.filter, ...change };
        state.page = 1;
        selected.clear();
        remember();
        draw();
        void load();
      }

      const count = h('span', { class: 'count' });
      const retryButton: HTMLButtonElement = h(
        'button',
        { type: 'button', onClick: () => void retrySelected() },
        '選択した送信失敗を再送…',
      );
      const bar = h('div', { class: 'selection' }, count, retryButton);
      function showSelection(): void {
        count.textContent = `${formatCount(selected.size)} 件選択中`;
        retryButton.disabled = selected.size === 0;
        bar.hidden = selected.size === 0;
      }

      async function retry(ids: string[]): Promise<{ retried: Set<string>; superseded: Set<string>; failed: string[] } | undefined> {
        try {
          const answer = await context.api.call('/api/admin/messages/retry', { ids });
          const errors = answer.errors ?? [];
          return {
            retried: new Set(answer.retriedIds),
            superseded: new Set(errors.filter((e) => e.code === 'message_superseded').map((e) => e.id)),
            failed: [...new Set(errors.filter((e) => e.code !== 'message_superseded').map((e) => reasonOf(e.code)))],
          };
        } catch (error) {
          context.fail(error);
          return undefined;
        }
      }

      async function retrySelected(): Promise<void> {
        const dead = [...selected.values()].filter((m) => m.status === 'dead');
        const others = selected.size - dead.length;
        if (dead.length === 0)
          return context.announce('選択したメッセージに送信失敗のものはありません。再送できるのは送信失敗のものだけです。', 'error');
        const message = `選択した送信失敗の ${formatCount(dead.length)} 件をもう一度送信します。${others > 0 ? `送信失敗でない ${formatCount(others)} 件はそのままです。` : ''}${CHECKED_FIRST}`;
        if (!(await confirmDialog({ title: '送信失敗の再送', message, confirm: `${formatCount(dead.length)} 件を再送` }))) return;
        retryButton.disabled = true;
        const outcome = await retry(dead.map((m) => m.id));
        if (outcome) {
          const { retried, superseded } = outcome;
          const failed = dead.length - retried.size - superseded.size;
          const text = [
            retried.size > 0 && `${formatCount(retried.size)} 件を再送の待ち行列に戻しました。まもなく送信されます。`,
            superseded.size > 0 && `${formatCount(superseded.size)} 件は再送しませんでした（${reasonOf('message_superseded')}）。`,
            failed > 0 && `${formatCount(failed)} 件は再送できませんでした（${outcome.failed.join('、')}）。`,
          ]
            .filter(Boolean)
            .join('');
          context.announce(text, retried.size < dead.length ? 'error' : 'success');
          selected.clear();
          await load();
        }
        showSelection();
      }

      const columns: Column<Message>[] = [
        { label: '日時', cell: (m) => formatDateTime(m.createdAt) },
        { label: 'チャネル', cell: (m) => labelOf(CHANNEL_LABELS, m.channel), class: 'nowrap' },
        { label: '種類', cell: (m) => messageKindLabel(m), class: 'nowrap' },
        { label: '宛先', cell: (m) => (m.channel === 'email' ? clipped(m.to) : labelOf(CHAT_DESTINATION_LABELS, m.to)), class: 'email' },
        {
          label: 'ステータス',
          cell: (m) =>
            h(
              'span',
              { class: `message-status ${m.status}` },
              messageStateLabel(m),
              showAttempts(m) ? h('small', {}, `（試行 ${formatCount(m.attempts)} 回）`) : null,
            ),
        },
        { label: '送信日時', cell: (m) => formatDateTime(m.sentAt) },
        { label: 'エラー', cell: (m) => (m.lastError ? lastError(m.lastError) : '—'), class: 'error-cell' },
        {
          label: '対象',
          cell: (m) => {
            if (!m.recordId) return '—';
            const named = m.reservation
              ? `${m.reservation.number} ${m.reservation.name}`
              : m.recordId.startsWith('ntf_')
                ? '再入荷通知の登録'
                : m.recordId;
            return h(
              'a',
              { href: `#/messages?record=${encodeURIComponent(m.recordId)}`, class: 'record-link', title: m.recordId },
              clipped(named),
            );
          },
          class: 'about',
        },
        {
          label: '操作',
          cell(m, _context, update) {
            if (m.status !== 'dead') return null;
            const button: HTMLButtonElement = h(
              'button',
              {
                type: 'button',
                class: 'retry',
                onClick: async () => {
                  button.disabled = true;
                  const outcome = await retry([m.id]);
                  if (!outcome) return void (button.disabled = false);
                  if (outcome.retried.has(m.id)) {
                    update(
                      { ...m, status: 'pending', attempts: 0, lastError: null },
                      { text: '再送の待ち行列に戻しました。まもなく送信されます。', tone: 'success' },
                    );
                  } else if (outcome.superseded.has(m.id)) {
                    update(
                      { ...m, status: 'superseded' },
                      { text: `再送しませんでした（${reasonOf('message_superseded')}）。`, tone: 'error' },
                    );
                  } else {
                    update(m, {
                      text: `再送できませんでした（${outcome.failed.join('、')}）。一覧を再読み込みしてください。`,
                      tone: 'error',
                    });
                  }
                },
              },
              '再送',
            );
            return button;
          },
        },
      ];

      const load = listLoader(list, context, async (isLatest) => {
        const answer = await context.api.call('/api/admin/messages/list', { ...state.filter, page: state.page, pageSize: PAGE_SIZE });
        if (!isLatest()) return;
        if (answer.messages.length === 0 && answer.total > 0) {
          state.page = Math.max(1, answer.totalPages);
          remember();
          return void load();
        }
        showSelection();
        if (answer.messages.length === 0) return replace(list, placeholder('該当するメッセージはありません。'));
        const onPage = new Set([...selected.keys()].filter((id) => answer.messages.some((m) => m.id === id)));
        const pages = pagers(answer, state, () => (remember(), void load()));
        replace(
          list,
          pages.top,
          recordTable({
            records: answer.messages,
            columns,
            noun: 'メッセージ',
            context,
            selected: onPage,
            onSelectionChange: () => {
              for (const m of answer.messages) {
                if (onPage.has(m.id)) selected.set(m.id, m);
                else selected.delete(m.id);
              }
              showSelection();
            },
          }),
          pages.bottom,
        );
      });

      const head = h('div', { class: 'view-head' });
      const filters = h('div', { class: 'filters' });
      function draw(): void {
        const title = h('h1', {}, '送信履歴');
        const recordId = state.filter.recordId;
        if (recordId) void recordName(context, recordId).then((name) => (title.textContent = `${name} の送信履歴`));
        replace(
          head,
          title,
          state.filter.recordId
            ? h('button', { type: 'button', onClick: () => changed({ recordId: undefined }) }, 'すべての送信履歴を表示')
            : null,
        );
        replace(
          filters,
          select('status', 'ステータス', MESSAGE_STATUS_LABELS),
          select('channel', 'チャネル', CHANNEL_LABELS),
          h('button', { type: 'button', onClick: () => void load() }, '再読み込み'),
        );
      }
      draw();
      replace(
        container,
        head,
        h(
          'p',
          { class: 'hint' },
          'お客様へのメールとショップのチャット通知の送信状況です（本文は保存していません）。送信失敗は再送できます。送信の直前には毎回、予約や登録の今の状況と照らし合わせ、事実と合わなくなったメールは「送信取りやめ」にして送りません。',
        ),
        filters,
        bar,
        list,
      );
      showSelection();
      void load();
    },
  };
}
