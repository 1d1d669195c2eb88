import type { Kysely, Selectable } from 'kysely';
import type { z } from 'zod';
import type { Tables } from '../db/schema.ts';
import type { AnswerCode } from '../http/error-codes.ts';
import type { SortRequest } from './admin-fields.ts';
import type { StatusTable } from './status-transitions.ts';

/** The tables of the record kinds: listed, moved between statuses and archived the same way. */
export type RecordTable = 'reservations' | 'subscriptions';

/** The columns every record table has, which the shared code (src/records) reads and writes. */
export interface RecordColumns {
  id: string;
  product_slug: string;
  status: string;
  created_at: string;
  /** Archived = set. */
  archived_at: string | null;
  /** The last change (status, notes, archive flag): what `expectedUpdatedAt` is compared with. */
  updated_at: string;
}

/** A stored record of a kind: its own row, read by the shared code through the shared columns. */
export type RecordRow<T extends RecordTable> = Selectable<Tables[T]> & RecordColumns;

/** An active list's request (SPEC §4, §9): filters, a search, a page when either paging field is given, an order. */
export interface ActiveListRequest {
  status?: string;
  productSlug?: string;
  q?: string;
  page?: number;
  pageSize?: number;
  sort?: SortRequest;
}

/** A CSV export's request (SPEC §9): the active list's filters and order, or the archived records with `archived`. */
export interface ExportRequest {
  status?: string;
  productSlug?: string;
  q?: string;
  sort?: SortRequest;
  archived?: boolean;
}

/** One column of a kind's CSV export: its header and its text for a record (times in Japan time). */
export interface CsvColumn<T extends RecordTable> {
  header: string;
  value(row: RecordRow<T>, productName: (slug: string) => string): string;
}

/** An archived list's request (SPEC §4): filters, a page and an order. */
export interface ArchivedListRequest {
  status?: string;
  productSlug?: string;
  page?: number;
  pageSize?: number;
  sort?: SortRequest;
}

/** What every status change names; a kind's request may add fields of its own (a reservation's notes). */
export interface StatusChangeRequest {
  id: string;
  productSlug: string;
  status: string;
  /** The record's `updatedAt` as the requester last saw it: when it has changed since, nothing is written (SPEC §11). */
  expectedUpdatedAt?: string;
  /**
   * The customer's own move (their reservation page, SPEC §6.4), recorded in the history as theirs;
   * the kind may allow it fewer moves. Never part of an admin request.
   */
  byCustomer?: boolean;
}

/** The ways a status change can be refused. */
export type StatusChangeRefused =
  | { outcome: 'not-found' }
  | { outcome: 'archived' }
  /** The record changed after the `expectedUpdatedAt` the request named. */
  | { outcome: 'changed' }
  | { outcome: 'invalid-transition'; from: string; to: string }
  /** The move would make a second active record of a key that must be unique (see uniqueWhileActive). */
  | { outcome: 'conflict'; code: AnswerCode; error: string };

/** `customerEmailed`: whether the move queued the customer's email; absent for a kind that emails nothing on a move. */
export type StatusChangeResult<T extends RecordTable> =
  { outcome: 'updated'; record: RecordRow<T>; customerEmailed?: boolean } | StatusChangeRefused;

/**
 * Everything that differs between record kinds (reservations, restock subscriptions) in how they
 * are listed, moved between statuses and archived: their table, routes, texts, schemas and the
 * kind's own part of a status move. The code in src/records reads this and serves both; a new kind
 * is a new value of this, not new code.
 */
export interface RecordKind<T extends RecordTable = RecordTable, C extends StatusChangeRequest = StatusChangeRequest> {
  table: T;
  paths: {
    /** The active list (`{status?, productSlug?}`). */
    list: string;
    /** The status change. */
    status: string;
    /** One record with its history (`{id}`), archived or not. */
    get: string;
    /** Archive routes live at `<archive>/archive`, `/unarchive` and `/archives/list`. */
    archive: string;
  };
  /** OpenAPI tag of the routes. */
  tag: string;
  /** The plural noun used in summaries and as the list's key in list answers: 'reservations'. */
  listKey: string;
  /** The key of the record in a status change's answer: 'reservation'. */
  itemKey: string;
  /** The API reference's words for the list and status routes. */
  docs: { listSummary: string; listDescription: string; statusSummary: string; statusDescription: string };
  texts: {
    notFound: string;
    /** A status change naming an `expectedUpdatedAt` the record no longer has. */
    changed: string;
    /** A status change of an archived record. */
    archived: string;
    alreadyArchived: string;
    notArchived: string;
  };
  /** The codes of the kind's own errors: its record not found, its record archived. */
  codes: { notFound: AnswerCode; archived: AnswerCode };
  /** The codes a status move or an unarchive of the kind can be refused with besides the shared ones (see `conflict`). */
  conflicts: readonly AnswerCode[];
  /** The columns the active list's `q` looks in (SPEC §9): the id and the customer's own words. */
  searchColumns: readonly string[];
  /**
   * The columns both lists can sort by, by their names in the API (`product`: 'product_slug'); the
   * archived list adds `archivedAt`. Each has its indexes (migration 011).
   */
  sortColumns: Readonly<Record<string, string>>;
  /** The statuses an administrator may set and the moves between them. */
  statusTable: StatusTable<string>;
  /** The CSV export: the file's name (`reservations` → `reservations-20261123-1504.csv`) and its columns, for the shop's staff in Excel. */
  csv: { name: string; columns: CsvColumn<T>[] };
  schemas: {
    listBody: z.ZodType<ActiveListRequest>;
    archivedListBody: z.ZodType<ArchivedListRequest>;
    exportBody: z.ZodType<ExportRequest>;
    listResponse: z.ZodType;
    statusBody: z.ZodType<C>;
    statusResponse: z.ZodType;
    /** An archived record, for the API reference. */
    archivedItem: z.ZodType;
    /** One record with its history (the `get` route's answer). */
    detailResponse: z.ZodType;
  };
  /** An active record as the list and the status change answer with it. */
  activeItem(row: RecordRow<T>): Record<string, unknown>;
  /** An archived record as the archived list shows it. */
  archivedItem(row: RecordRow<T>): Record<string, unknown>;
  /** A record, archived or not, as its own page shows it: every field and its archive state. */
  detailItem(row: RecordRow<T>): Record<string, unknown>;
  /**
   * The kind's own part of an allowed status move (src/records/status-change.ts has found the
   * record, locked it and checked the move): writes it in `trx` and returns the record as it now is.
   * `now` is later than the record's last change (see changeTime), and is its `updated_at` if it writes.
   */
  applyStatusChange(trx: Kysely<Tables>, current: RecordRow<T>, change: C, now: Date): Promise<StatusChangeResult<T>>;
  /**
   * For kinds with records that must be unique among active ones (subscriptions: one pending per
   * address and product). Unarchiving such a record while an active one holds its key, or two
   * records of one key in the same request, is refused for that item with `conflict`; a status
   * move that would do the same is refused with 409 and this text.
   */
  uniqueWhileActive?: {
    /** For each of these ids whose record must be unique while active: its key, and whether an active record holds that key already. */
    find(db: Kysely<Tables>, ids: string[]): Promise<Map<string, { key: string; taken: boolean }>>;
    conflict: { code: AnswerCode; error: string };
  };
}
