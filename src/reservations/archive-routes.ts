import type { Catalog } from '../catalog/catalog.ts';
import { staffIdOf } from '../http/admin-auth.ts';
import type { Database } from '../db/database.ts';
import { replyJson } from '../http/reply.ts';
import { defineRoute, type Route } from '../http/route.ts';
import { labelOf, RESERVATION_STATUS_LABELS } from '../words/labels.ts';
import { bulkSetArchived, type ArchiveTarget } from '../records/bulk-archive.ts';
import { japanTime, recordCsv, type CsvColumn } from '../records/export.ts';
import { listArchived } from '../records/lists.ts';
import { archivedListContract, bulkArchiveAnswer, bulkArchiveContract, csvAnswer, csvExportContract } from '../records/route-contracts.ts';
import {
  ArchivedListBody,
  ArchivedReservationSchema,
  archivedReservation,
  ExportBody,
  REFUSALS,
  RESERVATION_LISTS,
  WORDS,
} from './schemas.ts';

// Reservations put away and brought back, the archived list, and the lists as a CSV file for Excel.

const ARCHIVE: ArchiveTarget = { table: 'reservations', refusals: REFUSALS };

/** The CSV export's columns, for the shop's staff in Excel. */
const CSV_COLUMNS: CsvColumn<'reservations'>[] = [
  { header: '予約番号', value: (r) => String(r.number) },
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
  { header: 'レコードID', value: (r) => r.id },
];

export function reservationArchiveRoutes(deps: { database: Database; catalog: Catalog }): Route[] {
  const { database } = deps;
  return [
    defineRoute({
      path: '/api/admin/reservations/archive',
      ...bulkArchiveContract(WORDS, 'archive'),
      handle: async (c, { body }) =>
        replyJson(
          c,
          200,
          bulkArchiveAnswer(
            'archive',
            await bulkSetArchived(database, ARCHIVE, 'archive', body.ids, new Date().toISOString(), staffIdOf(c)),
          ),
        ),
    }),
    defineRoute({
      path: '/api/admin/reservations/unarchive',
      ...bulkArchiveContract(WORDS, 'unarchive'),
      handle: async (c, { body }) =>
        replyJson(
          c,
          200,
          bulkArchiveAnswer(
            'unarchive',
            await bulkSetArchived(database, ARCHIVE, 'unarchive', body.ids, new Date().toISOString(), staffIdOf(c)),
          ),
        ),
    }),
    defineRoute({
      path: '/api/admin/reservations/archives/list',
      ...archivedListContract(WORDS, RESERVATION_LISTS.sortColumns, { body: ArchivedListBody, item: ArchivedReservationSchema }),
      handle: async (c, { body }) => {
        const { rows, paging } = await listArchived(database, RESERVATION_LISTS, body);
        return replyJson(c, 200, { success: true, reservations: rows.map(archivedReservation), ...paging });
      },
    }),
    defineRoute({
      path: '/api/admin/reservations/export',
      ...csvExportContract(WORDS, { fileName: 'reservations', headers: CSV_COLUMNS.map((column) => column.header) }, ExportBody),
      handle: (c, { body }) => {
        const productName = (slug: string) => deps.catalog.bySlug.get(slug)?.name ?? '';
        const chunks = recordCsv(database, RESERVATION_LISTS, CSV_COLUMNS, body, productName);
        return csvAnswer(c, { name: 'reservations', archived: body.archived === true }, chunks);
      },
    }),
  ];
}
