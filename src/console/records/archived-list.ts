import { downloadCsv } from '../api/csv-export.ts';
import { h, replace } from '../ui/dom.ts';
import { archivedPage } from '../api/records.ts';
import type { ActiveRecord, ArchivedRecord, ListState, RecordKind, Sort } from './record-kind.ts';
import { filterBar, listLoader, pagers, placeholder, recordTable, selectionBar, setArchivedSelected } from './record-table.ts';
import type { ScreenContext } from '../screen.ts';

const PAGE_SIZE = 20;

/** The archived list's own order (most recently archived first), shown on its column while no other is asked for. */
const LATEST_ARCHIVED_FIRST: Sort = { by: 'archivedAt', order: 'desc' };

/** The archived records of a kind, a page at a time, most recently archived first; the selected ones can be restored. */
export function renderArchivedList<R extends ActiveRecord, A extends ArchivedRecord>(
  container: HTMLElement,
  kind: RecordKind<R, A>,
  context: ScreenContext,
  state: ListState,
  onState: () => void,
): void {
  const selected = new Set<string>();
  const list = h('div', { class: 'list' });
  const bar = selectionBar('選択を元に戻す', () =>
    setArchivedSelected({ kind, context, archived: false, records, selected, done: '元に戻しました', reload: load }),
  );
  let records: A[] = [];

  const load = listLoader(list, context, async (isLatest) => {
    selected.clear();
    bar.update(0);
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
    if (records.length === 0) {
      const filtered = Object.values(state.filter).some((value) => value !== undefined && value !== '');
      return replace(
        list,
        placeholder(filtered ? `条件に一致するアーカイブ済みの${kind.noun}はありません。` : `アーカイブ済みの${kind.noun}はありません。`),
      );
    }
    const pages = pagers(answer, state, () => (onState(), void load()));
    replace(
      list,
      pages.top,
      recordTable({
        records,
        columns: kind.archivedColumns,
        noun: kind.noun,
        context,
        selected,
        onSelectionChange: () => bar.update(selected.size),
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
      statuses: kind.archivedStatuses,
      labels: kind.statusLabels,
      products: context.products,
      filter: state.filter,
      searchHint: kind.searchHint,
      onChange: (filter) => {
        state.filter = filter;
        state.page = 1;
        onState();
        void load();
      },
      onReload: () => void load(),
      onExport: () =>
        downloadCsv(kind.endpoints.archive, state.filter, { archived: true, sort: state.sort }).catch((error: unknown) =>
          context.fail(error),
        ),
    }),
    bar.element,
    list,
  );
  void load();
}
