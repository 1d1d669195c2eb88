import { ApiError } from '../../client/tenpo-client.ts';
import { allowsMove } from '../../records/status-transitions.ts';
import { errorReason } from '../api/errors.ts';
import { confirmDialog } from '../ui/confirm-dialog.ts';
import { downloadCsv } from '../api/csv-export.ts';
import { h, replace } from '../ui/dom.ts';
import { formatCount } from '../ui/format.ts';
import { labelOf } from '../../words/labels.ts';
import { activePage, changeStatus, listActive } from '../api/records.ts';
import type { ActiveRecord, ArchivedRecord, ListState, RecordKind, Sort } from './record-kind.ts';
import { filterBar, listLoader, pagers, placeholder, recordTable, setArchivedSelected } from './record-table.ts';
import type { ScreenContext } from '../screen.ts';
import { customerEmailOf } from './status-change.ts';
import { emailChoice, emailOutcome } from './status-email.ts';

/** Rows a page: a laptop screen shows a good part of it, and a phone scrolls it without trouble. */
const PAGE_SIZE = 50;

/** The active list's own order (newest first), shown on its column while no other is asked for. */
const NEWEST_FIRST: Sort = { by: 'createdAt', order: 'desc' };

/**
 * The active records of a kind, a page at a time: search and filters, the table, status changes,
 * and moving or archiving the selected ones, which may be every record the filters match.
 */
