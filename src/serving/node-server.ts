import { createServer, STATUS_CODES, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Logger } from '../log.ts';
import { NodeAnswer, requestListener, type Lane, type NodeBindings } from './node-adapter.ts';

/** The statuses Node's server answers by itself, before any app sees the request. */
export type RefusalStatus = 400 | 408 | 413 | 431;

/** What Node's parser found wrong, as the status of the answer; anything else is a 400. */
const PARSER_ERRORS: Record<string, RefusalStatus> = {
  HPE_HEADER_OVERFLOW: 431,
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 413,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
};

const BAD_REQUEST_HEADERS = { 'Content-Type': 'application/json; charset=utf-8', 'X-Content-Type-Options': 'nosniff' };

/**
 * The Node HTTP server the app runs in (node-adapter.ts), with the envelope for what Node or the
 * adapter would answer with a bare status line: malformed HTTP (400, 431, …, then the connection
 * closed), a request with no URL to make (an invalid Host, `OPTIONS *`) and two Host headers (400,
 * RFC 9112 §3.2). An `Expect` other than `100-continue` is treated as absent (RFC 9110 §10.1.1 allows
 * it), not a bare 417. A request without Host is still Node's bare 400, as RFC 9112 asks. Then the
 * direct lane (direct-lane.ts), when given, answers the GETs and HEADs of exact paths; the app the rest.
 */ export function createNodeServer(
  fetch: (request: Request, bindings: NodeBindings) => NodeAnswer | Response | Promise<NodeAnswer | Response>,
  options: NodeServerOptions,
): Server {
  const { hostname, limits = DEFAULT_CONNECTION_LIMITS, lane, log, refusal } = options;
  const BAD_REQUEST = refusal(400);
  const unreadable = () => new NodeAnswer(400, BAD_REQUEST, { ...BAD_REQUEST_HEADERS });
  const listener = requestListener(fetch, { hostname, unreadable, log, lane });
  const timeouts = {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    // Node enforces both timeouts when it checks its connections: every second, not every 30 s.
    connectionsCheckingInterval: 1_000,
  };
  const server = createServer(timeouts, (request, response) => {
    // Node keeps the first of two Host headers; a proxy in front may have routed by the second.
    if (hostLines(request.rawHeaders) > 1)
      return void response
        .writeHead(400, { ...BAD_REQUEST_HEADERS, 'Content-Length': BAD_REQUEST.length, Connection: 'close' })
        .end(BAD_REQUEST);
    return listener(request, response);
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // As Node's own default: nothing more can be written once a response on this connection has begun.
    const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) return void socket.destroy();
    const status = PARSER_ERRORS[error.code ?? ''] ?? 400;
    const body = refusal(status);
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nX-Content-Type-Options: nosniff\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  server.on('checkExpectation', (request, response) => server.emit('request', request, response));
  if (limits.perClient > 0) capConnectionsPerPeer(server, limits);
  return server;
}

export interface NodeServerOptions {
  /** The Host a request without one is taken to have asked (an HTTP/1.0 request). */
  hostname: string;
  /** Default: DEFAULT_CONNECTION_LIMITS. */
  limits?: ConnectionLimits;
  /** Answers the GETs and HEADs of the app's exact paths without its router (direct-lane.ts). */
  lane?: Lane;
  /** Where an answer that could not be written is logged. */
  log: Logger;
  /** The JSON body of a refusal Node's server makes itself (malformed HTTP, an invalid Host). */
  refusal: (status: RefusalStatus) => string;
}

/**
 * What one connection, and one peer, may hold. A client that opens connections and never finishes
 * its headers (slowloris) is closed after `headersTimeoutMs`, and one that sends its request slowly
 * after `requestTimeoutMs`; one peer address holds at most `perClient` connections (0: no limit),
 * further ones closed as soon as they are accepted, so one host cannot take every file descriptor
 * of the process. A proxy in front (`isProxy`) is exempt: its connections carry many clients.
 */
export interface ConnectionLimits {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  perClient: number;
  isProxy: (address: string) => boolean;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  perClient: 100,
  isProxy: () => false,
};

function capConnectionsPerPeer(server: Server, limits: ConnectionLimits): void {
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const peer = socket.remoteAddress;
    if (peer === undefined || limits.isProxy(peer)) return;
    const count = open.get(peer) ?? 0;
    if (count >= limits.perClient) return void socket.destroy();
    open.set(peer, count + 1);
    socket.once('close', () => {
      const left = open.get(peer)! - 1;
      if (left === 0) open.delete(peer);
      else open.set(peer, left);
    });
  });
}

function hostLines(rawHeaders: string[]): number {
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]!.length === 4 && rawHeaders[i]!.toLowerCase() === 'host') count++;
  return count;
}
