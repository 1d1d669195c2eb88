import { renderActiveList } from './active-list.ts';
import { renderArchivedList } from './archived-list.ts';
import { h, replace } from './dom.ts';
import type { ActiveRecord, ArchivedRecord, Filter, RecordKind } from './record-kind.ts';
import type { View } from './shell.ts';

/** A record kind's screen: its active records, or its archive, switched by two buttons. */
export function recordsView<R extends ActiveRecord, A extends ArchivedRecord>(kind: RecordKind<R, A>, screen: { hash: string; label: string }): View {
  return {
    ...screen,
    render(container, context) {
      const active = { filter: {} as Filter };
      const archived = { filter: {} as Filter, page: 1 };
      const body = h('div');
      const activeButton = h('button', { type: 'button', onClick: () => show(false) }, '有効');
      const archivedButton = h('button', { type: 'button', onClick: () => show(true) }, 'アーカイブ済み');

      function show(showArchived: boolean): void {
        activeButton.setAttribute('aria-pressed', String(!showArchived));
        archivedButton.setAttribute('aria-pressed', String(showArchived));
        const area = h('div');
        replace(body, area);
        if (showArchived) renderArchivedList(area, kind, context, archived);
        else renderActiveList(area, kind, context, active);
      }

      replace(container, h('div', { class: 'view-head' }, h('h1', {}, screen.label), h('div', { class: 'modes', role: 'group', 'aria-label': '表示' }, activeButton, archivedButton)), body);
      show(false);
    },
  };
}
