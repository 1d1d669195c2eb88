/** Something that fetches relative to a running service: a TestApp or a ServiceProcess. */
type Fetch = (path: string, init?: RequestInit) => Promise<Response>;

/**
 * POST `body` as JSON through `request`, with `headers` beside the content type; a string body is
 * sent as it is, for what JSON.stringify cannot write (a lone surrogate, malformed JSON).
 */
export function postJson(request: Fetch, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}
