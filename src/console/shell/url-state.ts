// A screen's filters, page and view live in the URL after its hash (`#/reservations?status=pending&page=2`),
// so a reload or a shared link shows the same list. Written with replaceState, which fires no
// hashchange: the screen is not drawn again for its own change.

/** The hash's screen part: `#/reservations` of `#/reservations?page=2`. */
export function screenHash(hash: string = location.hash): string {
  const at = hash.indexOf('?');
  return at === -1 ? hash : hash.slice(0, at);
}

/** The parameters after the screen's hash. */
export function readParams(): URLSearchParams {
  const at = location.hash.indexOf('?');
  return new URLSearchParams(at === -1 ? '' : location.hash.slice(at + 1));
}

/** Replaces the parameters after the screen's hash; empty values are left out. */
export function writeParams(values: Record<string, string | number | undefined>): void {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) if (value !== undefined && value !== '') params.set(name, String(value));
  const query = params.toString();
  history.replaceState(history.state, '', `${screenHash()}${query ? `?${query}` : ''}`);
}

/** A positive page number from the URL, 1 when absent or not one. */
export function pageParam(value: string | null): number {
  const page = Number(value);
  return Number.isSafeInteger(page) && page >= 1 ? page : 1;
}

/**
 * The order in the URL (`sort=name&order=desc`), or none: the list's own. A key the list does not
 * sort by is refused by the service, which the screen then reports.
 */
export function sortParam(params: URLSearchParams): { by: string; order: 'asc' | 'desc' } | undefined {
  const by = params.get('sort');
  return by ? { by, order: params.get('order') === 'desc' ? 'desc' : 'asc' } : undefined;
}
