import { allowsMove } from '../records/status-transitions.ts';
import { h, replace } from './dom.ts';
import { labelOf } from './labels.ts';
import { changeStatus, listActive } from './record-api.ts';
import type { ActiveRecord, ArchivedRecord, Column, Filter, RecordKind } from './record-kind.ts';
import { filterBar, listLoader, placeholder, recordTable, selectionBar, setArchivedSelected } from './record-table.ts';
import type { ViewContext } from './shell.ts';

/** The active records of a kind: filters, the table, status changes and archiving the selected ones. */
export function renderActiveList<R extends ActiveRecord, A extends ArchivedRecord>(
  container: HTMLElement,
  kind: RecordKind<R, A>,
  context: ViewContext,
  state: { filter: Filter },
): void {
  const selected = new Set<string>();
  const list = h('div', { class: 'list' });
  const bar = selectionBar('選択をアーカイブ', () =>
    setArchivedSelected({ kind, context, archived: true, records, selected, done: 'アーカイブしました', reload: load }),
  );
  let records: R[] = [];

  const load = listLoader(list, context, async (isLatest) => {
    selected.clear();
    bar.update(0);
    const answer = await listActive<R>(context.api, kind.endpoints, state.filter);
    if (!isLatest()) return;
    records = answer;
    if (records.length === 0) replace(list, placeholder(`該当する${kind.noun}はありません。`));
    else replace(list, h('p', { class: 'total' }, `${records.length} 件`), recordTable({ records, columns: kind.columns, noun: kind.noun, context, selected, onSelectionChange: () => bar.update(selected.size) }));
  });

  replace(
    container,
    kind.panel?.(context, () => void load()),
    filterBar({
      statuses: [...kind.statusTable.statuses],
      labels: kind.statusLabels,
      products: context.products,
      filter: state.filter,
      onChange: (filter) => {
        state.filter = filter;
        void load();
      },
      onReload: () => void load(),
    }),
    bar.element,
    list,
  );
  void load();
}

/**
 * The status as a select offering only the moves the service allows from the current status; a
 * choice is saved at once, and undone on screen if the service refuses it.
 */
export function statusColumn<R extends ActiveRecord>(kind: Pick<RecordKind<R, ArchivedRecord>, 'statusTable' | 'statusLabels' | 'endpoints'>): Column<R> {
  return {
    label: 'ステータス',
    class: 'status',
    cell(record, context, update) {
      const choices = kind.statusTable.statuses.filter((status) => allowsMove(kind.statusTable, record.status, status));
      const select: HTMLSelectElement = h(
        'select',
        {
          'aria-label': 'ステータスを変更',
          'data-status': record.status,
          onChange: async () => {
            select.disabled = true;
            try {
              const updated = await changeStatus(context.api, kind.endpoints, record, { status: select.value });
              context.announce(`ステータスを「${labelOf(kind.statusLabels, updated.status)}」に変更しました。`, 'success');
              update(updated);
            } catch (error) {
              select.value = record.status;
              select.disabled = false;
              context.fail(error);
            }
          },
        },
        ...choices.map((status) => h('option', { value: status, selected: status === record.status }, labelOf(kind.statusLabels, status))),
      );
      return select;
    },
  };
}
