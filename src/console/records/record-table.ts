import { h, replace, type Child } from '../ui/dom.ts';
import { formatCount } from '../ui/format.ts';
import { labelOf } from '../../words/labels.ts';
import type { ProductOption } from '../api/products.ts';
import type { Column, Filter, Page, RowNote, Sort } from './record-kind.ts';
import type { ScreenContext } from '../screen.ts';

// The pieces both record screens (active and archived) are made of: the filter bar, the table with
// a checkbox per row, and the bar acting on the selected rows.

/**
 * Status and product selects, and with `searchHint` a search box (sent on Enter or 検索); every
 * change calls `onChange` with the whole filter.
 */
export function filterBar(options: {
  statuses: readonly string[];
  labels: Record<string, string>;
  products: Map<string, ProductOption>;
  filter: Filter;
  searchHint?: string;
  onChange: (filter: Filter) => void;
  onReload: () => void;
  /** Downloads the records the filter selects as CSV; absent for a staff account (bulk personal data is an owner's to take). */
  onExport?: () => Promise<void>;
}): HTMLElement {
  const q = h('input', {
    type: 'search',
    id: 'filter-q',
    value: options.filter.q ?? '',
    maxlength: 200,
    placeholder: options.searchHint,
    'aria-label': options.searchHint,
  });
  const search =
    options.searchHint !== undefined &&
    h(
      'form',
      { role: 'search', class: 'search', onSubmit: (event: Event) => (event.preventDefault(), changed()) },
      q,
      h('button', { type: 'submit' }, '検索'),
    );
  const status = h(
    'select',
    { id: 'filter-status', onChange: () => changed() },
    h('option', { value: '' }, 'すべて'),
    ...options.statuses.map((value) => h('option', { value, selected: value === options.filter.status }, labelOf(options.labels, value))),
  );
  const product = h(
    'select',
    { id: 'filter-product', onChange: () => changed() },
    h('option', { value: '' }, 'すべての商品'),
    ...[...options.products.values()].map((p) => h('option', { value: p.slug, selected: p.slug === options.filter.productSlug }, p.name)),
  );
  const changed = () =>
    options.onChange({
      status: status.value || undefined,
      productSlug: product.value || undefined,
      q: (search && q.value.trim()) || undefined,
    });
  return h(
    'div',
    { class: 'filters' },
    search,
    h('span', { class: 'field' }, h('label', { for: 'filter-status' }, 'ステータス'), status),
    h('span', { class: 'field' }, h('label', { for: 'filter-product' }, '商品'), product),
    h('button', { type: 'button', onClick: options.onReload }, '再読み込み'),
    options.onExport &&
      h(
        'button',
        {
          type: 'button',
          class: 'export',
          title: '絞り込み中の一覧をCSVファイル（Excel用）でダウンロード',
          onClick: (event: Event) => void exportFrom(event.currentTarget as HTMLButtonElement),
        },
        'CSV',
      ),
  );
  /** Busy while the file is made, so a second click does not start a second download. */
  async function exportFrom(button: HTMLButtonElement): Promise<void> {
    button.disabled = true;
    try {
      await options.onExport?.();
    } finally {
      button.disabled = false;
    }
  }
}

/**
 * The records as a table, a checkbox first in every row. On a narrow screen each row becomes a card
 * whose cells carry their column's name (console.css).
 */
export function recordTable<R extends { id: string }>(options: {
  records: R[];
  columns: Column<R>[];
  noun: string;
  context: ScreenContext;
  selected: Set<string>;
  onSelectionChange: () => void;
  /** The order shown, and what a header asks for: a column with a sort key sorts by it, again the other way. */
  sort?: { current: Sort; change(sort: Sort): void };
}): HTMLTableElement {
  const { columns, selected, context } = options;
  const boxes: HTMLInputElement[] = [];
  const all = h('input', {
    type: 'checkbox',
    'aria-label': 'すべて選択',
    onChange: () => {
      for (const box of boxes) box.checked = all.checked;
      for (const record of options.records) {
        if (all.checked) selected.add(record.id);
        else selected.delete(record.id);
      }
      options.onSelectionChange();
    },
  });

  const row = (record: R): HTMLTableRowElement => {
    const box = h('input', {
      type: 'checkbox',
      checked: selected.has(record.id),
      'aria-label': `この${options.noun}を選択`,
      onChange: () => {
        if (box.checked) selected.add(record.id);
        else selected.delete(record.id);
        all.checked = boxes.every((b) => b.checked);
        options.onSelectionChange();
      },
    });
    boxes.push(box);
    const tr: HTMLTableRowElement = h(
      'tr',
      { 'data-id': record.id },
      h('td', { class: 'select' }, box),
      ...columns.map((column) =>
        h(
          'td',
          { 'data-label': column.label, class: column.class },
          column.cell(record, context, (updated, note) => {
            boxes.splice(boxes.indexOf(box), 1);
            const next = row(updated);
            if (tr.nextElementSibling?.classList.contains('row-note')) tr.nextElementSibling.remove();
            tr.replaceWith(next);
            if (note) next.after(rowNote(note, columns.length + 1));
          }),
        ),
      ),
    );
    return tr;
  };

  return h(
    'table',
    { class: 'records' },
    h('thead', {}, h('tr', {}, h('th', { class: 'select' }, all), ...columns.map((column) => header(column, options.sort)))),
    h('tbody', {}, ...options.records.map(row)),
  );
}

