import type { Selectable } from 'kysely';
import type { Tables } from '../db/schema.ts';
import type { AnswerCode, ErrorCode } from '../http/error-codes.ts';

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

/** How a kind's records are found: its table, the columns a list's `q` looks in, the columns its lists sort by. */
export interface RecordLists<T extends RecordTable = RecordTable> {
  table: T;
  /** The id and the customer's own words, each as stored folded (a name's `name_fold`) or lowercased. */
  searchColumns: readonly string[];
  /** Whether `q` also finds a record by its `number` (reservations: `1001`, `#1001`). */
  numbered: boolean;
  /** By their names in the API (`product`: 'product_slug'); each has its indexes (migration 011). The archived list adds `archivedAt`. */
  sortColumns: Readonly<Record<string, string>>;
}

/** An error about one record, as an answer (`code` has a status) or as an item of a bulk answer. */
export interface Refusal<C extends ErrorCode = ErrorCode> {
  code: C;
  error: string;
}

/** What staff are told about a kind's records when a request cannot be done, in words and codes. */
export interface RecordRefusals {
  notFound: Refusal<AnswerCode>;
  /** A status change naming an `expectedUpdatedAt` the record no longer has. */
  changed: Refusal<'changed_by_someone_else'>;
  /** A status change of an archived record. */
  archived: Refusal<AnswerCode>;
  alreadyArchived: Refusal<'already_archived'>;
  notArchived: Refusal<'not_archived'>;
}
