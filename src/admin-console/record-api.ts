import type { EndpointPath, TenpoClient } from '../client/tenpo-client.ts';
import type { ArchivedPage, BulkResult, Filter } from './record-kind.ts';

// A record kind's calls, made the same way for every kind from its endpoints: which path serves
// each role, and the key its answers hold records under.

/** `'/api/admin/reservations' | '/api/admin/notify'`: where a kind's archive routes live. */
type ArchivePrefix = EndpointPath extends infer P ? (P extends `${infer Prefix}/archives/list` ? Prefix : never) : never;

export interface RecordEndpoints {
  list: Extract<EndpointPath, `/api/admin-${string}-list`>;
  status: Extract<EndpointPath, `/api/admin-${string}-status`>;
  archive: ArchivePrefix;
  /** The key of the records in list answers: 'reservations'. */
  listKey: string;
  /** The key of the record in a status change's answer: 'reservation'. */
  itemKey: string;
}

/**
 * Calls a kind's list or status endpoint. The client pairs each path with its own input; a kind's
 * path here is one of several (a union), with inputs whose `status` is each kind's own statuses.
 * The status sent comes from the kind's own status table (the select's options) or is the
 * record's own (a notes edit, which the service refuses with 400 for a legacy status).
 */
const callWithStatus = (api: TenpoClient, path: RecordEndpoints['list' | 'status'], input: { status?: string; productSlug?: string }) =>
  (api.call as (path: RecordEndpoints['list' | 'status'], input: object) => Promise<Record<string, unknown>>)(path, input);

// The views name their record types (R, A) from these same endpoints' answers (reservations-view.ts),
// which hold them under the kind's key; that key is what is read here.

/** The kind's active records, newest first. */
export async function listActive<R>(api: TenpoClient, endpoints: RecordEndpoints, filter: Filter): Promise<R[]> {
  return (await callWithStatus(api, endpoints.list, filter))[endpoints.listKey] as R[];
}

/** Moves a record to `status` (the same status edits the other fields), and returns it as it now is. */
export async function changeStatus<R extends { id: string; productSlug: string }>(
  api: TenpoClient,
  endpoints: RecordEndpoints,
  record: R,
  change: { status: string; notes?: string },
): Promise<R> {
  const input = { id: record.id, productSlug: record.productSlug, ...change };
  return (await callWithStatus(api, endpoints.status, input))[endpoints.itemKey] as R;
}

/** Archives (or restores) these records; each one that could not be is listed with its reason. */
export async function setArchived(api: TenpoClient, endpoints: RecordEndpoints, archived: boolean, ids: { id: string; productSlug: string }[]): Promise<BulkResult> {
  if (archived) {
    const answer = await api.call(`${endpoints.archive}/archive` as const, { ids });
    return { doneIds: answer.archivedIds, errors: answer.errors ?? [] };
  }
  const answer = await api.call(`${endpoints.archive}/unarchive` as const, { ids });
  return { doneIds: answer.unarchivedIds, errors: answer.errors ?? [] };
}

/** One page of the kind's archived records, most recently archived first. */
export async function archivedPage<A>(api: TenpoClient, endpoints: RecordEndpoints, request: Filter & { page: number; pageSize: number }): Promise<ArchivedPage<A>> {
  const answer = await api.call(`${endpoints.archive}/archives/list` as const, request);
  const byKey: Record<string, unknown> = answer;
  return { items: byKey[endpoints.listKey] as A[], total: answer.total, page: answer.page, totalPages: answer.totalPages };
}
