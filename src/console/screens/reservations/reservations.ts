import type { Output } from '../../../client/tenpo-client.ts';
import { RESERVATION_STATUS_TABLE } from '../../../reservations/status.ts';
import { addressWithHistory, clipped, idColumn } from '../../records/columns.ts';
import { refusedChange, statusColumn } from '../../records/status-change.ts';
import { h, replace } from '../../ui/dom.ts';
import { formatDateTime } from '../../ui/format.ts';
import { labelOf, RESERVATION_STATUS_LABELS } from '../../../words/labels.ts';
import { productName } from '../../api/products.ts';
import { changeStatus } from '../../api/records.ts';
import type { Column, RecordEndpoints, RecordKind } from '../../records/record-kind.ts';
import { recordLink, type RecordPage } from '../../records/record-page.ts';
import { recordsScreen } from '../../records/records-screen.ts';
import { reservationStatusEmail } from '../../records/status-email.ts';
import { reservationCampaignEffect } from './campaign-effect.ts';

type Reservation = Output<'/api/admin-reservations-list'>['reservations'][number];
type ArchivedReservation = Output<'/api/admin/reservations/archives/list'>['reservations'][number];
type ReservationDetail = Output<'/api/admin/reservations/get'>['reservation'];

const NOTES_MAX = 2000;

const endpoints: RecordEndpoints = {
  list: '/api/admin-reservations-list',
  detail: '/api/admin/reservations/get',
  bulkStatus: '/api/admin/reservations/bulk-status',
  status: '/api/admin-reservations-status',
  archive: '/api/admin/reservations',
  listKey: 'reservations',
  itemKey: 'reservation',
};

const statuses: Pick<
  RecordKind<Reservation, ArchivedReservation>,
  'statusTable' | 'statusLabels' | 'endpoints' | 'noun' | 'confirmStatuses' | 'customerEmail' | 'campaignEffect'
> = {
  statusLabels: RESERVATION_STATUS_LABELS,
  statusTable: RESERVATION_STATUS_TABLE,
  endpoints,
  noun: '予約',
  confirmStatuses: ['cancelled'],
  customerEmail: reservationStatusEmail,
  campaignEffect: reservationCampaignEffect,
};

/** Memo text typed and not yet saved, by reservation: kept when its row is drawn again (a status change, a conflict). */
const drafts = new Map<string, string>();

/**
 * The notes as text, edited in place on demand (not a box on every row). Saved with the status the
 * row shows and the updatedAt it was shown with: a colleague's change made meanwhile is never
 * undone, the row reloads and says what changed, and the unsaved text stays in the editor. Typed
 * text is held in `context.unsaved`, so neither 閉じる nor leaving nor a reload loses it unasked.
 */
const notesColumn: Column<Reservation> = {
  label: 'メモ',
  class: 'notes',
  cell(record, context, update) {
    const cell = h('div', { class: 'notes-cell' });
    const key = `memo:${record.id}`;
    const hold = () =>
      context.unsaved.hold(key, {
        what: `ご予約番号 ${record.number} のメモ`,
        isDirty: () => drafts.has(record.id) && drafts.get(record.id) !== record.notes,
        discard: () => drafts.delete(record.id),
      });
    const showText = () =>
      replace(
        cell,
        record.notes ? h('span', { class: 'notes-text' }, record.notes) : h('span', { class: 'muted' }, 'なし'),
        h('button', { type: 'button', class: 'link edit-notes', onClick: () => showEditor() }, 'メモを編集'),
      );
    const showEditor = () => {
      const area = h('textarea', {
        rows: 3,
        maxlength: NOTES_MAX,
        'aria-label': 'メモ',
        value: drafts.get(record.id) ?? record.notes,
        onInput: () => drafts.set(record.id, area.value),
      });
      const save: HTMLButtonElement = h(
        'button',
        {
          type: 'button',
          class: 'primary',
          onClick: async () => {
            save.disabled = true;
            save.textContent = '保存中…';
            try {
              const updated = await changeStatus(context.api, endpoints, record, { status: record.status, notes: area.value });
              drafts.delete(record.id);
              context.unsaved.release(key);
              context.announce('メモを保存しました。', 'success');
              update(updated, { text: 'メモを保存しました。', tone: 'success' });
            } catch (error) {
              drafts.set(record.id, area.value);
              await refusedChange(statuses, context, record, error, update);
            }
          },
        },
        '保存',
      );
      const close = h('button', { type: 'button', onClick: () => void closeEditor() }, '閉じる');
      // A draft kept over a colleague's change: their memo is shown above it, to merge by hand.
      const saved = area.value !== record.notes && h('p', { class: 'notes-saved' }, `保存されているメモ: ${record.notes || 'なし'}`);
      replace(cell, saved, h('div', { class: 'notes-editor' }, area, h('div', { class: 'notes-actions' }, save, close)));
      hold();
      area.focus();
    };
    /** Back to the text, asking first when what was typed would be lost. */
    const closeEditor = async () => {
      if (!(await context.unsaved.mayDiscard({ asked: 'メモを閉じますか？', button: '閉じる' }, [key]))) return;
      drafts.delete(record.id);
      context.unsaved.release(key);
      showText();
    };
    if (drafts.has(record.id)) showEditor();
    else showText();
    return cell;
  },
};

