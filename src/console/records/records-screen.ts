import { renderActiveList } from './active-list.ts';
import { renderArchivedList } from './archived-list.ts';
import { h, replace } from '../ui/dom.ts';
import type { ActiveRecord, ArchivedRecord, Filter, ListState, RecordKind } from './record-kind.ts';
import { renderRecordPage, type DetailRecord, type RecordPage } from './record-page.ts';
import type { Screen, ScreenContext } from '../screen.ts';
import { pageParam, sortParam, writeParams } from '../shell/url-state.ts';

/**
 * A record kind's screen: its active records, or its archive, switched by two buttons. The view,
 * filters, order and page are kept in the URL (`#/reservations?view=archived&status=cancelled&sort=name&order=asc&page=2`);
 * with `record=<id>` beside them, that record's own page (record-page.ts), when the kind has one.
 */
export function recordsScreen<R extends ActiveRecord, A extends ArchivedRecord, D extends R & DetailRecord>(
  kind: RecordKind<R, A>,
  title: string,
  page?: RecordPage<R, D>,
): (context: ScreenContext) => Screen {
  return (context) => ({
    show(container, params) {
      const record = params.get('record');
      if (page && record) return renderRecordPage(container, kind, page, context, record);
      const fromUrl = (): Filter => ({
        status: params.get('status') || undefined,
        productSlug: params.get('product') || undefined,
        q: params.get('q') || undefined,
      });
      let showArchived = params.get('view') === 'archived';
      const active: ListState = {
        filter: showArchived ? {} : fromUrl(),
        page: showArchived ? 1 : pageParam(params.get('page')),
        sort: showArchived ? undefined : sortParam(params),
      };
      const archived: ListState = {
        filter: showArchived ? fromUrl() : {},
        page: showArchived ? pageParam(params.get('page')) : 1,
        sort: showArchived ? sortParam(params) : undefined,
      };
      const body = h('div');
      const activeButton = h('button', { type: 'button', onClick: () => show(false) }, '有効');
      const archivedButton = h('button', { type: 'button', onClick: () => show(true) }, 'アーカイブ済み');

      function remember(): void {
        const state = showArchived ? archived : active;
        const { status, productSlug, q } = state.filter;
        writeParams({
          view: showArchived ? 'archived' : undefined,
          status,
          product: productSlug,
          q,
          sort: state.sort?.by,
          order: state.sort?.order,
          page: state.page > 1 ? state.page : undefined,
        });
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

      replace(
        container,
        h(
          'div',
          { class: 'view-head' },
          h('h1', {}, title),
          h('div', { class: 'modes', role: 'group', 'aria-label': '表示' }, activeButton, archivedButton),
        ),
        body,
      );
      show(showArchived);
    },
  });
}
