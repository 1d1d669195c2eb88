import { ApiError } from '../../client/tenpo-client.ts';
import { allowsMove } from '../../records/status-transitions.ts';
import { errorReason, reasonOf } from '../api/errors.ts';
import { confirmDialog } from '../ui/confirm-dialog.ts';
import { downloadCsv, mayTakeInBulk } from '../api/csv-export.ts';
import { h, replace } from '../ui/dom.ts';
import { formatCount } from '../ui/format.ts';
import { labelOf } from '../../words/labels.ts';
import { activePage, BULK_BATCH, findActive, listActive, moveInBulk } from '../api/records.ts';
import type { ActiveRecord, ArchivedRecord, ListState, RecordKind, Sort } from './record-kind.ts';
import { filterBar, listLoader, pagers, placeholder, recordTable } from './record-table.ts';
import type { ScreenContext } from '../screen.ts';
import { bulkFailures, bulkOutcome, setArchivedInBatches, type Failure } from './bulk.ts';
import { whatMoveDoes } from './status-change.ts';
import { emailChoice, emailOutcome, TYPED_EMAILS_ABOVE, typedEmailCount } from './status-email.ts';

/** Rows a page: a laptop screen shows a good part of it, and a phone scrolls it without trouble. */
const PAGE_SIZE = 50;

/** The active list's own order (newest first), shown on its column while no other is asked for. */
const NEWEST_FIRST: Sort = { by: 'createdAt', order: 'desc' };

