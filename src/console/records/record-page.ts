import { ApiError, type Output } from '../../client/tenpo-client.ts';
import { errorMessage } from '../api/errors.ts';
import { confirmDialog } from '../ui/confirm-dialog.ts';
import { copyButton } from '../ui/copy-button.ts';
import { h, replace, type Child } from '../ui/dom.ts';
import { emailKindLabel } from '../../words/email-kinds.ts';
import { formatDateTime } from '../ui/format.ts';
import { labelOf, messageStateLabel, SUPPRESSION_REASON_LABELS, WEBHOOK_LABELS } from '../../words/labels.ts';
import { setArchived } from '../api/records.ts';
import type { ActiveRecord, ArchivedRecord, Column, DetailPath, RecordKind, RowNote } from './record-kind.ts';
import { placeholder } from './record-table.ts';
import type { ScreenContext } from '../screen.ts';
import { readParams, screenHash } from '../shell/url-state.ts';

// A record's own page: the record with its actions (status, memo, archive or restore)
// and what happened to it, newest first: its status moves and memo edits (who, when, whether the
// customer was emailed), archiving, the messages sent about it as they stand, and staff's resends
// of them: all from the record's history.
// Reached from the number in the list; the list's filters and page stay in the URL beside
// `record=<id>`, so the way back shows the list as it was, and a reload shows the page again.

/** A record as its page shows it: archived or not. */
export interface DetailRecord extends ActiveRecord {
  archivedAt: string | null;
}

export interface RecordPage<R extends ActiveRecord, D extends R & DetailRecord> {
  /** The endpoint answering the record and its history. */
  get: DetailPath;
  /** What the page states about the record. */
  facts: Column<D>[];
  /** What staff can change on an active record: the list's own cells (status, memo), with their confirmations. */
  actions: Column<R>[];
}

type HistoryEntry = Output<'/api/admin/reservations/get'>['history'][number];
type MessageEntry = Extract<HistoryEntry, { type: 'message' }>;
type ChangeEntry = Exclude<HistoryEntry, MessageEntry>;

/** Who made a change: the customer on their own page, the staff account by its name, or the admin token (no one's account). */
function madeBy(entry: ChangeEntry): string {
  if (entry.actor === 'customer') return 'お客様ご本人';
  return entry.staffName ?? '管理トークン';
}

/** The URL of a record's page: the list's own state (filters, page, sort) and the record. */
export function recordHref(id: string): string {
  const params = readParams();
  params.set('record', id);
  return `${screenHash()}?${params}`;
}

/** The URL of the list the page was opened from: its state without the record. */
function listHref(): string {
  const params = readParams();
  params.delete('record');
  const query = params.toString();
  return `${screenHash()}${query ? `?${query}` : ''}`;
}

/** The number as a link to its page. */
/** A link to the record's own page, reading `shown` (what staff call it: a reservation's number) or its id. */
export function recordLink(id: string, shown: string = id): HTMLAnchorElement {
  return h('a', { href: recordHref(id), class: 'record-link', title: '詳細とこれまでの履歴' }, h('code', {}, shown));
}

