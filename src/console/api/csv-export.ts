import { ApiError, type ErrorBody } from '../../client/tenpo-client.ts';
import type { Filter } from '../records/record-kind.ts';
import type { ScreenContext } from '../screen.ts';
import { roleOf, storedToken } from '../shell/session.ts';
import { saveFile } from '../ui/save-file.ts';

/**
 * Whether the signed-in role may take customers' personal data in bulk (the CSV of a whole list):
 * owners and the token holder only, as the service decides (a staff account gets 403).
 */
export const mayTakeInBulk = (context: Pick<ScreenContext, 'who'>) => roleOf(context.who) === 'owner';

/**
 * Downloads a kind's records as CSV (`<archive prefix>/export`), filtered and ordered as the list
 * shows them.
 * Not through the typed client, which reads JSON: a refusal is read from the envelope into the
 * same ApiError, so a refused session or token signs out as any other call does.
 */
export async function downloadCsv(
  archivePrefix: string,
  filter: Filter,
  list: { archived: boolean; sort?: { by: string; order: 'asc' | 'desc' } },
): Promise<void> {
  // The token holder's tab sends its token; a signed-in account's browser sends its session cookie.
  const token = storedToken();
  let response: Response;
  try {
    response = await fetch(`${archivePrefix}/export`, {
      method: 'POST',
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'application/json' },
      body: JSON.stringify({ ...filter, ...(list.sort ? { sort: list.sort } : {}), ...(list.archived ? { archived: true } : {}) }),
    });
  } catch (cause) {
    throw new ApiError(0, 'サーバーから応答がありません', { cause });
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as Partial<ErrorBody>;
    throw new ApiError(response.status, body.error ?? `HTTP ${response.status}`, {
      code: body.code,
      details: body.details,
      requestId: response.headers.get('x-request-id') ?? undefined,
    });
  }
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'export.csv';
  saveFile(await response.blob(), name);
}