const ORDER_WORDS = { asc: { aria: 'ascending', mark: '▲', next: '降順' }, desc: { aria: 'descending', mark: '▼', next: '昇順' } } as const;

/**
 * A column's header; with a sort key, a button that sorts by it (ascending first, then the other
 * way), and `aria-sort` on the column that orders the list.
 */
function header<R>(column: Column<R>, sort: { current: Sort; change(sort: Sort): void } | undefined): HTMLTableCellElement {
  if (!sort || !column.sort) return h('th', { scope: 'col' }, column.label);
  const by = column.sort;
  const sorted = sort.current.by === by ? sort.current.order : undefined;
  const next: Sort['order'] = sorted === 'asc' ? 'desc' : 'asc';
  const words = sorted ? ORDER_WORDS[sorted] : undefined;
  return h(
    'th',
    { scope: 'col', class: 'sortable', 'aria-sort': words?.aria },
    h(
      'button',
      {
        type: 'button',
        class: 'sort',
        title: `${column.label}で${sorted ? ORDER_WORDS[sorted].next : '昇順'}に並べ替え`,
        onClick: () => sort.change({ by, order: next }),
      },
      column.label,
      h('span', { class: 'sort-mark', 'aria-hidden': 'true' }, words?.mark ?? '↕'),
    ),
  );
}

/** A message under the row it is about, where the eye already is (on a phone too). */
function rowNote(note: RowNote, span: number): HTMLTableRowElement {
  return h(
    'tr',
    { class: `row-note ${note.tone}` },
    h('td', { colspan: span, role: note.tone === 'error' ? 'alert' : 'status' }, note.text),
  );
}

/** "N 件選択中" and the button acting on them, disabled while it runs; not shown while nothing is selected. */
export function selectionBar(label: string, act: () => Promise<void>): { element: HTMLElement; update(count: number): void } {
  const count = h('span', { class: 'count' });
  let selectedCount = 0;
  const button: HTMLButtonElement = h(
    'button',
    {
      type: 'button',
      disabled: true,
      onClick: async () => {
        button.disabled = true;
        button.setAttribute('aria-busy', 'true');
        try {
          await act();
        } finally {
          button.removeAttribute('aria-busy');
          button.disabled = selectedCount === 0;
        }
      },
    },
    label,
  );
  const element = h('div', { class: 'selection', hidden: true }, count, button);
  return {
    element,
    update(n) {
      selectedCount = n;
      count.textContent = `${formatCount(n)} 件選択中`;
      button.disabled = n === 0;
      element.hidden = n === 0;
    },
  };
}

/**
 * The pagers above and below a page of records (← 前へ, "2 / 5 ページ（全 83 件）", 次へ →), so
 * the next page is at hand at both ends of a long list (50 cards on a phone). Both set the page
 * asked for in `state`, then call `changed`; the bottom one first brings the top of the list into
 * view, where the next page will start. With one page there is no bottom one: the top one says
 * how many there are.
 */
export function pagers(
  { page, totalPages, total }: Omit<Page<unknown>, 'items'>,
  state: { page: number },
  changed: () => void,
): { top: HTMLElement; bottom: HTMLElement | null } {
  const pager = (before?: () => void) => {
    const go = (to: number) => {
      before?.();
      state.page = to;
      changed();
    };
    return h(
      'nav',
      { class: 'pager', 'aria-label': 'ページ' },
      h('button', { type: 'button', disabled: page <= 1, onClick: () => go(page - 1) }, '← 前へ'),
      h('span', { class: 'page' }, `${page} / ${Math.max(1, totalPages)} ページ（全 ${formatCount(total)} 件）`),
      h('button', { type: 'button', disabled: page >= totalPages, onClick: () => go(page + 1) }, '次へ →'),
    );
  };
  const top = pager();
  return { top, bottom: totalPages > 1 ? pager(() => top.scrollIntoView({ block: 'start' })) : null };
}

/** What a screen shows instead of its table while loading, when empty, or when loading failed. */
export function placeholder(text: string, ...actions: Child[]): HTMLElement {
  return h('div', { class: 'placeholder' }, h('p', {}, text), ...actions);
}

/**
 * Loads a list into `list`, with its loading placeholder, busy marker and a retry on failure. Only
 * the latest load may draw: `fill` fetches and draws, and after each wait asks `isLatest()`, so an
 * earlier, slower answer is dropped.
 */
export function listLoader(
  list: HTMLElement,
  context: ScreenContext,
  fill: (isLatest: () => boolean) => Promise<void>,
): () => Promise<void> {
  let latest = 0;
  const load = async (): Promise<void> => {
    const mine = ++latest;
    const isLatest = () => mine === latest;
    list.setAttribute('aria-busy', 'true');
    replace(list, placeholder('読み込み中…'));
    try {
      await fill(isLatest);
    } catch (error) {
      if (!isLatest()) return;
      context.fail(error);
      replace(list, placeholder('一覧を読み込めませんでした。', h('button', { type: 'button', onClick: () => void load() }, '再試行')));
    } finally {
      if (isLatest()) list.removeAttribute('aria-busy');
    }
  };
  return load;
}