const reservations: RecordKind<Reservation, ArchivedReservation> = {
  ...statuses,
  idLabel: 'ご予約番号',
  shownId: (r) => String(r.number),
  whose: (r) => r.name,
  searchHint: 'ご予約番号・お名前・メールで検索',
  columns: [
    idColumn('ご予約番号', { linked: true, shown: (r) => String(r.number) }),
    { label: '受付日時', cell: (r) => formatDateTime(r.createdAt), sort: 'createdAt' },
    { label: '商品', cell: (r, context) => clipped(productName(context.products, r.productSlug)), sort: 'product' },
    { label: 'お名前', cell: (r) => clipped(r.name), sort: 'name' },
    { label: 'メール', cell: (r) => addressWithHistory(r.email, r.id), class: 'email' },
    // The product's campaign (one per product); a reservation of a deleted one keeps the mark.
    { label: '予約受付', cell: (r) => (r.preorderId ? h('span', { class: 'preorder-mark', title: r.preorderId }, '予約受付分') : '—') },
    statusColumn(statuses),
    notesColumn,
  ],
  archivedColumns: [
    { label: 'ご予約番号', cell: (r) => recordLink(r.id, String(r.number)), class: 'id number' },
    { label: 'アーカイブ日時', cell: (r) => formatDateTime(r.archivedAt), sort: 'archivedAt' },
    { label: '受付日時', cell: (r) => formatDateTime(r.createdAt), sort: 'createdAt' },
    { label: '商品', cell: (r, context) => clipped(productName(context.products, r.productSlug)), sort: 'product' },
    { label: 'お名前', cell: (r) => clipped(r.name), sort: 'name' },
    { label: 'メール', cell: (r) => clipped(r.email), class: 'email' },
    { label: 'ステータス', cell: (r) => labelOf(RESERVATION_STATUS_LABELS, r.status), sort: 'status' },
    { label: '対応日時', cell: (r) => formatDateTime(r.respondedAt) },
    { label: 'メモ', cell: (r) => clipped(r.notes), class: 'notes' },
  ],
};

/** A reservation's own page: what the list shows and more, its status and memo changed as in the list. */
const reservationPage: RecordPage<Reservation, ReservationDetail> = {
  get: '/api/admin/reservations/get',
  facts: [
    { label: '受付日時', cell: (r) => formatDateTime(r.createdAt) },
    { label: '商品', cell: (r, context) => productName(context.products, r.productSlug) },
    { label: 'お名前', cell: (r) => r.name },
    { label: 'メール', cell: (r) => r.email, class: 'email' },
    { label: '予約受付', cell: (r) => (r.preorderId ? '予約受付分' : '—') },
    { label: '初回対応日時', cell: (r) => formatDateTime(r.respondedAt) },
    { label: '最終更新', cell: (r) => formatDateTime(r.updatedAt) },
    { label: 'ID', cell: (r) => h('code', {}, r.id), class: 'id' },
  ],
  actions: [statusColumn(statuses), notesColumn],
};

export const openScreen = recordsScreen(reservations, '予約', reservationPage);
