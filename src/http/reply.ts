import type { Context } from 'hono';
import type { ContentfulStatusCode, StatusCode } from 'hono/utils/http-status';
import type { AppEnv } from './app-env.ts';
import { cachedJsonAnswer, type CachedJson } from '../serving/cached-json.ts';
import { NodeAnswer } from '../serving/node-adapter.ts';
import { nodeRequest, requestHeader } from './request.ts';

// Responses are built here, from headers collected in a plain object during the request (the
// header bag). Hono's c.header() keeps a web Headers object, which would have to be converted
// back, and together with reading request headers through c.req (see request.ts) that cost more
// than half the catalog's throughput. A plain header object lets the adapter call writeHead
// directly. (Measured: bench/catalog.ts.) Everything that answers goes through reply(), so the
// headers set along the way (CORS, X-Request-Id) are on every response.

type HeaderBag = Record<string, string>;

/** Sets a response header for the response this request will get, whatever produces it. */
export function setHeader(c: Context<AppEnv>, name: string, value: string): void {
  let bag = c.get('responseHeaders');
  if (!bag) c.set('responseHeaders', (bag = {}));
  bag[name] = value;
}

export function reply(
  c: Context<AppEnv>,
  status: StatusCode,
  body: string | Uint8Array | ReadableStream<Uint8Array> | null,
  headers?: HeaderBag,
): Response {
  const bag = c.get('responseHeaders');
  const all = headers ? { ...bag, ...headers } : (bag ?? {});
  const sent = all['Content-Type']?.startsWith('text/html') ? unframeable(all) : all;
  // Under Node's server the adapter writes the answer as it is (node-adapter.ts); a web Response is
  // made only for a request that came without one (`app.request()` in a test).
  if (nodeRequest(c)) return new NodeAnswer(status, body, sent) as unknown as Response;
  return new Response(body as BodyInit | null, { status, headers: sent });
}

/** No HTML page of the shop may be framed by another site: its CSP gets `frame-ancestors 'none'` unless it says otherwise. */
function unframeable(headers: HeaderBag): HeaderBag {
  const csp = headers['Content-Security-Policy'];
  if (csp?.includes('frame-ancestors')) return headers;
  return { ...headers, 'Content-Security-Policy': csp ? `${csp}; frame-ancestors 'none'` : "frame-ancestors 'none'" };
}

export function replyJson(c: Context<AppEnv>, status: ContentfulStatusCode, value: unknown, headers?: HeaderBag): Response {
  return reply(c, status, JSON.stringify(value), { 'Content-Type': 'application/json; charset=utf-8', ...headers });
}

/** Answers with JSON serialized once (src/serving/cached-json.ts), or 304 when the client already holds it (If-None-Match). */
export function sendCachedJson(c: Context<AppEnv>, entry: CachedJson, headers: Record<string, string> = {}): Response {
  c.set('sentJson', { json: entry, headers });
  const { status, body, headers: sent } = cachedJsonAnswer(entry, requestHeader(c, 'if-none-match'), headers);
  return reply(c, status, body, sent);
}
