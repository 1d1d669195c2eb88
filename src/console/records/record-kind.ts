import type { EndpointPath, ErrorCode } from '../../client/tenpo-client.ts';
import type { StatusTable } from '../../records/status-transitions.ts';
import type { Child } from '../ui/dom.ts';
import type { StatusEmail } from './status-email.ts';
import type { ScreenContext } from '../screen.ts';

// Reservations and restock subscriptions are listed, filtered, moved between statuses, archived and
// unarchived the same way: one set of screens serves both, and this is everything that differs.

export interface ActiveRecord {
  id: string;
  productSlug: string;
  status: string;
  createdAt: string;
  /** Sent back with every change, so that a change made meanwhile by someone else is refused, not undone */
  updatedAt: string;
}

export interface ArchivedRecord extends ActiveRecord {
  archivedAt: string;
}

export interface Filter {
  status?: string;
  productSlug?: string;
  /** The search box: the number, or part of the name or address (folded), in either view. */
  q?: string;
}

/** A list's order: a column's sort key (the API's `sort.by`) and its direction. */
export interface Sort {
  by: string;
  order: 'asc' | 'desc';
}

/** What a list screen keeps (in the URL too): its filters, page and order; no order is the list's own. */
export interface ListState {
  filter: Filter;
  page: number;
  sort?: Sort;
}

export interface BulkResult {
  doneIds: string[];
  /** The records left as they were, each with why in staff's words. */
  errors: { id: string; reason: string }[];
}

export interface Page<A> {
  items: A[];
  total: number;
  page: number;
  totalPages: number;
}

/** A message shown under a record's row: what just happened to that record. */
export interface RowNote {
  text: string;
  tone: 'success' | 'error';
}

/** A move's effect on a campaign in staff's words: before it is made, and once it is. */
export interface CampaignEffect {
  before: string;
  after: string;
}

/** A cell of a record's row; `update` shows the record as the service now returns it, with a note under it. */
export interface Column<R> {
  label: string;
  cell(record: R, context: ScreenContext, update: (record: R, note?: RowNote) => void): Child;
  /** A class for the cell (its width, say). */
  class?: string;
  /** The list's sort key this column orders by (`sort.by`); its header then sorts the list. */
  sort?: string;
}

/** `'/api/admin/reservations' | '/api/admin/notify'`: where a kind's archive routes live. */
type ArchivePrefix = EndpointPath extends infer P ? (P extends `${infer Prefix}/archives/list` ? Prefix : never) : never;

/** The endpoint answering one record and its history. */
export type DetailPath = '/api/admin/reservations/get' | '/api/admin/notify/get';

/** A kind's endpoints, one for each role, and the keys its answers hold records under (api/records.ts calls them). */
export interface RecordEndpoints {
  list: Extract<EndpointPath, `/api/admin-${string}-list`>;
  detail: DetailPath;
  /** Moves many records to a status in one request. */
  bulkStatus: '/api/admin/reservations/bulk-status' | '/api/admin/notify/bulk-status';
  status: Extract<EndpointPath, `/api/admin-${string}-status`>;
  archive: ArchivePrefix;
  /** The key of the records in list answers: 'reservations'. */
  listKey: string;
  /** The key of the record in a status change's answer: 'reservation'. */
  itemKey: string;
}

export interface RecordKind<R extends ActiveRecord, A extends ArchivedRecord> {
  /** What one record is called: 予約, 登録. */
  noun: string;
  /** What its id is called where staff read it: ご予約番号. */
  idLabel: string;
  /** What staff read and copy as its id, when not the id itself: a reservation's number. */
  shownId?(record: R | A): string;
  /** Whose it is, as staff know them: a reservation's name, a signup's address. */
  whose(record: R | A): string;
  /** The search box's placeholder: what it looks in. */
  searchHint: string;
  /** Statuses a move to asks first (a cancellation), its confirm in red. */
  confirmStatuses: string[];
  /** The customer email a move to `status` sends, if any: the move then asks first, saying so, and staff may switch it off. */
  customerEmail?(context: ScreenContext, status: string): Promise<StatusEmail | undefined>;
  /** Why this record may not move to `status` though the status table allows it (a customer's own opt-out): not offered, and said. */
  moveRefusal?(record: R, status: string): ErrorCode | undefined;
  /** What moving these records to `status` does to a preorder campaign, said in the move's dialog (`before`) and its outcome (`after`). */
  campaignEffect?(context: ScreenContext, records: R[], status: string): Promise<CampaignEffect | undefined>;
  statusLabels: Record<string, string>;
  statusTable: StatusTable<string>;
  /** Where its records are listed, moved and archived. */
  endpoints: RecordEndpoints;
  columns: Column<R>[];
  archivedColumns: Column<A>[];
  /** A panel above the active list (the restock sender); `reload` refreshes the list after it acted. */
  panel?(context: ScreenContext, reload: () => void): Node;
}
