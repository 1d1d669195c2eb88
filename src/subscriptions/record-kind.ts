import { labelOf, SUBSCRIPTION_STATUS_LABELS } from '../words/labels.ts';
import { japanTime } from '../records/export.ts';
import type { RecordKind } from '../records/record-kind.ts';
import { ANOTHER_PENDING_SUBSCRIPTION, applySubscriptionStatus, type SubscriptionStatusChange } from './admin.ts';
import {
  activeSubscription,
  ArchivedListBody,
  ExportBody,
  ArchivedSubscriptionSchema,
  archivedSubscription,
  DetailResponse,
  ListBody,
  ListResponse,
  SORT_COLUMNS,
  StatusBody,
  StatusResponse,
  subscriptionDetail,
} from './schemas.ts';
import { SUBSCRIPTION_STATUS_TABLE } from './status.ts';
import { findPendingPairs } from './store.ts';

/** Restock subscriptions as a record kind: src/records lists them, changes their status and archives them. */
export const subscriptionKind: RecordKind<'subscriptions', SubscriptionStatusChange> = {
  table: 'subscriptions',
  paths: {
    list: '/api/admin-notify-list',
    status: '/api/admin-notify-status',
    get: '/api/admin/notify/get',
    archive: '/api/admin/notify',
  },
  tag: 'Admin: subscriptions',
  listKey: 'subscriptions',
  itemKey: 'subscription',
  docs: {
    listSummary: 'List active restock subscriptions, newest first',
    listDescription:
      '`q` (at most 200 characters) finds a case-insensitive substring of the email or id (`%` and `_` match themselves; on SQLite case folds for ASCII only). With `page` or `pageSize` one page and `total, page, pageSize, totalPages` (as the archive list); without them every match. `sort: {by, order?}` orders by another column (an extension), ties by id in the same direction. An unknown status is `400 Invalid status`.',
    statusSummary: 'Change a restock subscription’s status',
    statusDescription:
      'Allowed moves: pending→notified (sets notifiedAt), pending→unsubscribed, notified→pending and unsubscribed→pending (both clear notifiedAt), or the same status (no change). A move back to pending while another active pending subscription has the same email and product is refused with 409.',
  },
  texts: {
    notFound: 'Subscription not found',
    changed: 'Subscription was changed by someone else',
    archived: 'Subscription is archived',
    alreadyArchived: 'Subscription already archived',
    notArchived: 'Subscription is not archived',
  },
  codes: { notFound: 'subscription_not_found', archived: 'subscription_archived' },
  conflicts: [ANOTHER_PENDING_SUBSCRIPTION.code],
  searchColumns: ['id', 'email'],
  sortColumns: SORT_COLUMNS,
  statusTable: SUBSCRIPTION_STATUS_TABLE,
  csv: {
    name: 'subscriptions',
    columns: [
      { header: '登録番号', value: (s) => s.id },
      { header: '登録日時', value: (s) => japanTime(s.created_at) },
      { header: 'メールアドレス', value: (s) => s.email },
      { header: '商品コード', value: (s) => s.product_slug },
      { header: '商品名', value: (s, productName) => productName(s.product_slug) },
      { header: '状態', value: (s) => labelOf(SUBSCRIPTION_STATUS_LABELS, s.status) },
      { header: '通知日時', value: (s) => japanTime(s.notified_at) },
      { header: '最終更新日時', value: (s) => japanTime(s.updated_at) },
      { header: 'アーカイブ日時', value: (s) => japanTime(s.archived_at) },
    ],
  },
  schemas: {
    listBody: ListBody,
    archivedListBody: ArchivedListBody,
    exportBody: ExportBody,
    listResponse: ListResponse,
    statusBody: StatusBody,
    statusResponse: StatusResponse,
    archivedItem: ArchivedSubscriptionSchema,
    detailResponse: DetailResponse,
  },
  activeItem: activeSubscription,
  archivedItem: archivedSubscription,
  detailItem: subscriptionDetail,
  applyStatusChange: applySubscriptionStatus,
  uniqueWhileActive: { find: findPendingPairs, conflict: ANOTHER_PENDING_SUBSCRIPTION },
};
