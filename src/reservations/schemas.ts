import { z } from 'zod';
import { BulkStatusItems } from '../records/bulk-status.ts';
import { exportFilterBody, listFilterBody, statusChangeFields, storedStatus } from '../records/admin-fields.ts';
import { archivedSortColumns, sortNames } from '../records/lists.ts';
import type { RecordLists, RecordRefusals } from '../records/record-rows.ts';
import type { KindWords } from '../records/route-contracts.ts';
import {
  bulkStatusResponse,
  activeListResponse,
  archivedListBody,
  recordDetailResponse,
  statusChangeResponse,
} from '../records/schemas.ts';
import { isStorable } from '../text/storable-text.ts';
import { codePointLength } from '../text/code-points.ts';
import { RESERVATION_STATUSES } from './status.ts';
import type { Reservation } from './store.ts';

// What the reservation admin endpoints take and answer with, as data and as schemas for the API
// reference and the typed client, and the words they use.

export const WORDS: KindWords = { tag: 'Admin: reservations', listKey: 'reservations', itemKey: 'reservation' };

/** What staff are told when a request about a reservation cannot be done. */
export const REFUSALS: RecordRefusals = {
  notFound: { code: 'reservation_not_found', error: 'Reservation not found' },
  changed: { code: 'changed_by_someone_else', error: 'Reservation was changed by someone else' },
  archived: { code: 'reservation_archived', error: 'Reservation is archived' },
  alreadyArchived: { code: 'already_archived', error: 'Reservation already archived' },
  notArchived: { code: 'not_archived', error: 'Reservation is not archived' },
};

const NOTES_MESSAGE = 'notes must be a string of at most 2000 characters';

const StoredStatusSchema = storedStatus(
  RESERVATION_STATUSES,
  "A legacy status of the previous system's records, such as reserved or responded",
);

export const ActiveReservationSchema = z
  .object({
    id: z.string(),
    number: z.number().int().describe('The reservation number customers quote (1001, 1002, …): unique, increasing with creation'),
    name: z.string(),
    email: z.string(),
    productSlug: z.string(),
    status: StoredStatusSchema,
    notes: z.string().describe("Admin notes; '' if none"),
    createdAt: z.string(),
    updatedAt: z.string().describe('The last change (status, notes, archive flag); send it back as expectedUpdatedAt'),
    preorderId: z
      .string()
      .nullable()
      .describe(
        "The preorder campaign it was taken under (the id in POST /api/admin/preorders/list; a deleted campaign's stays); null for none",
      ),
  })
  .meta({ id: 'Reservation' });

export const ArchivedReservationSchema = z
  .object({
    id: z.string(),
    number: z.number().int().describe('The reservation number customers quote (1001, 1002, …): unique, increasing with creation'),
    email: z.string(),
    name: z.string(),
    productSlug: z.string(),
    status: StoredStatusSchema.describe('The status held when archived (legacy records may hold reserved or responded)'),
    notes: z.string(),
    createdAt: z.string(),
    respondedAt: z.string().nullable().describe('First move away from pending; null if never'),
    isArchived: z.literal(true),
    archivedAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'ArchivedReservation' });

export const ReservationDetailSchema = ActiveReservationSchema.extend({
  respondedAt: z.string().nullable().describe('First move away from pending; null if never'),
  archivedAt: z.string().nullable().describe('When it was archived; null while active'),
}).meta({ id: 'ReservationDetail' });

/** The columns the lists sort by, by their names in the API (migration 011 indexes them). */
export const SORT_COLUMNS: Readonly<Record<string, string>> = {
  createdAt: 'created_at',
  updatedAt: 'updated_at',
  name: 'name',
  product: 'product_slug',
  status: 'status',
};

/** How the lists find reservations: `q` looks in the id and the customer's own words. */
export const RESERVATION_LISTS: RecordLists<'reservations'> = {
  table: 'reservations',
  searchColumns: ['id', 'name_fold', 'email'],
  numbered: true,
  sortColumns: SORT_COLUMNS,
};

/** What a list's `q` looks in; a reservation's number is found as `1001` or `#1001`, exactly. */
const SEARCHED = 'name, email or id (or, as 1001 or #1001, its number exactly)';

export const ListBody = listFilterBody(RESERVATION_STATUSES, SEARCHED, sortNames(SORT_COLUMNS));
export const ArchivedListBody = archivedListBody(SORT_COLUMNS, SEARCHED);
export const ExportBody = exportFilterBody(RESERVATION_STATUSES, SEARCHED, sortNames(archivedSortColumns(SORT_COLUMNS)));

export const StatusBody = z.object({
  ...statusChangeFields(RESERVATION_STATUSES),
  notes: z
    .string({ error: NOTES_MESSAGE })
    .refine((notes) => codePointLength(notes) <= 2000 && isStorable(notes), NOTES_MESSAGE)
    .optional()
    .describe("Replaces the notes when present ('' clears them); absent keeps them"),
  notifyCustomer: z
    .boolean({ error: 'notifyCustomer must be a boolean' })
    .optional()
    .describe('Whether a move to confirmed, fulfilled or cancelled emails the customer (when that email is enabled); default true'),
});

/** A bulk move: the records, and the status and email choice a single move takes. */
export const BulkStatusBody = z.object({
  items: BulkStatusItems,
  status: StatusBody.shape.status,
  notifyCustomer: StatusBody.shape.notifyCustomer,
});

export const ListResponse = activeListResponse('reservations', ActiveReservationSchema);
export const StatusResponse = statusChangeResponse('reservation', ActiveReservationSchema);
export const BulkStatusResponse = bulkStatusResponse(ActiveReservationSchema);
export const DetailResponse = recordDetailResponse('reservation', ReservationDetailSchema);

export function activeReservation(row: Reservation): z.output<typeof ActiveReservationSchema> {
  return {
    id: row.id,
    number: Number(row.number),
    name: row.name,
    email: row.email,
    productSlug: row.product_slug,
    status: row.status,
    notes: row.notes,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    preorderId: row.preorder_id,
  };
}

export function reservationDetail(row: Reservation): z.output<typeof ReservationDetailSchema> {
  return { ...activeReservation(row), respondedAt: row.responded_at, archivedAt: row.archived_at };
}

export function archivedReservation(row: Reservation): z.output<typeof ArchivedReservationSchema> {
  return {
    id: row.id,
    number: Number(row.number),
    email: row.email,
    name: row.name,
    productSlug: row.product_slug,
    status: row.status,
    notes: row.notes,
    createdAt: row.created_at,
    respondedAt: row.responded_at,
    isArchived: true,
    archivedAt: row.archived_at ?? '',
    updatedAt: row.updated_at,
  };
}
