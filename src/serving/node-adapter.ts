import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { Logger } from '../log.ts';

// Hono's app behind Node's server. Node's web `Request`, `Response` and `Headers` are undici's, which
// Node loads, node:http2 with it, the first time any of them is touched: about 14 ms of a start's
// main thread, more than a tenth of it (docs/performance.md). The app reads nothing of a request
// but its method and URL under Node (request.ts reads Node's own request) and answers through
// reply.ts with plain headers, so a request reaches it as a `NodeRequest`, which makes a web Request
// only for code that asks for more, and reply.ts answers with a `NodeAnswer`, written to Node's
// response as it is. A HEAD reaches the app as its GET, and Node's response sends no body for it:
// HEAD is GET's answer without the body, with the same headers, whichever way it was answered.

/** What the app's context holds in `c.env` under Node's server: the request Node parsed, and the response it writes. */
export interface NodeBindings {
  incoming: IncomingMessage;
  outgoing: ServerResponse;
}

export type AnswerBody = string | Uint8Array | ReadableStream<Uint8Array> | null;

/**
 * An answer made under Node's server (reply.ts): its status, its headers as the plain object they
 * were set in (its own: the adapter adds the body's Content-Length to it), and its body, which the
 * adapter writes as they are. Hono reads its `status`; a web `Headers` of it is made only if
 * something asks for `headers`.
 */
export class NodeAnswer {
  readonly status: number;
  readonly body: AnswerBody;
  readonly plainHeaders: Record<string, string>;
  #headers?: Headers;

  constructor(status: number, body: AnswerBody, headers: Record<string, string>) {
    this.status = status;
    this.body = body;
    this.plainHeaders = headers;
  }

  get headers(): Headers {
    return (this.#headers ??= new Headers(this.plainHeaders));
  }
}

/**
 * What a request the app answers with its method and URL alone needs; anything else comes from a web
 * Request made on first use. A HEAD's method reads GET (Hono would otherwise answer it with a web
 * Response of its own); what the client sent is Node's request's (src/http/request.ts, requestMethod).
 */
export class NodeRequest {
  readonly method: string;
  readonly url: string;
  readonly #incoming: IncomingMessage;
  #web?: Request;

  constructor(incoming: IncomingMessage, url: string) {
    this.#incoming = incoming;
    this.method = incoming.method === 'HEAD' ? 'GET' : incoming.method!;
    this.url = url;
  }

