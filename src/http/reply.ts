import type { HttpBindings } from '@hono/node-server';
import type { Context } from 'hono';
import type { ContentfulStatusCode, StatusCode } from 'hono/utils/http-status';
import type { AppEnv } from './app-env.ts';

// Responses are built here, from headers collected in a plain object during the request.
// Hono's c.header() keeps a web Headers object, which the Node adapter must convert back, and
// reading a request header through c.req builds another from the raw headers; together they cost
// more than half the catalog's throughput. A plain header object lets the adapter call writeHead
// directly. (Measured: bench/catalog.ts.)

type HeaderBag = Record<string, string>;

/** Sets a response header for the response this request will get, whatever produces it. */
export function setHeader(c: Context<AppEnv>, name: string, value: string): void {
  let bag = c.get('responseHeaders');
  if (!bag) c.set('responseHeaders', (bag = {}));
  bag[name] = value;
}

/** A request header, read from Node's own parsed headers when the request came through Node. */
export function requestHeader(c: Context, name: string): string | undefined {
  const incoming = (c.env as HttpBindings | undefined)?.incoming;
  if (!incoming) return c.req.header(name);
  const value = incoming.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * Every line of a request header, in order. Node's parsed headers keep only the first of a repeated
 * Authorization (and a few others), so a second one would otherwise go unseen.
 */
export function requestHeaderLines(c: Context, name: string): string[] {
  const incoming = (c.env as HttpBindings | undefined)?.incoming;
  if (!incoming) return c.req.raw.headers.has(name) ? [c.req.raw.headers.get(name)!] : [];
  return incoming.headersDistinct[name] ?? [];
}

/** The request target as the client sent it: path and query string, undecoded. */
export function requestTarget(c: Context): string {
  const incoming = (c.env as HttpBindings | undefined)?.incoming;
  if (incoming?.url) return incoming.url;
  const url = c.req.url;
  return url.slice(url.indexOf('/', url.indexOf('//') + 2));
}

export function reply(c: Context<AppEnv>, status: StatusCode, body: string | Uint8Array | null, headers?: HeaderBag): Response {
  const bag = c.get('responseHeaders');
  const all = headers ? { ...bag, ...headers } : (bag ?? {});
  return new Response(body as BodyInit | null, { status, headers: all });
}

export function replyJson(c: Context<AppEnv>, status: ContentfulStatusCode, value: unknown, headers?: HeaderBag): Response {
  return reply(c, status, JSON.stringify(value), { 'Content-Type': 'application/json; charset=utf-8', ...headers });
}
