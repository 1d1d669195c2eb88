import { downloadCsv, mayTakeInBulk } from '../api/csv-export.ts';
import { h, replace } from '../ui/dom.ts';
import { formatCount } from '../ui/format.ts';
import { archivedPage } from '../api/records.ts';
import type { ActiveRecord, ArchivedRecord, ListState, RecordKind, Sort } from './record-kind.ts';
import { filterBar, listLoader, pagers, placeholder, recordTable, selectionBar } from './record-table.ts';
import type { ScreenContext } from '../screen.ts';
import { bulkFailures, bulkOutcome, setArchivedInBatches } from './bulk.ts';

const PAGE_SIZE = 20;

/** The archived list's own order (most recently archived first), shown on its column while no other is asked for. */
const LATEST_ARCHIVED_FIRST: Sort = { by: 'archivedAt', order: 'desc' };

/**
 * The archived records of a kind, a page at a time, most recently archived first; the selected ones
 * (kept across pages) can be restored. Those that could not be are named with why, and stay selected.
 */
export function renderArchivedList<R extends ActiveRecord, A extends ArchivedRecord>(
  container: HTMLElement,
  kind: RecordKind<R, A>,
  context: ScreenContext,
  state: ListState,
  onState: () => void,
): void {
  const selected = new Map<string, A>();
  const list = h('div', { class: 'list' });
  const failures = bulkFailures(kind);
  const bar = selectionBar('選択を元に戻す', restoreSelected);
  let records: A[] = [];

  async function restoreSelected(): Promise<void> {
    failures.clear();
    const outcome = await setArchivedInBatches({ endpoints: kind.endpoints, context, archived: false, records: [...selected.values()] });
    if (!outcome) return;
    const { message, tone } = bulkOutcome(
      `${formatCount(outcome.done)} 件の${kind.noun}を元に戻しました。`,
      outcome.failures.length,
      '元に戻せませんでした',
    );
    context.announce(message, tone);
    selected.clear();
    for (const { record } of outcome.failures) selected.set(record.id, record);
    failures.show(outcome.failures, '元に戻せなかった');
    await load();
  }

  const load = listLoader(list, context, async (isLatest) => {
    const answer = await archivedPage<A>(context.api, kind.endpoints, {
      ...state.filter,
      sort: state.sort,
      page: state.page,
      pageSize: PAGE_SIZE,
    });
    if (!isLatest()) return;
    if (answer.items.length === 0 && answer.total > 0) {
      // The page emptied (its records were restored meanwhile): show the last one there is.
      state.page = Math.max(1, answer.totalPages);
      return void load();
    }
    records = answer.items;
    bar.update(selected.size);
    if (records.length === 0) {
      const filtered = Object.values(state.filter).some((value) => value !== undefined && value !== '');
      return replace(
        list,
        placeholder(filtered ? `条件に一致するアーカイブ済みの${kind.noun}はありません。` : `アーカイブ済みの${kind.noun}はありません。`),
      );
    }
    const pages = pagers(answer, state, () => (onState(), void load()));
    const onPage = new Set(records.filter((record) => selected.has(record.id)).map((record) => record.id));
    replace(
      list,
      pages.top,
      recordTable({
        records,
        columns: kind.archivedColumns,
        noun: kind.noun,
        context,
        selected: onPage,
        onSelectionChange: () => {
          for (const record of records) {
            if (onPage.has(record.id)) selected.set(record.id, record);
            else selected.delete(record.id);
          }
          bar.update(selected.size);
        },
        sort: {
          current: state.sort ?? LATEST_ARCHIVED_FIRST,
          change: (sort) => {
            state.sort = sort;
            state.page = 1;
            onState();
            void load();
          },
        },
      }),
      pages.bottom,
    );
  });

  replace(
    container,
    filterBar({
      // Today's statuses: a record of the previous system's (予約済み（旧）) shows its own, found by its number or name.
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
            downloadCsv(kind.endpoints.archive, state.filter, { archived: true, sort: state.sort }).catch((error: unknown) =>
              context.fail(error),
            )
        : undefined,
    }),
    bar.element,
    failures.element,
    list,
  );
  void load();
}