  /** The web Request, with Node's request's headers and (for a method with one) its body as a stream. */
  web(): Request {
    if (!this.#web) {
      const headers = new Headers();
      const raw = this.#incoming.rawHeaders;
      for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
      const bodiless = this.method === 'GET';
      this.#web = new Request(this.url, {
        method: this.#incoming.method!,
        headers,
        ...(bodiless ? {} : { body: Readable.toWeb(this.#incoming) as ReadableStream<Uint8Array>, duplex: 'half' }),
      });
    }
    return this.#web;
  }
}

for (const name of [
  'headers',
  'body',
  'bodyUsed',
  'signal',
  'cache',
  'credentials',
  'destination',
  'integrity',
  'keepalive',
  'mode',
  'redirect',
  'referrer',
  'referrerPolicy',
])
  Object.defineProperty(NodeRequest.prototype, name, {
    get(this: NodeRequest) {
      return this.web()[name as keyof Request];
    },
  });
for (const name of ['arrayBuffer', 'blob', 'bytes', 'clone', 'formData', 'json', 'text'])
  Object.defineProperty(NodeRequest.prototype, name, {
    value(this: NodeRequest) {
      return (this.web()[name as keyof Request] as () => unknown).call(this.web());
    },
  });

/** What a body gets when its answer names no type (as the web's Response does for text). */
const DEFAULT_CONTENT_TYPE = 'text/plain; charset=UTF-8';

type Answered = NodeAnswer | Response | Promise<NodeAnswer | Response>;

/** Answers a request without the app's router (direct-lane.ts); undefined leaves it to the app. */
export type Lane = (request: NodeRequest, bindings: NodeBindings) => Answered | undefined;

/**
 * Node's request listener for `fetch` (the app's), and before it the direct lane, when given. A
 * request whose URL cannot be made (an invalid Host, a target that is not a path), or one the app
 * fails to answer, gets `unreadable()`'s answer. A request body the app did not read is drained once
 * it is answered, for half a second and 64 MiB at most, so that the client, still sending, reads the
 * answer.
 */
export function requestListener(
  fetch: (request: Request, bindings: NodeBindings) => Answered,
  options: { hostname: string; unreadable: () => NodeAnswer; log: Logger; lane?: Lane },
): (incoming: IncomingMessage, outgoing: ServerResponse) => void {
  // An answer made at once is written at once: each promise awaited on the way costs about a
  // microsecond, a twentieth of a cached search.
  return (incoming, outgoing) => {
    let answer: Answered;
    let direct = false;
    try {
      const request = new NodeRequest(incoming, urlOf(incoming, options.hostname));
      if (request.method !== 'GET') outgoing.on('close', () => drainLater(incoming));
      const bindings = { incoming, outgoing };
      const laneAnswer = options.lane?.(request, bindings);
      direct = laneAnswer !== undefined;
      answer = laneAnswer ?? fetch(request as unknown as Request, bindings);
    } catch {
      answer = options.unreadable();
    }
    const write = (made: NodeAnswer | Response) => {
      try {
        const writing = made instanceof NodeAnswer ? writeAnswer(made, outgoing, direct) : writeWebResponse(made, outgoing);
        writing?.catch((error: unknown) => failed(error, outgoing, options.log));
      } catch (error) {
        failed(error, outgoing, options.log);
      }
    };
    if (answer instanceof Promise) answer.then(write, () => write(options.unreadable()));
    else write(answer);
  };
}

// The request's URL, as Hono's Node adapter made it: the target as it came when it is a plain
// path (its query may hold percent-escapes too, which the parser leaves as they are: a search's
// words), else as the WHATWG URL parser writes it (dot segments resolved); an invalid Host or a
// backslash in the path is refused.
const PLAIN_TARGET = /^\/[!#$&-;=@-[\]_a-z~]*(?:\?[!#$%&-;=?-[\]_a-z~]*)?$/;
const DOT_SEGMENT = /\/\.\.?(?:[/?#]|$)/;
const PLAIN_HOST = /^[a-z0-9._-]+(?::(?:[1-5]\d{3,4}|[6-9]\d{3}))?$/;

function urlOf(incoming: IncomingMessage, defaultHostname: string): string {
  const target = incoming.url ?? '';
  if (target[0] !== '/' && (target.startsWith('http://') || target.startsWith('https://'))) {
    refuseBackslash(target);
    return new URL(target).href;
  }
  const host = incoming.headers.host || defaultHostname;
  const url = `http://${host}${target}`;
  if (!PLAIN_HOST.test(host)) {
    refuseBackslash(target);
    const parsed = new URL(url);
    const hostname = host.includes(':') ? host.replace(/:\d+$/, '') : host;
    if (parsed.hostname.length !== host.length && parsed.hostname !== hostname.toLowerCase()) throw new Error('Invalid host header');
    return parsed.href;
  }
  if (target.length === 0) return `${url}/`;
  if (target.charCodeAt(0) !== 47) throw new Error('Invalid URL');
  if (!PLAIN_TARGET.test(target) || DOT_SEGMENT.test(target)) {
    refuseBackslash(target);
    return new URL(url).href;
  }
  return url;
}

function refuseBackslash(target: string): void {
  const backslash = target.indexOf('\\');
  if (backslash === -1) return;
  const query = target.indexOf('?');
  if (query === -1 || backslash < query) throw new Error('Backslash in request path');
}

/**
 * Writes an answer with its headers as they were set, and after them the Content-Length of a body
 * of known length (unless they give one): a HEAD's the same as its GET's. A stream is written as the
 * client takes it, and cancelled for a HEAD. The lane's answers end with their turn (endWithTurn).
 */
function writeAnswer(answer: NodeAnswer, outgoing: ServerResponse, direct: boolean): Promise<void> | undefined {
  const { status, body } = answer;
  const headers: OutgoingHttpHeaders = answer.plainHeaders;
  const length = typeof body === 'string' ? Buffer.byteLength(body) : body instanceof Uint8Array ? body.byteLength : undefined;
  if (length !== undefined && !namesLength(headers)) headers['Content-Length'] = length;
  outgoing.writeHead(status, headers);
  if (body === null || typeof body === 'string' || body instanceof Uint8Array) {
    if (direct) endWithTurn(outgoing, body);
    else outgoing.end(body);
    return undefined;
  }
  if (outgoing.req.method !== 'HEAD') return writeStream(body, outgoing);
  outgoing.end();
  return body.cancel();
}

function namesLength(headers: OutgoingHttpHeaders): boolean {
  for (const key in headers) if (key.length === 14 && key.toLowerCase() === 'content-length') return true;
  return false;
}

/**
 * The lane's answers of one turn of the event loop, ended together once the requests that turn read
 * are answered (setImmediate runs right after them). Under load a turn reads many requests; each
 * answer written as soon as it is made would wake the client (or the proxy in front, on the same
 * machine) once per answer, and the service would pay for that wake-up in its write: sent together,
 * they wake it once. A lone request waits for nothing: its turn ends with it.
 */
let endsOfThisTurn: { outgoing: ServerResponse; body: string | Uint8Array | null }[] = [];

function endWithTurn(outgoing: ServerResponse, body: string | Uint8Array | null): void {
  endsOfThisTurn.push({ outgoing, body });
  if (endsOfThisTurn.length === 1) setImmediate(endAll);
}

function endAll(): void {
  const ends = endsOfThisTurn;
  endsOfThisTurn = [];
  for (const { outgoing, body } of ends) outgoing.end(body);
}

/**
 * A web Response (one a handler made itself): its headers as the web's Headers list them,
 * lowercase and sorted, with the default Content-Type when there is a body; a body is written whole,
 * with its length.
 */
async function writeWebResponse(response: Response, outgoing: ServerResponse): Promise<void> {
  const headers: OutgoingHttpHeaders = {};
  const cookies: string[] = [];
  for (const [name, value] of response.headers) {
    if (name === 'set-cookie') cookies.push(value);
    else headers[name] = value;
  }
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  if (response.body === null) return void outgoing.writeHead(response.status, headers).end();
  headers['content-type'] ??= DEFAULT_CONTENT_TYPE;
  const body = new Uint8Array(await response.arrayBuffer());
  if (!('content-length' in headers)) headers['Content-Length'] = body.byteLength;
  outgoing.writeHead(response.status, headers).end(body);
}

/**
 * Writes a stream as the client takes it (waiting for `drain`), and cancels it if the connection
 * goes first. A stream that fails ends the connection with its error: the headers are sent.
 */
async function writeStream(stream: ReadableStream<Uint8Array>, outgoing: ServerResponse): Promise<void> {
  if (outgoing.writable) outgoing.flushHeaders();
  if (outgoing.destroyed) return void stream.cancel().catch(() => {});
  const reader = stream.getReader();
  const cancel = (error?: unknown) => void reader.cancel(error).catch(() => {});
  outgoing.on('close', cancel).on('error', cancel);
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        outgoing.destroy(error as Error);
        throw error;
      }
      const { done, value } = chunk;
      if (done) return void outgoing.end();
      if (!outgoing.write(value)) await new Promise((resolve) => outgoing.once('drain', resolve).once('close', resolve));
      if (outgoing.destroyed) return;
    }
  } finally {
    outgoing.off('close', cancel).off('error', cancel);
  }
}

/** An answer that could not be written: logged, a 500 if nothing was sent yet, and the connection closed. */
function failed(error: unknown, outgoing: ServerResponse, log: Logger): void {
  const err = error instanceof Error ? error : new Error('unknown error', { cause: error });
  if ((err as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE') return;
  log.error({ err }, 'answer not written');
  if (!outgoing.headersSent) outgoing.writeHead(500, { 'Content-Type': 'text/plain' });
  outgoing.end(`Error: ${err.message}`);
  outgoing.destroy(err);
}

const DRAIN_MS = 500;
const DRAIN_BYTES = 64 * 1024 * 1024;

/** Once the answer's connection is done with, reads and drops what is left of a request body nobody read. */
function drainLater(incoming: IncomingMessage): void {
  if (incoming.readableEnded) return;
  setTimeout(() => {
    if (!incoming.readableEnded) setTimeout(() => drain(incoming));
  });
}

const draining = new WeakSet<IncomingMessage>();

function drain(incoming: IncomingMessage): void {
  if (incoming.destroyed || draining.has(incoming)) return;
  draining.add(incoming);
  let bytes = 0;
  const cleanup = () => {
    clearTimeout(timer);
    incoming.off('data', onData).off('end', cleanup).off('error', cleanup);
  };
  const forceClose = () => {
    cleanup();
    if (!incoming.socket.destroyed) incoming.socket.destroySoon();
  };
  const timer = setTimeout(forceClose, DRAIN_MS);
  timer.unref();
  const onData = (chunk: Buffer) => {
    bytes += chunk.length;
    if (bytes > DRAIN_BYTES) forceClose();
  };
  incoming.on('data', onData).on('end', cleanup).on('error', cleanup);
  incoming.resume();
}
