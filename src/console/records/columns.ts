import { copyButton } from '../ui/copy-button.ts';
import { h } from '../ui/dom.ts';
import type { ActiveRecord, Column } from './record-kind.ts';
import { recordLink } from './record-page.ts';

// Cells both record kinds show in their lists.

/**
 * The record's number, selectable and copied with one tap, since customers are asked to quote it;
 * `linked`: a link to the record's own page (record-page.ts); `shown`: what is shown instead of the
 * id (a reservation's short number, kept on one line).
 */
export function idColumn<R extends ActiveRecord>(
  label: string,
  options: { linked?: boolean; shown?: (record: R) => string } = {},
): Column<R> {
  return {
    label,
    class: options.shown ? 'id number' : 'id',
    cell(record) {
      const shown = options.shown?.(record) ?? record.id;
      return h(
        'span',
        { class: 'id-cell' },
        options.linked ? recordLink(record.id, shown) : h('code', {}, shown),
        copyButton(shown, label),
      );
    },
  };
}

/**
 * A text of a list's row that may be long (a name, a product, an address): two lines at most and
 * no wider than a column should be (console.css), so one long name does not squeeze every other
 * row; the whole text is its title, and the record's own page shows it.
 */
export function clipped(text: string): HTMLElement {
  return h('span', { class: 'clip', title: text }, text);
}

/** A record's address in its row, with the link to the messages about the record (the 送信履歴 screen). */
export function addressWithHistory(email: string, recordId: string): HTMLElement {
  return h(
    'span',
    {},
    h('span', { class: 'address clip', title: email }, email),
    ' ',
    h('a', { class: 'history-link', href: `#/messages?record=${encodeURIComponent(recordId)}` }, '送信履歴'),
  );
}
