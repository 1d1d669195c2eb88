import { renderActiveList } from './active-list.ts';
import { renderArchivedList } from './archived-list.ts';
import { h, replace } from './dom.ts';
import type { ActiveRecord, ArchivedRecord, Filter, RecordKind } from './record-kind.ts';
import type { View } from './shell.ts';
import { pageParam, readParams, writeParams } from './url-state.ts';

/**
 * A record kind's screen: its active records, or its archive, switched by two buttons. The view,
 * filters and page are kept in the URL (`#/reservations?view=archived&status=cancelled&page=2`).
 */
export function recordsView<R extends ActiveRecord, A extends ArchivedRecord>(kind: RecordKind<R, A>, screen: { hash: string; label: string }): View {
  return {
    ...screen,
    render(container, context) {
      const params = readParams();
      const fromUrl = (): Filter => ({ status: params.get('status') || undefined, productSlug: params.get('product') || undefined, q: params.get('q') || undefined });
      let showArchived = params.get('view') === 'archived';
      const active = { filter: showArchived ? {} : fromUrl(), page: showArchived ? 1 : pageParam(params.get('page')) };
      const archived = { filter: showArchived ? fromUrl() : {}, page: showArchived ? pageParam(params.get('page')) : 1 };
      const body = h('div');
      const activeButton = h('button', { type: 'button', onClick: () => show(false) }, '有効');
      const archivedButton = h('button', { type: 'button', onClick: () => show(true) }, 'アーカイブ済み');

      function remember(): void {
        const state = showArchived ? archived : active;
        const { status, productSlug, q } = state.filter;
        writeParams({ view: showArchived ? 'archived' : undefined, status, product: productSlug, q, page: state.page > 1 ? state.page : undefined });
      }

      function show(archivedView: boolean): void {
        showArchived = archivedView;
        activeButton.setAttribute('aria-pressed', String(!archivedView));
        archivedButton.setAttribute('aria-pressed', String(archivedView));
        remember();
        const area = h('div');
        replace(body, area);
        if (archivedView) renderArchivedList(area, kind, context, archived, remember);
        else renderActiveList(area, kind, context, active, remember);
      }

      replace(container, h('div', { class: 'view-head' }, h('h1', {}, screen.label), h('div', { class: 'modes', role: 'group', 'aria-label': '表示' }, activeButton, archivedButton)), body);
      show(showArchived);
    },
  };
}
