import type { TenpoClient } from '../../client/tenpo-client.ts';
import type { ActiveRecord, BulkResult, Filter, Page, RecordEndpoints, Sort } from '../records/record-kind.ts';
import { reasonOf } from './errors.ts';

// A record kind's calls, made the same way for every kind from its endpoints: which path serves
// each role, and the key its answers hold records under.

/** The most records one archive request may name; more are sent in several. */
export const BULK_BATCH = 500;

/**
 * Calls a kind's list or status endpoint. The client pairs each path with its own input; a kind's
 * path here is one of several (a union), with inputs whose `status` is each kind's own statuses.
 * The status sent comes from the kind's own status table (the select's options) or is the
 * record's own (a notes edit, which the service refuses with 400 for a legacy status).
 */
const callWithStatus = (api: TenpoClient, path: RecordEndpoints['list' | 'status'], input: object) =>
  (api.call as (path: RecordEndpoints['list' | 'status'], input: object) => Promise<Record<string, unknown>>)(path, input);

// The views name their record types (R, A) from these same endpoints' answers (reservations-view.ts),
// which hold them under the kind's key; that key is what is read here.

/** Every active record of the kind the filter matches, newest first. */
export async function listActive<R>(api: TenpoClient, endpoints: RecordEndpoints, filter: Filter): Promise<R[]> {
  return (await callWithStatus(api, endpoints.list, filter))[endpoints.listKey] as R[];
}

/** One page of the active records the filter matches, newest first or in the order given. */
export async function activePage<R>(
  api: TenpoClient,
  endpoints: RecordEndpoints,
  request: Filter & { page: number; pageSize: number; sort?: Sort },
): Promise<Page<R>> {
  const answer = await callWithStatus(api, endpoints.list, request);
  return {
    items: answer[endpoints.listKey] as R[],
    total: answer.total as number,
    page: answer.page as number,
    totalPages: answer.totalPages as number,
  };
}

/** The active record with this id as it now is, or undefined when it is no longer active. */
export async function findActive<R extends ActiveRecord>(api: TenpoClient, endpoints: RecordEndpoints, record: R): Promise<R | undefined> {
  const found = await listActive<R>(api, endpoints, { q: record.id, productSlug: record.productSlug });
  return found.find((candidate) => candidate.id === record.id);
}

/** Who made a change: the customer, a staff account by its name, or the admin token (no one's account). */
export type ChangedBy = { actor: 'customer' } | { actor: 'staff'; staffName: string | null };

/** Who made the record's latest change (a move, a memo edit, archiving), from its history; undefined when it has none. */
export async function lastChangeBy(api: TenpoClient, endpoints: RecordEndpoints, id: string): Promise<ChangedBy | undefined> {
  const { history } = await api.call(endpoints.detail, { id });
  const last = history.findLast((entry) => entry.type !== 'message');
  if (!last) return undefined;
  return last.actor === 'customer' ? { actor: 'customer' } : { actor: 'staff', staffName: last.staffName };
}

/**
 * Moves a record to `status` (the same status edits the other fields), and returns it as it now is.
 * The record's `updatedAt` goes with it: if someone changed the record since it was shown, the
 * service refuses (409) and nothing is written.
 */
export async function changeStatus<R extends ActiveRecord>(
  api: TenpoClient,
  endpoints: RecordEndpoints,
  record: R,
  change: { status: string; notes?: string; notifyCustomer?: boolean },
): Promise<R> {
  const input = { id: record.id, productSlug: record.productSlug, expectedUpdatedAt: record.updatedAt, ...change };
  return (await callWithStatus(api, endpoints.status, input))[endpoints.itemKey] as R;
}

/**
 * Moves these records (at most BULK_BATCH) to `status` in one request, each with the `updatedAt`
 * it was shown with; those moved as they now are, and each one refused with its code.
 */
export async function moveInBulk<R extends ActiveRecord>(
  api: TenpoClient,
  endpoints: RecordEndpoints,
  records: R[],
  change: { status: string; notifyCustomer?: boolean },
): Promise<{ updated: R[]; errors: { id: string; code: string }[] }> {
  const items = records.map(({ id, productSlug, updatedAt }) => ({ id, productSlug, expectedUpdatedAt: updatedAt }));
  const call = api.call as (
    path: RecordEndpoints['bulkStatus'],
    input: object,
  ) => Promise<{ updated: unknown[]; errors?: { id: string; code: string }[] }>;
  const answer = await call(endpoints.bulkStatus, { items, ...change });
  return { updated: answer.updated as R[], errors: answer.errors ?? [] };
}

/** Archives (or restores) these records; each one that could not be is listed with its reason. */
export async function setArchived(
  api: TenpoClient,
  endpoints: RecordEndpoints,
  archived: boolean,
  ids: { id: string; productSlug: string }[],
): Promise<BulkResult> {
  const reasons = (errors: { id: string; code: string }[] = []) => errors.map(({ id, code }) => ({ id, reason: reasonOf(code) }));
  if (archived) {
    const answer = await api.call(`${endpoints.archive}/archive` as const, { ids });
    return { doneIds: answer.archivedIds, errors: reasons(answer.errors) };
  }
  const answer = await api.call(`${endpoints.archive}/unarchive` as const, { ids });
  return { doneIds: answer.unarchivedIds, errors: reasons(answer.errors) };
}

/** One page of the kind's archived records, most recently archived first or in the order given. */
export async function archivedPage<A>(
  api: TenpoClient,
  endpoints: RecordEndpoints,
  request: Filter & { page: number; pageSize: number; sort?: Sort },
): Promise<Page<A>> {
  const answer = await api.call(`${endpoints.archive}/archives/list` as const, request);
  const byKey: Record<string, unknown> = answer;
  return { items: byKey[endpoints.listKey] as A[], total: answer.total, page: answer.page, totalPages: answer.totalPages };
}