export function renderRecordPage<R extends ActiveRecord, A extends ArchivedRecord, D extends R & DetailRecord>(
  container: HTMLElement,
  kind: RecordKind<R, A>,
  page: RecordPage<R, D>,
  context: ScreenContext,
  id: string,
): void {
  const body = h('div', { class: 'record-body', 'aria-live': 'polite' });
  // The list's cells announce what they did in the banner above the screen; here each outcome is
  // said beside the actions instead (`show(note)`), once.
  const cellContext: ScreenContext = { ...context, announce: () => undefined };
  replace(container, h('p', { class: 'back' }, h('a', { href: listHref() }, `← ${kind.noun}の一覧に戻る`)), body);

  /** Loads the record and its history, and draws them; `note` says what just happened. */
  async function show(note?: RowNote): Promise<void> {
    body.setAttribute('aria-busy', 'true');
    try {
      const answer: Record<string, unknown> = await context.api.call(page.get, { id });
      const record = answer[kind.endpoints.itemKey] as D;
      const history = answer.history as HistoryEntry[];
      replace(
        body,
        head(record),
        note && h('p', { class: `page-note ${note.tone}`, role: note.tone === 'error' ? 'alert' : 'status' }, note.text),
        suppressionNote(record),
        actions(record),
        h(
          'section',
          { class: 'facts', 'aria-label': '内容' },
          h(
            'dl',
            {},
            ...page.facts.flatMap((fact) => [
              h('dt', {}, fact.label),
              h(
                'dd',
                { class: fact.class },
                fact.cell(record, context, () => void show()),
              ),
            ]),
          ),
        ),
        timeline(record, history),
      );
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) {
        return replace(body, placeholder(`この${kind.noun}は見つかりません（削除された可能性があります）。`));
      }
      context.fail(error);
      replace(
        body,
        placeholder(`この${kind.noun}を読み込めませんでした。`, h('button', { type: 'button', onClick: () => void show() }, '再試行')),
      );
    } finally {
      body.removeAttribute('aria-busy');
    }
  }

  /**
   * Says, when the customer's address gets no email (a bounce, a complaint: 配信停止), why, so staff
   * know the customer was not told; filled in once the service answers, empty otherwise.
   */
  function suppressionNote(record: D): HTMLElement {
    const note = h('p', { class: 'page-note error suppressed', role: 'status', hidden: true });
    const address = (record as { email?: unknown }).email;
    if (typeof address !== 'string') return note;
    void context.api.call('/api/admin/email-suppressions/list', { address }).then(
      ({ suppressions: [suppression] }) => {
        if (!suppression) return;
        replace(
          note,
          `このお客様のメールアドレスは配信停止中です（${labelOf(SUPPRESSION_REASON_LABELS, suppression.reason)}、${formatDateTime(suppression.since)}から）。お客様へのメールは送られません。`,
          h('a', { href: '#/suppressions' }, '配信停止を見る'),
        );
        note.hidden = false;
      },
      // The record is shown all the same; a failed look-up only leaves the note out.
      () => undefined,
    );
    return note;
  }

  function head(record: D): HTMLElement {
    const shown = kind.shownId?.(record) ?? record.id;
    const state = record.archivedAt
      ? h('span', { class: 'state closed' }, 'アーカイブ済み')
      : h('span', { class: 'state' }, labelOf(kind.statusLabels, record.status));
    return h(
      'div',
      { class: 'view-head record-head' },
      h('h1', {}, `${kind.idLabel} `, h('code', {}, shown)),
      copyButton(shown, kind.idLabel),
      state,
    );
  }

  function actions(record: D): HTMLElement {
    const update = (_updated: R, note?: RowNote) => void show(note);
    const archive: HTMLButtonElement = h(
      'button',
      { type: 'button', class: record.archivedAt ? 'primary' : 'danger', onClick: () => void setArchive(record, archive) },
      record.archivedAt ? 'アーカイブから元に戻す…' : 'アーカイブ…',
    );
    if (record.archivedAt) {
      return h(
        'section',
        { class: 'record-actions', 'aria-label': '操作' },
        h('p', {}, `アーカイブ済みの${kind.noun}は変更できません（${formatDateTime(record.archivedAt)} にアーカイブ）。`),
        archive,
      );
    }
    return h(
      'section',
      { class: 'record-actions', 'aria-label': '操作' },
      ...page.actions.map((action) =>
        h(
          'div',
          { class: `action ${action.class ?? ''}` },
          h('span', { class: 'label' }, action.label),
          action.cell(record, cellContext, update),
        ),
      ),
      h('div', { class: 'action' }, archive),
    );
  }

  async function setArchive(record: D, button: HTMLButtonElement): Promise<void> {
    const archiving = record.archivedAt === null;
    const asked = archiving
      ? {
          title: `${kind.noun}のアーカイブ`,
          message: `この${kind.noun}をアーカイブします。一覧には表示されなくなり、アーカイブ済みの一覧から元に戻せます。`,
          confirm: 'アーカイブする',
          danger: true,
        }
      : { title: `${kind.noun}を元に戻す`, message: `この${kind.noun}をアーカイブから元に戻し、一覧に表示します。`, confirm: '元に戻す' };
    if (!(await confirmDialog(asked))) return;
    button.disabled = true;
    try {
      const result = await setArchived(context.api, kind.endpoints, archiving, [{ id: record.id, productSlug: record.productSlug }]);
      const refused = result.errors[0];
      if (refused) return void show({ text: `${refused.reason}。`, tone: 'error' });
      await show({ text: archiving ? 'アーカイブしました。' : 'アーカイブから元に戻しました。', tone: 'success' });
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return context.fail(error);
      await show({ text: errorMessage(error), tone: 'error' });
    }
  }

  function timeline(record: D, history: HistoryEntry[]): HTMLElement {
    const messages = new Map(history.flatMap((entry) => (entry.type === 'message' ? [[entry.messageId, entry] as const] : [])));
    const events: { at: string; what: Child; who: string; tone?: string }[] = [
      { at: record.createdAt, what: `${kind.noun}を受け付けました`, who: 'お客様' },
      // A message at the time it was queued, after the change that queued it (the history's order).
      ...history.map((entry) =>
        entry.type === 'message'
          ? { at: entry.at, what: messageText(entry), who: 'システム', tone: entry.status === 'dead' ? 'bad' : undefined }
          : { at: entry.at, what: historyText(entry, messages), who: madeBy(entry) },
      ),
    ];
    // Newest first; a tie keeps the order above (the record, then its history in order).
    const ordered = events
      .map((event, index) => ({ event, index }))
      .sort((a, b) => Date.parse(b.event.at) - Date.parse(a.event.at) || b.index - a.index);
    return h(
      'section',
      { class: 'history', 'aria-label': '履歴' },
      h('h2', {}, 'これまでの履歴'),
      h(
        'ol',
        { class: 'timeline' },
        ...ordered.map(({ event }) =>
          h(
            'li',
            { class: event.tone },
            h('time', { datetime: event.at }, formatDateTime(event.at)),
            h('span', { class: 'what' }, event.what),
            h('span', { class: 'who' }, event.who),
          ),
        ),
      ),
    );
  }

  function historyText(entry: ChangeEntry, messages: Map<string, MessageEntry>): Child {
    switch (entry.type) {
      case 'status':
        return `ステータスを「${labelOf(kind.statusLabels, entry.from)}」から「${labelOf(kind.statusLabels, entry.to)}」に変更${customerEmail(entry, messages)}`;
      case 'memo':
        return h(
          'span',
          { class: 'memo-change' },
          'メモを変更: ',
          entry.after ? h('span', { class: 'memo-after' }, `「${entry.after}」`) : h('span', { class: 'muted' }, '（空に）'),
          entry.before && h('span', { class: 'before' }, `変更前: ${entry.before}`),
        );
      case 'archived':
        return 'アーカイブしました';
      case 'unarchived':
        return 'アーカイブから元に戻しました';
      case 'retry': {
        const message = messages.get(entry.messageId);
        return `送信失敗の${message ? messageName(message) : 'メッセージ'}を再送`;
      }
    }
  }

  void show();
}

