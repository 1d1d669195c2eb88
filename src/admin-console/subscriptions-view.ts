import type { Output } from '../client/tenpo-client.ts';
import { SUBSCRIPTION_STATUS_TABLE } from '../subscriptions/status.ts';
import { statusColumn } from './active-list.ts';
import { formatDateTime } from './format.ts';
import { labelOf, SUBSCRIPTION_STATUS_LABELS } from './labels.ts';
import { productName } from './products.ts';
import type { RecordKind } from './record-kind.ts';
import { recordsView } from './records-view.ts';
import { restockSender } from './restock-sender.ts';

type Subscription = Output<'/api/admin-notify-list'>['subscriptions'][number];
type ArchivedSubscription = Output<'/api/admin/notify/archives/list'>['subscriptions'][number];

// Status values come from the selects' own options, built from SUBSCRIPTION_STATUS_TABLE.
type Status = Subscription['status'];

const statuses: Pick<RecordKind<Subscription, ArchivedSubscription>, 'statusTable' | 'statusLabels' | 'changeStatus'> = {
  statusLabels: SUBSCRIPTION_STATUS_LABELS,
  statusTable: SUBSCRIPTION_STATUS_TABLE,
  changeStatus: async (api, record, status) =>
    (await api.call('/api/admin-notify-status', { id: record.id, productSlug: record.productSlug, status: status as Status })).subscription,
};

const subscriptions: RecordKind<Subscription, ArchivedSubscription> = {
  ...statuses,
  noun: '登録',
  archivedStatuses: Object.keys(SUBSCRIPTION_STATUS_LABELS),
  list: async (api, filter) => (await api.call('/api/admin-notify-list', { ...filter, status: filter.status as Status | undefined })).subscriptions,
  async setArchived(api, archived, ids) {
    if (archived) {
      const answer = await api.call('/api/admin/notify/archive', { ids });
      return { doneIds: answer.archivedIds, errors: answer.errors ?? [] };
    }
    const answer = await api.call('/api/admin/notify/unarchive', { ids });
    return { doneIds: answer.unarchivedIds, errors: answer.errors ?? [] };
  },
  async archivedPage(api, request) {
    const answer = await api.call('/api/admin/notify/archives/list', request);
    return { items: answer.subscriptions, total: answer.total, page: answer.page, totalPages: answer.totalPages };
  },
  columns: [
    { label: '登録日時', cell: (s) => formatDateTime(s.createdAt) },
    { label: '商品', cell: (s, context) => productName(context.products, s.productSlug) },
    { label: 'メール', cell: (s) => s.email, class: 'email' },
    statusColumn(statuses),
    { label: '通知日時', cell: (s) => formatDateTime(s.notifiedAt) },
  ],
  archivedColumns: [
    { label: 'アーカイブ日時', cell: (s) => formatDateTime(s.archivedAt) },
    { label: '登録日時', cell: (s) => formatDateTime(s.createdAt) },
    { label: '商品', cell: (s, context) => productName(context.products, s.productSlug) },
    { label: 'メール', cell: (s) => s.email, class: 'email' },
    { label: 'ステータス', cell: (s) => labelOf(SUBSCRIPTION_STATUS_LABELS, s.status) },
    { label: '通知日時', cell: (s) => formatDateTime(s.notifiedAt) },
  ],
  panel: restockSender,
};

export const subscriptionsView = recordsView(subscriptions, { hash: '#/subscriptions', label: '再入荷通知' });
