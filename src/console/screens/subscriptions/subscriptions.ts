import type { Output } from '../../../client/tenpo-client.ts';
import { SUBSCRIPTION_STATUS_TABLE } from '../../../subscriptions/status.ts';
import { addressWithHistory, clipped, idColumn } from '../../records/columns.ts';
import { statusColumn } from '../../records/status-change.ts';
import { formatDateTime } from '../../ui/format.ts';
import { labelOf, SUBSCRIPTION_STATUS_LABELS } from '../../../words/labels.ts';
import { productName } from '../../api/products.ts';
import type { RecordKind } from '../../records/record-kind.ts';
import type { RecordPage } from '../../records/record-page.ts';
import { recordsScreen } from '../../records/records-screen.ts';
import { restockSender } from './restock-sender.ts';

type Subscription = Output<'/api/admin-notify-list'>['subscriptions'][number];
type ArchivedSubscription = Output<'/api/admin/notify/archives/list'>['subscriptions'][number];
type SubscriptionDetail = Output<'/api/admin/notify/get'>['subscription'];

const statuses: Pick<
  RecordKind<Subscription, ArchivedSubscription>,
  'statusTable' | 'statusLabels' | 'endpoints' | 'noun' | 'confirmStatuses' | 'moveRefusal'
> = {
  noun: '登録',
  // The customer's own opt-out is theirs to reverse, by signing up again: never offered to staff.
  moveRefusal: (s, status) => (status === 'pending' && s.unsubscribedByCustomer ? 'unsubscribed_by_customer' : undefined),
  confirmStatuses: ['unsubscribed'],
  statusLabels: SUBSCRIPTION_STATUS_LABELS,
  statusTable: SUBSCRIPTION_STATUS_TABLE,
  endpoints: {
    list: '/api/admin-notify-list',
    detail: '/api/admin/notify/get',
    bulkStatus: '/api/admin/notify/bulk-status',
    status: '/api/admin-notify-status',
    archive: '/api/admin/notify',
    listKey: 'subscriptions',
    itemKey: 'subscription',
  },
};

const subscriptions: RecordKind<Subscription, ArchivedSubscription> = {
  ...statuses,
  idLabel: '登録番号',
  whose: (s) => s.email,
  searchHint: '登録番号・メールで検索',
  columns: [
    idColumn('登録番号', { linked: true }),
    { label: '登録日時', cell: (s) => formatDateTime(s.createdAt), sort: 'createdAt' },
    { label: '商品', cell: (s, context) => clipped(productName(context.products, s.productSlug)), sort: 'product' },
    { label: 'メール', cell: (s) => addressWithHistory(s.email, s.id), class: 'email', sort: 'email' },
    statusColumn(statuses),
    { label: '通知日時', cell: (s) => formatDateTime(s.notifiedAt) },
  ],
  archivedColumns: [
    { label: 'アーカイブ日時', cell: (s) => formatDateTime(s.archivedAt), sort: 'archivedAt' },
    { label: '登録日時', cell: (s) => formatDateTime(s.createdAt), sort: 'createdAt' },
    { label: '商品', cell: (s, context) => clipped(productName(context.products, s.productSlug)), sort: 'product' },
    { label: 'メール', cell: (s) => clipped(s.email), class: 'email', sort: 'email' },
    { label: 'ステータス', cell: (s) => labelOf(SUBSCRIPTION_STATUS_LABELS, s.status), sort: 'status' },
    { label: '通知日時', cell: (s) => formatDateTime(s.notifiedAt) },
  ],
  panel: restockSender,
};

const subscriptionPage: RecordPage<Subscription, SubscriptionDetail> = {
  get: '/api/admin/notify/get',
  facts: [
    { label: '登録日時', cell: (s) => formatDateTime(s.createdAt) },
    { label: '商品', cell: (s, context) => productName(context.products, s.productSlug) },
    { label: 'メール', cell: (s) => s.email, class: 'email' },
    { label: '通知日時', cell: (s) => formatDateTime(s.notifiedAt) },
    { label: '最終更新', cell: (s) => formatDateTime(s.updatedAt) },
  ],
  actions: [statusColumn(statuses)],
};

export const openScreen = recordsScreen(subscriptions, '再入荷通知', subscriptionPage);
