import type { Output } from '../client/tenpo-client.ts';
import { RESERVATION_STATUS_TABLE } from '../reservations/status.ts';
import { statusColumn } from './active-list.ts';
import { h } from './dom.ts';
import { formatDateTime } from './format.ts';
import { labelOf, RESERVATION_STATUS_LABELS } from './labels.ts';
import { productName } from './products.ts';
import { changeStatus, type RecordEndpoints } from './record-api.ts';
import type { Column, RecordKind } from './record-kind.ts';
import { recordsView } from './records-view.ts';

type Reservation = Output<'/api/admin-reservations-list'>['reservations'][number];
type ArchivedReservation = Output<'/api/admin/reservations/archives/list'>['reservations'][number];

const NOTES_MAX = 2000;

const endpoints: RecordEndpoints = {
  list: '/api/admin-reservations-list',
  status: '/api/admin-reservations-status',
  archive: '/api/admin/reservations',
  listKey: 'reservations',
  itemKey: 'reservation',
};

const statuses: Pick<RecordKind<Reservation, ArchivedReservation>, 'statusTable' | 'statusLabels' | 'endpoints'> = {
  statusLabels: RESERVATION_STATUS_LABELS,
  statusTable: RESERVATION_STATUS_TABLE,
  endpoints,
};

/** The notes, editable in place; saved with the status unchanged (a notes-only update). */
const notesColumn: Column<Reservation> = {
  label: 'メモ',
  class: 'notes',
  cell(record, context, update) {
    const area = h('textarea', { rows: 2, maxlength: NOTES_MAX, 'aria-label': 'メモ', value: record.notes, onInput: () => (save.disabled = area.value === record.notes) });
    const save: HTMLButtonElement = h(
      'button',
      {
        type: 'button',
        disabled: true,
        onClick: async () => {
          save.disabled = true;
          save.textContent = '保存中…';
          try {
            const updated = await changeStatus(context.api, endpoints, record, { status: record.status, notes: area.value });
            context.announce('メモを保存しました。', 'success');
            update(updated);
          } catch (error) {
            save.disabled = false;
            save.textContent = '保存';
            context.fail(error);
          }
        },
      },
      '保存',
    );
    return h('div', { class: 'notes-editor' }, area, save);
  },
};

const reservations: RecordKind<Reservation, ArchivedReservation> = {
  ...statuses,
  noun: '予約',
  archivedStatuses: Object.keys(RESERVATION_STATUS_LABELS),
  columns: [
    { label: '受付日時', cell: (r) => formatDateTime(r.createdAt) },
    { label: '商品', cell: (r, context) => productName(context.products, r.productSlug) },
    { label: 'お名前', cell: (r) => r.name },
    { label: 'メール', cell: (r) => r.email, class: 'email' },
    statusColumn(statuses),
    notesColumn,
  ],
  archivedColumns: [
    { label: 'アーカイブ日時', cell: (r) => formatDateTime(r.archivedAt) },
    { label: '受付日時', cell: (r) => formatDateTime(r.createdAt) },
    { label: '商品', cell: (r, context) => productName(context.products, r.productSlug) },
    { label: 'お名前', cell: (r) => r.name },
    { label: 'メール', cell: (r) => r.email, class: 'email' },
    { label: 'ステータス', cell: (r) => labelOf(RESERVATION_STATUS_LABELS, r.status) },
    { label: '対応日時', cell: (r) => formatDateTime(r.respondedAt) },
    { label: 'メモ', cell: (r) => r.notes, class: 'notes' },
  ],
};

export const reservationsView = recordsView(reservations, { hash: '#/reservations', label: '予約' });
