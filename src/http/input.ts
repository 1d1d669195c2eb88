import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import type { z } from 'zod';
import type { AppEnv } from './app-env.ts';
import { AppError } from './app-error.ts';
import { queryOf } from './query-string.ts';
import { nodeRequest, requestHeader } from './request.ts';
import type { Route } from './route.ts';

/**
 * Reads and validates a request's query and body against its route's schemas. Query values are
 * strings, or arrays of strings when a name is repeated; names like `__proto__` are plain keys.
 * The body is parsed as JSON whatever the Content-Type says, and must be an object; a route that
 * accepts forms reads a form's body as its fields, like a query (see pageFields).
 */
export function readInput(c: Context<AppEnv>, route: Route): Input | Promise<Input> {
  // A query's values are always well-formed: what is not UTF-8 is read as U+FFFD (query-string.ts).
  const query = route.query ? parse(route, route.query, queryOf(c.req.url), false) : undefined;
  if (!route.body) return { query, body: undefined };
  return (route.acceptsForm ? pageFields(c) : jsonObject(c, route)).then((fields) => ({
    query,
    body: parse(route, route.body!, fields, true),
  }));
}

/** A request's input, parsed by its route's schemas (without a body, read at once). */
export interface Input {
  query: unknown;
  body: unknown;
}

function parse(route: Route, schema: NonNullable<Route['query']>, value: unknown, mayBeIllFormed: boolean): unknown {
  const malformed = mayBeIllFormed ? replaceHalfCharacters(value) : [];
  const result = schema.safeParse(value);
  if (!result.success) throw route.invalid.error(result.error.issues);
  if (malformed.length > 0 && holdsIllFormed(result.data)) throw route.invalid.error(malformed);
  return result.data;
}

/** What a string that is not well-formed Unicode is read as: no schema takes it for text. */
const ILL_FORMED = Symbol('text that is not well-formed Unicode');

interface Visit {
  value: unknown;
  key: PropertyKey;
  parent: Visit | undefined;
}

/**
 * Text that is not well-formed Unicode (a JSON `\ud800` escape gives a string holding half a
 * character, which no database column, email or page can hold as text) is refused wherever it is
 * taken: in the request's own parsed input, each such string is replaced by a value no text field
 * accepts, so the schema reports it as that field's mistake, in that field's words; the issues
 * returned refuse it where a schema takes anything. A field the route ignores (or reads leniently,
 * as a page does its token) is not taken, so not refused. Walked without recursion: a body may nest
 * twenty thousand levels deep.
 */
function replaceHalfCharacters(input: unknown): z.core.$ZodIssue[] {
  const malformed: z.core.$ZodIssue[] = [];
  const pending: Visit[] = [{ value: input, key: '', parent: undefined }];
  for (let visit = pending.pop(); visit; visit = pending.pop()) {
    const { value } = visit;
    if (typeof value === 'object' && value !== null) {
      for (const [key, item] of Object.entries(value))
        pending.push({ value: item, key: Array.isArray(value) ? Number(key) : key, parent: visit });
    } else if (typeof value === 'string' && !value.isWellFormed() && visit.parent) {
      (visit.parent.value as Record<PropertyKey, unknown>)[visit.key] = ILL_FORMED;
      malformed.push({ code: 'custom', path: pathOf(visit), message: 'must be well-formed Unicode text', input: value });
    }
  }
  return malformed;
}

/** Whether a schema took such a string as it is (one that takes anything): it is refused all the same. */
function holdsIllFormed(data: unknown): boolean {
  const pending = [data];
  for (let value = pending.pop(); pending.length > 0 || value !== undefined; value = pending.pop()) {
    if (value === ILL_FORMED) return true;
    if (typeof value === 'object' && value !== null) for (const item of Object.values(value)) pending.push(item);
  }
  return false;
}

function pathOf(visit: Visit): PropertyKey[] {
  const path: PropertyKey[] = [];
  for (let at: Visit | undefined = visit; at?.parent; at = at.parent) path.unshift(at.key);
  return path;
}

/**
 * The fields of a post to a page: a form's, or a JSON object's; any other body reads as no fields,
 * so the page, not a JSON error, says what is missing.
 */
async function pageFields(c: Context<AppEnv>): Promise<Record<string, unknown>> {
  const text = await readBody(c, MAX_BODY_BYTES);
  if (isForm(c)) return queryOf(`?${text}`);
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Whether the request says it is an HTML form's post. */
function isForm(c: Context<AppEnv>): boolean {
  return /^\s*application\/x-www-form-urlencoded\s*(;|$)/i.test(requestHeader(c, 'content-type') ?? '');
}

/** Bodies larger than this are refused with 413. */
export const MAX_BODY_BYTES = 64 * 1024;

async function jsonObject(c: Context<AppEnv>, route: Route): Promise<Record<string, unknown>> {
  const { notAnObject } = route;
  const text = await readBody(c, MAX_BODY_BYTES);
  route.verifyRawBody?.(c, text);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw notAnObject;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw notAnObject;
  return value as Record<string, unknown>;
}

/**
 * Reads the body as UTF-8, refusing it as soon as it passes the limit: at once when Content-Length
 * says so, otherwise while streaming, so an oversized body is never held in memory. Under Node the
 * body is read from Node's own request stream: going through `Request.body` makes the adapter wrap
 * it in a web stream, which cost a tenth of a reservation's time (bench/reservations.ts).
 */
async function readBody(c: Context<AppEnv>, limit: number): Promise<string> {
  const tooLarge = () => new AppError('payload_too_large', 'Payload too large');
  if (Number(requestHeader(c, 'content-length')) > limit) throw tooLarge();
  const incoming = nodeRequest(c);
  if (incoming) return readNodeStream(incoming, limit, tooLarge);
  const body = c.req.raw.body;
  if (!body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > limit) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function readNodeStream(stream: IncomingMessage, limit: number, tooLarge: () => AppError): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size <= limit) return void chunks.push(chunk);
      // Stop keeping it, but let the rest flow past so the 413 can still be sent.
      stream.off('data', onData).off('end', onEnd).off('error', onGone).off('close', onGone).resume();
      reject(tooLarge());
    };
    const onEnd = () => resolve(Buffer.concat(chunks).toString('utf8'));
    // The client hung up before its body was all sent: its mistake, not the server's. The
    // answer reaches nobody; the 400 keeps it out of the error log and the 500s counted in /metrics.
    const onGone = () => reject(new AppError('request_body_incomplete', 'Request body incomplete'));
    stream.on('data', onData).once('end', onEnd).once('error', onGone).once('close', onGone);
  });
}