/**
 * The active records of a kind, a page at a time: search and filters, the table, status changes,
 * and moving or archiving the selected ones, which may be every record the filters match. A move
 * that would email more than 20 customers asks for the number of emails to be typed. After a bulk
 * action, the records it could not change are named with why, and stay selected.
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
  const failures = bulkFailures(kind);
  const clear: HTMLButtonElement = h(
    'button',
    { type: 'button', class: 'link', onClick: () => (selected.clear(), failures.clear(), void load()) },
    '選択を解除',
  );
  const progress = h('span', { class: 'progress', role: 'status' });
  const target = h(
    'select',
    { id: 'bulk-status', 'aria-label': '変更後のステータス' },
    ...kind.statusTable.statuses.map((status) => h('option', { value: status }, labelOf(kind.statusLabels, status))),
  );
  const moveButton: HTMLButtonElement = h('button', { type: 'button', onClick: () => void act(moveSelected) }, 'ステータスを変更…');
  const archiveButton: HTMLButtonElement = h(
    'button',
    { type: 'button', class: 'danger', onClick: () => void act(archiveSelected) },
    '選択をアーカイブ…',
  );
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
    bar.hidden = none;
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
    failures.clear();
    try {
      await action();
    } finally {
      progress.textContent = '';
      showSelection();
    }
  }

  /** After a bulk action: says how it went, keeps exactly the records it could not change selected, names each, and reloads. */
  async function settle(done: string, failed: Failure<R>[], couldNot: string, failedTo: string): Promise<void> {
    const { message, tone } = bulkOutcome(done, failed.length, couldNot);
    context.announce(message, tone);
    selected.clear();
    for (const { record } of failed) selected.set(record.id, record);
    failures.show(failed, failedTo);
    await load();
  }

  async function archiveSelected(): Promise<void> {
    const n = selected.size;
    if (
      !(await confirmDialog({
        title: `${kind.noun}のアーカイブ`,
        message: `選択した ${formatCount(n)} 件の${kind.noun}をアーカイブします。アーカイブ済みの一覧から元に戻せます。`,
        confirm: `${formatCount(n)} 件をアーカイブ`,
        danger: true,
      }))
    )
      return;
    const outcome = await setArchivedInBatches({
      endpoints: kind.endpoints,
      context,
      archived: true,
      records: [...selected.values()],
      progress: (done, all) => (progress.textContent = `アーカイブ中… ${formatCount(done)} / ${formatCount(all)} 件`),
    });
    if (!outcome) return;
    await settle(
      `${formatCount(outcome.done)} 件の${kind.noun}をアーカイブしました。`,
      outcome.failures,
      'アーカイブできませんでした',
      'アーカイブできなかった',
    );
  }

  /**
   * Moves the selected records to the chosen status, up to BULK_BATCH a request, each naming the
   * updatedAt it was shown with; the progress is said between requests. The confirmation says which email goes; when more than TYPED_EMAILS_ABOVE would,
   * it states how many and works only once that number is typed.
   */
  async function moveSelected(): Promise<void> {
    const to = target.value;
    const label = labelOf(kind.statusLabels, to);
    const chosen = [...selected.values()];
    const effects = await whatMoveDoes(kind, context, chosen, to);
    if (effects === null) return;
    const { email, campaign } = effects;
    const choice = email && emailChoice(email, 'ステータスが変わる予約のお客様それぞれ');
    // Only a record that moves emails: one already there, or that cannot go there, sends nothing.
    const emails = chosen.filter((record) => record.status !== to && allowsMove(kind.statusTable, record.status, to)).length;
    const typed = email && email.enabled && emails > TYPED_EMAILS_ABOVE ? typedEmailCount(emails, email) : undefined;
    const message = h(
      'span',
      {},
      `選択した ${formatCount(chosen.length)} 件の${kind.noun}のステータスを「${label}」に変更します。`,
      campaign && h('span', { class: 'campaign-effect' }, campaign.before),
      choice && choice.element,
      typed?.element,
    );
    const canConfirm = () => {
      const sending = choice !== undefined && choice.notify();
      typed?.show(sending);
      return !typed || !sending || typed.matches();
    };
    if (
      !(await confirmDialog({
        title: 'ステータスの一括変更',
        message,
        confirm: `「${label}」に変更`,
        canConfirm,
        danger: kind.confirmStatuses.includes(to),
      }))
    )
      return;
    const notify = choice ? { notifyCustomer: choice.notify() } : {};
    const failed: Failure<R>[] = [];
    const already = chosen.filter((record) => record.status === to).length;
    // A move the status table does not allow is said at once; the rest go BULK_BATCH a request.
    const moving = chosen.filter((record) => {
      const refused = record.status === to ? undefined : kind.moveRefusal?.(record, to);
      if (refused) failed.push({ record, reason: reasonOf(refused) });
      else if (record.status === to || allowsMove(kind.statusTable, record.status, to)) return record.status !== to;
      else failed.push({ record, reason: `「${labelOf(kind.statusLabels, record.status)}」からは変更できません` });
      return false;
    });
    let moved = 0;
    for (let start = 0; start < moving.length; start += BULK_BATCH) {
      progress.textContent = `変更中… ${formatCount(start)} / ${formatCount(moving.length)} 件`;
      const batch = moving.slice(start, start + BULK_BATCH);
      try {
        const outcome = await moveInBulk(context.api, kind.endpoints, batch, { status: to, ...notify });
        moved += outcome.updated.length;
        const byId = new Map(batch.map((record) => [record.id, record]));
        for (const { id, code } of outcome.errors) failed.push(await refusal(byId.get(id)!, code));
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) return context.fail(error);
        const reason = errorReason(error);
        failed.push(...batch.map((record) => ({ record, reason })));
      }
    }
    const done = [
      `${formatCount(moved)} 件の${kind.noun}を「${label}」に変更しました。`,
      moved > 0 ? emailOutcome(email, notify.notifyCustomer ?? false) : '',
      already > 0 ? `すでに「${label}」だった ${formatCount(already)} 件はそのままです。` : '',
      moved > 0 ? (campaign?.after ?? '') : '',
    ].join('');
    await settle(done, failed, '変更できませんでした', `「${label}」に変更できなかった`);
  }

  /**
   * Why a record's move was refused, and the record as it now is: a colleague's change is said with
   * the status it holds now, and kept selected as it is now, so a second try is made from it.
   */
  async function refusal(record: R, code: string): Promise<Failure<R>> {
    if (code !== 'changed_by_someone_else') return { record, reason: reasonOf(code) };
    const now = await findActive(context.api, kind.endpoints, record).catch(() => record);
    if (!now) return { record, reason: `他の担当者がこの${kind.noun}をアーカイブしました` };
    return { record: now, reason: `${reasonOf(code)}（いまは「${labelOf(kind.statusLabels, now.status)}」）` };
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
    // A selected record on the page is acted on as it is now.
    for (const record of records) if (selected.has(record.id)) selected.set(record.id, record);
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
      statuses: kind.statusTable.statuses,
      labels: kind.statusLabels,
      products: context.products,
      filter: state.filter,
      searchHint: kind.searchHint,
      onChange: (filter) => {
        state.filter = filter;
        state.page = 1;
        selected.clear();
        failures.clear();
        onState();
        void load();
      },
      onReload: () => void load(),
      onExport: mayTakeInBulk(context)
        ? () =>
            downloadCsv(kind.endpoints.archive, state.filter, { archived: false, sort: state.sort }).catch((error: unknown) =>
              context.fail(error),
            )
        : undefined,
    }),
    bar,
    failures.element,
    list,
  );
  showSelection();
  void load();
}
