import type { Output } from '../client/tenpo-client.ts';
import { SUBSCRIPTION_STATUS_TABLE } from '../subscriptions/status.ts';
import { idColumn, statusColumn } from './active-list.ts';
import { formatDateTime } from './format.ts';
import { labelOf, SUBSCRIPTION_STATUS_LABELS } from './labels.ts';
import { addressWithHistory } from './messages-view.ts';
import { productName } from './products.ts';
import type { RecordKind } from './record-kind.ts';
import { recordsView } from './records-view.ts';
import { restockSender } from './restock-sender.ts';

type Subscription = Output<'/api/admin-notify-list'>['subscriptions'][number];
type ArchivedSubscription = Output<'/api/admin/notify/archives/list'>['subscriptions'][number];

const statuses: Pick<RecordKind<Subscription, ArchivedSubscription>, 'statusTable' | 'statusLabels' | 'endpoints' | 'noun' | 'confirmStatuses'> = {
  noun: '登録',
  confirmStatuses: ['unsubscribed'],
  statusLabels: SUBSCRIPTION_STATUS_LABELS,
  statusTable: SUBSCRIPTION_STATUS_TABLE,
  endpoints: {
    list: '/api/admin-notify-list',
    status: '/api/admin-notify-status',
    archive: '/api/admin/notify',
    listKey: 'subscriptions',
    itemKey: 'subscription',
  },
};

const subscriptions: RecordKind<Subscription, ArchivedSubscription> = {
  ...statuses,
  idLabel: '登録番号',
  searchHint: '登録番号・メールで検索',
  archivedStatuses: Object.keys(SUBSCRIPTION_STATUS_LABELS),
  columns: [
    idColumn('登録番号'),
    { label: '登録日時', cell: (s) => formatDateTime(s.createdAt) },
    { label: '商品', cell: (s, context) => productName(context.products, s.productSlug) },
    { label: 'メール', cell: (s) => addressWithHistory(s.email, s.id), class: 'email' },
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