export function renderActiveList<R extends ActiveRecord, A extends ArchivedRecord>(
  container: HTMLElement,
  kind: RecordKind<R, A>,
  context: ScreenContext,
  state: ListState,
  onState: () => void,
): void {
  /** The selected records by id, kept across pages and reloads until acted on or cleared. */
  const selected = new Map<string, R>();
  const list = h('div', { class: 'list' });
  let records: R[] = [];
  let total = 0;

  const count = h('span', { class: 'count' });
  const selectAll: HTMLButtonElement = h('button', { type: 'button', class: 'link', onClick: () => void selectEveryMatch() });
  const clear: HTMLButtonElement = h(
    'button',
    { type: 'button', class: 'link', onClick: () => (selected.clear(), void load()) },
    '選択を解除',
  );
  const progress = h('span', { class: 'progress', role: 'status' });
  const target = h(
    'select',
    { id: 'bulk-status', 'aria-label': '変更後のステータス' },
    ...kind.statusTable.statuses.map((status) => h('option', { value: status }, labelOf(kind.statusLabels, status))),
  );
  const moveButton: HTMLButtonElement = h('button', { type: 'button', onClick: () => void act(moveSelected) }, 'ステータスを変更…');
  const archiveButton: HTMLButtonElement = h('button', { type: 'button', onClick: () => void act(archiveSelected) }, '選択をアーカイブ…');
  const bar = h(
    'div',
    { class: 'selection' },
    count,
    selectAll,
    clear,
    h('span', { class: 'field' }, target, moveButton),
    archiveButton,
    progress,
  );

  function showSelection(): void {
    count.textContent = `${formatCount(selected.size)} 件選択中`;
    const none = selected.size === 0;
    moveButton.disabled = none;
    archiveButton.disabled = none;
    clear.hidden = none;
    selectAll.hidden = total <= records.length || selected.size >= total;
    selectAll.textContent = `条件に一致する ${formatCount(total)} 件をすべて選択`;
  }

  async function selectEveryMatch(): Promise<void> {
    selectAll.disabled = true;
    try {
      for (const record of await listActive<R>(context.api, kind.endpoints, state.filter)) selected.set(record.id, record);
      await load();
    } catch (error) {
      context.fail(error);
    } finally {
      selectAll.disabled = false;
    }
  }

  /** Runs a bulk action with the bar's buttons disabled. */
  async function act(action: () => Promise<void>): Promise<void> {
    moveButton.disabled = archiveButton.disabled = true;
    try {
      await action();
    } finally {
      progress.textContent = '';
      showSelection();
    }
  }

  async function archiveSelected(): Promise<void> {
    const n = selected.size;
    if (
      !(await confirmDialog({
        title: `${kind.noun}のアーカイブ`,
        message: `選択した ${formatCount(n)} 件の${kind.noun}をアーカイブします。アーカイブ済みの一覧から元に戻せます。`,
        confirm: `${formatCount(n)} 件をアーカイブ`,
      }))
    )
      return;
    const chosen = [...selected.values()];
    await setArchivedSelected({
      kind,
      context,
      archived: true,
      records: chosen,
      selected: new Set(selected.keys()),
      done: 'アーカイブしました',
      progress: (done, all) => (progress.textContent = `アーカイブ中… ${formatCount(done)} / ${formatCount(all)} 件`),
      reload: async () => {
        selected.clear();
        await load();
      },
    });
  }

  /** Moves each selected record to the chosen status, one request each, naming the updatedAt it was shown with. */
  async function moveSelected(): Promise<void> {
    const to = target.value;
    const label = labelOf(kind.statusLabels, to);
    const chosen = [...selected.values()];
    const email = await customerEmailOf(kind, context, to);
    if (email === null) return;
    const choice = email && emailChoice(email, 'ステータスが変わる予約のお客様それぞれ');
    const message = h(
      'span',
      {},
      `選択した ${formatCount(chosen.length)} 件の${kind.noun}のステータスを「${label}」に変更します。`,
      choice && choice.element,
    );
    if (!(await confirmDialog({ title: 'ステータスの一括変更', message, confirm: `「${label}」に変更` }))) return;
    const notify = choice ? { notifyCustomer: choice.notify() } : {};
    const failures = new Map<string, number>();
    let moved = 0;
    for (const [index, record] of chosen.entries()) {
      progress.textContent = `変更中… ${formatCount(index)} / ${formatCount(chosen.length)} 件`;
      if (!allowsMove(kind.statusTable, record.status, to)) {
        const reason = `「${labelOf(kind.statusLabels, record.status)}」からは変更できません`;
        failures.set(reason, (failures.get(reason) ?? 0) + 1);
        continue;
      }
      try {
        await changeStatus(context.api, kind.endpoints, record, { status: to, ...notify });
        moved++;
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) return context.fail(error);
        const reason = errorReason(error);
        failures.set(reason, (failures.get(reason) ?? 0) + 1);
      }
    }
    const failed = [...failures].map(([reason, n]) => `${reason}: ${formatCount(n)} 件`);
    const summary = `${formatCount(moved)} 件の${kind.noun}を「${label}」に変更しました。${moved > 0 ? emailOutcome(email, notify.notifyCustomer ?? false) : ''}`;
    context.announce(
      failed.length > 0 ? `${summary}変更できなかったもの — ${failed.join('、')}。` : summary,
      failed.length > 0 ? 'error' : 'success',
    );
    selected.clear();
    await load();
  }

  const load = listLoader(list, context, async (isLatest) => {
    const answer = await activePage<R>(context.api, kind.endpoints, {
      ...state.filter,
      sort: state.sort,
      page: state.page,
      pageSize: PAGE_SIZE,
    });
    if (!isLatest()) return;
    if (answer.items.length === 0 && answer.total > 0) {
      // The page emptied (its records were archived meanwhile): show the last one there is.
      state.page = Math.max(1, answer.totalPages);
      onState();
      return void load();
    }
    records = answer.items;
    total = answer.total;
    showSelection();
    if (records.length === 0) return replace(list, placeholder(`該当する${kind.noun}はありません。`));
    const ids = new Set(records.map((record) => record.id));
    const onPage = new Set([...selected.keys()].filter((id) => ids.has(id)));
    const pages = pagers(answer, state, () => (onState(), void load()));
    replace(
      list,
      pages.top,
      recordTable({
        records,
        columns: kind.columns,
        noun: kind.noun,
        context,
        selected: onPage,
        sort: { current: state.sort ?? NEWEST_FIRST, change: sortBy },
        onSelectionChange: () => {
          for (const record of records) {
            if (onPage.has(record.id)) selected.set(record.id, record);
            else selected.delete(record.id);
          }
          showSelection();
        },
      }),
      pages.bottom,
    );
  });

  /** A header asked for another order: from the first page, the selection kept. */
  function sortBy(sort: Sort): void {
    state.sort = sort;
    state.page = 1;
    onState();
    void load();
  }

  replace(
    container,
    kind.panel?.(context, () => void load()),
    filterBar({
      statuses: [...kind.statusTable.statuses],
      labels: kind.statusLabels,
      products: context.products,
      filter: state.filter,
      searchHint: kind.searchHint,
      onChange: (filter) => {
        state.filter = filter;
        state.page = 1;
        selected.clear();
        onState();
        void load();
      },
      onReload: () => void load(),
      onExport: () =>
        downloadCsv(kind.endpoints.archive, state.filter, { archived: false, sort: state.sort }).catch((error: unknown) =>
          context.fail(error),
        ),
    }),
    bar,
    list,
  );
  showSelection();
  void load();
}
