import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import type { NodeBindings } from '../serving/node-adapter.ts';

// Requests are read here, from Node's own parsed request when there is one. Reading a header
// through c.req builds a web Headers object from the raw headers, which Node has already parsed
// into a plain object; with Hono's response headers (see reply.ts) that cost more than half the
// catalog's throughput (measured: bench/catalog.ts).

/**
 * The Node request this one came from; undefined when the app is called without Node's server
 * (`app.request()` in a test), where the web Request is all there is.
 */
export function nodeRequest(c: Context): IncomingMessage | undefined {
  return (c.env as NodeBindings | undefined)?.incoming;
}

/** A request header, read from Node's own parsed headers when the request came through Node. */
export function requestHeader(c: Context, name: string): string | undefined {
  const incoming = nodeRequest(c);
  return incoming ? nodeHeader(incoming, name) : c.req.header(name);
}

/** A header of Node's request, by its lowercase name; the lines of a repeated one joined by ", ". */
export function nodeHeader(incoming: IncomingMessage, name: string): string | undefined {
  const value = incoming.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * Every line of a request header, in order. Node's parsed headers keep only the first of a repeated
 * Authorization (and a few others), so a second one would otherwise go unseen.
 */
export function requestHeaderLines(c: Context, name: string): string[] {
  const incoming = nodeRequest(c);
  if (!incoming) return c.req.raw.headers.has(name) ? [c.req.raw.headers.get(name)!] : [];
  return incoming.headersDistinct[name] ?? [];
}

/**
 * The method the client sent. Under Node's server a HEAD reaches the app as its GET, answered the
 * same way, its body left unsent (src/serving/node-adapter.ts); this is where it still reads HEAD.
 */
export function requestMethod(c: Context): string {
  return nodeRequest(c)?.method ?? c.req.method;
}

/** The request target as the client sent it: path and query string, undecoded. */
export function requestTarget(c: Context): string {
  const incoming = nodeRequest(c);
  if (incoming?.url) return incoming.url;
  const url = c.req.url;
  return url.slice(url.indexOf('/', url.indexOf('//') + 2));
}