/**
 * What became of the customer's email a move queued: the email queued with it (at the same time)
 * as it stands now, so one withdrawn or given up is not said to have been sent.
 */
function customerEmail(entry: Extract<ChangeEntry, { type: 'status' }>, messages: Map<string, MessageEntry>): string {
  if (entry.customerEmailed === null) return '';
  if (!entry.customerEmailed) return '（お客様へのメールなし）';
  const email = [...messages.values()].find((message) => message.channel === 'email' && message.at === entry.at);
  if (email?.status === 'superseded') return '（お客様へのメールは送信取りやめ）';
  if (email?.status === 'dead') return '（お客様へのメールは送信失敗）';
  return '（お客様にメールを送信）';
}

/** A message's name in staff's words: its channel and template (or webhook). */
function messageName(message: MessageEntry): string {
  return message.channel === 'email'
    ? `メール「${emailKindLabel(message.kind)}」`
    : `チャット通知（${labelOf(WEBHOOK_LABELS, message.to)}）`;
}

/** What a message was, in staff's words: its name, where to, and how it stands. */
function messageText(message: MessageEntry): Child {
  const what = message.channel === 'email' ? `${messageName(message)}（${message.to}）` : messageName(message);
  const state = messageStateLabel(message);
  return h(
    'span',
    {},
    `${what}: ${state}`,
    message.status === 'dead' && message.lastError && h('span', { class: 'before' }, `理由: ${message.lastError}`),
  );
}
