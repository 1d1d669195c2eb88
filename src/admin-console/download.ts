import { ApiError } from '../client/tenpo-client.ts';
import { h } from './dom.ts';
import type { Filter } from './record-kind.ts';
import { storedToken } from './session.ts';

// Files the console hands to the browser's downloads: a JSON export it already holds, or a CSV
// file the service streams.

/** Saves `blob` under `name` through the browser's download, as a link would. */
export function saveFile(blob: Blob, name: string): void {
  const link = h('a', { href: URL.createObjectURL(blob), download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
}

/**
 * Downloads a kind's records as CSV (`<archive prefix>/export`), filtered and ordered as the list
 * shows them.
 * Not through the typed client, which reads JSON: a refusal is read from the envelope into the
 * same ApiError, so a rejected token signs out as any other call does.
 */
export async function downloadCsv(
  archivePrefix: string,
  filter: Filter,
  list: { archived: boolean; sort?: { by: string; order: 'asc' | 'desc' } },
): Promise<void> {
  let response: Response;
  try {
    response = await fetch(`${archivePrefix}/export`, {
      method: 'POST',
      headers: { authorization: `Bearer ${storedToken() ?? ''}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...filter, ...(list.sort ? { sort: list.sort } : {}), ...(list.archived ? { archived: true } : {}) }),
    });
  } catch (cause) {
    throw new ApiError(0, 'No answer from the service', { cause });
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as { error?: string; details?: { field: string; message: string }[] };
    throw new ApiError(response.status, body.error ?? `HTTP ${response.status}`, {
      details: body.details,
      requestId: response.headers.get('x-request-id') ?? undefined,
    });
  }
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'export.csv';
  saveFile(await response.blob(), name);
}
