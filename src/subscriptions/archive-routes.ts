import type { Catalog } from '../catalog/catalog.ts';
import { staffIdOf } from '../http/admin-auth.ts';
import type { Database } from '../db/database.ts';
import { replyJson } from '../http/reply.ts';
import { defineRoute, type Route } from '../http/route.ts';
import { labelOf, SUBSCRIPTION_STATUS_LABELS } from '../words/labels.ts';
import { bulkSetArchived, type ArchiveTarget } from '../records/bulk-archive.ts';
import { japanTime, recordCsv, type CsvColumn } from '../records/export.ts';
import { listArchived } from '../records/lists.ts';
import {
  archivedListContract,
  bulkArchiveAnswer,
  bulkArchiveContract,
  csvAnswer,
  csvExportContract,
  describedFurther,
} from '../records/route-contracts.ts';
import { ANOTHER_PENDING_SUBSCRIPTION } from './change-status.ts';
import {
  ArchivedListBody,
  ArchivedSubscriptionSchema,
  archivedSubscription,
  ExportBody,
  REFUSALS,
  SUBSCRIPTION_LISTS,
  WORDS,
} from './schemas.ts';

// Subscriptions put away and brought back, the archived list, and the lists as a CSV file for Excel.

/**
 * At most one active pending subscription per address and product: an unarchive that would make a
 * second one is refused for that item.
 */
export const SUBSCRIPTION_ARCHIVE: ArchiveTarget = {
  table: 'subscriptions',
  refusals: REFUSALS,
  unique: { status: 'pending', columns: ['product_slug', 'email'], refusal: ANOTHER_PENDING_SUBSCRIPTION },
};

/** The CSV export's columns, for the shop's staff in Excel. */
const CSV_COLUMNS: CsvColumn<'subscriptions'>[] = [
  { header: '登録番号', value: (s) => s.id },
  { header: '登録日時', value: (s) => japanTime(s.created_at) },
  { header: 'メールアドレス', value: (s) => s.email },
  { header: '商品コード', value: (s) => s.product_slug },
  { header: '商品名', value: (s, productName) => productName(s.product_slug) },
  { header: '状態', value: (s) => labelOf(SUBSCRIPTION_STATUS_LABELS, s.status) },
  { header: '通知日時', value: (s) => japanTime(s.notified_at) },
  { header: '最終更新日時', value: (s) => japanTime(s.updated_at) },
  { header: 'アーカイブ日時', value: (s) => japanTime(s.archived_at) },
];

export function subscriptionArchiveRoutes(deps: { database: Database; catalog: Catalog }): Route[] {
  const { database } = deps;
  return [
    defineRoute({
      path: '/api/admin/notify/archive',
      ...bulkArchiveContract(WORDS, 'archive'),
      handle: async (c, { body }) =>
        replyJson(
          c,
          200,
          bulkArchiveAnswer(
            'archive',
            await bulkSetArchived(database, SUBSCRIPTION_ARCHIVE, 'archive', body.ids, new Date().toISOString(), staffIdOf(c)),
          ),
        ),
    }),
    defineRoute({
      path: '/api/admin/notify/unarchive',
      ...describedFurther(
        bulkArchiveContract(WORDS, 'unarchive'),
        'An unarchive that would make a second active pending subscription for the same address and product is refused for that item.',
      ),
      handle: async (c, { body }) =>
        replyJson(
          c,
          200,
          bulkArchiveAnswer(
            'unarchive',
            await bulkSetArchived(database, SUBSCRIPTION_ARCHIVE, 'unarchive', body.ids, new Date().toISOString(), staffIdOf(c)),
          ),
        ),
    }),
    defineRoute({
      path: '/api/admin/notify/archives/list',
      ...archivedListContract(WORDS, SUBSCRIPTION_LISTS.sortColumns, { body: ArchivedListBody, item: ArchivedSubscriptionSchema }),
      handle: async (c, { body }) => {
        const { rows, paging } = await listArchived(database, SUBSCRIPTION_LISTS, body);
        return replyJson(c, 200, { success: true, subscriptions: rows.map(archivedSubscription), ...paging });
      },
    }),
    defineRoute({
      path: '/api/admin/notify/export',
      ...csvExportContract(WORDS, { fileName: 'subscriptions', headers: CSV_COLUMNS.map((column) => column.header) }, ExportBody),
      handle: (c, { body }) => {
        const productName = (slug: string) => deps.catalog.bySlug.get(slug)?.name ?? '';
        const chunks = recordCsv(database, SUBSCRIPTION_LISTS, CSV_COLUMNS, body, productName);
        return csvAnswer(c, { name: 'subscriptions', archived: body.archived === true }, chunks);
      },
    }),
  ];
}
