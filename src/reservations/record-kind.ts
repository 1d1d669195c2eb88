import { labelOf, RESERVATION_STATUS_LABELS } from '../words/labels.ts';
import { japanTime } from '../records/export.ts';
import type { RecordKind } from '../records/record-kind.ts';
import { applyReservationStatus, type ReservationStatusChange } from './admin.ts';
import {
  activeReservation,
  ArchivedListBody,
  ExportBody,
  ArchivedReservationSchema,
  archivedReservation,
  DetailResponse,
  ListBody,
  ListResponse,
  reservationDetail,
  SORT_COLUMNS,
  StatusBody,
  StatusResponse,
} from './schemas.ts';
import { RESERVATION_STATUS_TABLE } from './status.ts';
import type { Messaging } from '../messaging/messaging.ts';

/**
 * Reservations as a record kind: src/records lists them, changes their status (telling messaging,
 * which emails the customer) and archives them.
 */
export const reservationKind = (messaging: Messaging): RecordKind<'reservations', ReservationStatusChange> => ({
  table: 'reservations',
  paths: {
    list: '/api/admin-reservations-list',
    status: '/api/admin-reservations-status',
    get: '/api/admin/reservations/get',
    archive: '/api/admin/reservations',
  },
  tag: 'Admin: reservations',
  listKey: 'reservations',
  itemKey: 'reservation',
  docs: {
    listSummary: 'List active reservations, newest first',
    listDescription:
      '`q` (at most 200 characters) finds a case-insensitive substring of the name, email or id (`%` and `_` match themselves; on SQLite case folds for ASCII only). With `page` or `pageSize` one page and `total, page, pageSize, totalPages` (as the archive list); without them every match. `sort: {by, order?}` orders by another column (an extension), ties by id in the same direction. An unknown status is `400 Invalid status`.',
    statusSummary: 'Change a reservation’s status and notes',
    statusDescription:
      'Allowed moves: pending→confirmed|cancelled, confirmed→fulfilled|cancelled|pending, fulfilled→confirmed, cancelled→pending, or the same status (a notes-only edit).',
  },
  texts: {
    notFound: 'Reservation not found',
    changed: 'Reservation was changed by someone else',
    archived: 'Reservation is archived',
    alreadyArchived: 'Reservation already archived',
    notArchived: 'Reservation is not archived',
  },
  codes: { notFound: 'reservation_not_found', archived: 'reservation_archived' },
  conflicts: ['preorder_full'],
  searchColumns: ['id', 'name', 'email'],
  sortColumns: SORT_COLUMNS,
  statusTable: RESERVATION_STATUS_TABLE,
  csv: {
    name: 'reservations',
    columns: [
      { header: '予約番号', value: (r) => r.id },
      { header: '受付日時', value: (r) => japanTime(r.created_at) },
      { header: 'お名前', value: (r) => r.name },
      { header: 'メールアドレス', value: (r) => r.email },
      { header: '商品コード', value: (r) => r.product_slug },
      { header: '商品名', value: (r, productName) => productName(r.product_slug) },
      { header: '状態', value: (r) => labelOf(RESERVATION_STATUS_LABELS, r.status) },
      { header: 'メモ', value: (r) => r.notes },
      { header: '初回対応日時', value: (r) => japanTime(r.responded_at) },
      { header: '最終更新日時', value: (r) => japanTime(r.updated_at) },
      { header: 'アーカイブ日時', value: (r) => japanTime(r.archived_at) },
      { header: '予約受付ID', value: (r) => r.preorder_id ?? '' },
    ],
  },
  schemas: {
    listBody: ListBody,
    archivedListBody: ArchivedListBody,
    exportBody: ExportBody,
    listResponse: ListResponse,
    statusBody: StatusBody,
    statusResponse: StatusResponse,
    archivedItem: ArchivedReservationSchema,
    detailResponse: DetailResponse,
  },
  activeItem: activeReservation,
  archivedItem: archivedReservation,
  detailItem: reservationDetail,
  applyStatusChange: (trx, current, change, now) => applyReservationStatus(trx, current, change, now, messaging),
});
