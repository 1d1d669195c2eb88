import { h, replace } from './dom.ts';
import type { ActiveRecord, ArchivedRecord, Filter, RecordKind } from './record-kind.ts';
import { bulkOutcome, filterBar, placeholder, recordTable, selectionBar } from './record-table.ts';
import type { ViewContext } from './shell.ts';

const PAGE_SIZE = 20;

/** The archived records of a kind, a page at a time, most recently archived first; the selected ones can be restored. */
export function renderArchivedList<R extends ActiveRecord, A extends ArchivedRecord>(
  container: HTMLElement,
  kind: RecordKind<R, A>,
  context: ViewContext,
  state: { filter: Filter; page: number },
): void {
  const selected = new Set<string>();
  const list = h('div', { class: 'list' });
  const bar = selectionBar('選択を元に戻す', unarchiveSelected);
  let records: A[] = [];
  let latest = 0;

  async function load(): Promise<void> {
    const mine = ++latest;
    selected.clear();
    bar.update(0);
    list.setAttribute('aria-busy', 'true');
    replace(list, placeholder('読み込み中…'));
    try {
      const answer = await kind.archivedPage(context.api, { ...state.filter, page: state.page, pageSize: PAGE_SIZE });
      if (mine !== latest) return;
      if (answer.items.length === 0 && answer.total > 0) {
        // The page emptied (its records were restored meanwhile): show the last one there is.
        state.page = Math.max(1, answer.totalPages);
        return void load();
      }
      records = answer.items;
      if (records.length === 0) return replace(list, placeholder(`アーカイブ済みの${kind.noun}はありません。`));
      replace(
        list,
        pager(answer.page, answer.totalPages, answer.total),
        recordTable({ records, columns: kind.archivedColumns, noun: kind.noun, context, selected, onSelectionChange: () => bar.update(selected.size) }),
      );
    } catch (error) {
      if (mine !== latest) return;
      context.fail(error);
      replace(list, placeholder('一覧を読み込めませんでした。', h('button', { type: 'button', onClick: () => void load() }, '再試行')));
    } finally {
      if (mine === latest) list.removeAttribute('aria-busy');
    }
  }

  function pager(page: number, totalPages: number, total: number): HTMLElement {
    const go = (to: number) => () => {
      state.page = to;
      void load();
    };
    return h(
      'nav',
      { class: 'pager', 'aria-label': 'ページ' },
      h('button', { type: 'button', disabled: page <= 1, onClick: go(page - 1) }, '← 前へ'),
      h('span', { class: 'page' }, `${page} / ${totalPages} ページ（全 ${total} 件）`),
      h('button', { type: 'button', disabled: page >= totalPages, onClick: go(page + 1) }, '次へ →'),
    );
  }

  async function unarchiveSelected(): Promise<void> {
    const items = records.filter((record) => selected.has(record.id)).map(({ id, productSlug }) => ({ id, productSlug }));
    try {
      const { message, tone } = bulkOutcome(await kind.setArchived(context.api, false, items), kind.noun, '元に戻しました');
      context.announce(message, tone);
      await load();
    } catch (error) {
      context.fail(error);
    }
  }

  replace(
    container,
    filterBar({
      statuses: kind.archivedStatuses,
      labels: kind.statusLabels,
      products: context.products,
      filter: state.filter,
      onChange: (filter) => {
        state.filter = filter;
        state.page = 1;
        void load();
      },
      onReload: () => void load(),
    }),
    bar.element,
    list,
  );
  void load();
}
