import { createServer, STATUS_CODES, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { getRequestListener } from '@hono/node-server';

/** What Node's parser found wrong, as the status and message of the envelope; anything else is a 400. */
const PARSER_ERRORS: Record<string, [status: number, message: string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request header fields too large'],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'Payload too large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request timeout'],
};

const BAD_REQUEST = JSON.stringify({ success: false, error: 'Bad request' });
const BAD_REQUEST_HEADERS = { 'Content-Type': 'application/json; charset=utf-8', 'X-Content-Type-Options': 'nosniff' };

/**
 * The Node HTTP server the app runs in: Hono's adapter, plus the envelope for the requests that
 * Node or the adapter would otherwise answer with a bare status line, before the app sees them.
 * - Malformed HTTP (bytes that are not HTTP, an invalid header, headers over 16 KiB): answered as
 *   Node would (400, 431, …) but with `{success: false, error}`, and the connection closed.
 * - A request the adapter cannot make a URL of (an invalid Host, a target that is not a path such
 *   as `OPTIONS *`): 400 with the envelope. (An HTTP/1.1 request without Host is still refused by
 *   Node itself, with a bare 400, as RFC 9112 §3.2 asks.)
 * - An `Expect` other than `100-continue`, which Node would answer with a bare 417: the app answers
 *   as if it were absent, as RFC 9110 §10.1.1 allows a server that does not know the expectation.
 * - Two `Host` headers: 400 with the envelope (RFC 9112 §3.2), before the app sees the request.
 */
export function createNodeServer(fetch: (request: Request) => Response | Promise<Response>, hostname: string): Server {
  const unreadable = () => new Response(BAD_REQUEST, { status: 400, headers: BAD_REQUEST_HEADERS });
  const listener = getRequestListener(fetch, { hostname, errorHandler: unreadable });
  const server = createServer((request, response) => {
    // Node keeps the first of two Host headers; a proxy in front may have routed by the second (SPEC §10).
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
    const [status, message] = PARSER_ERRORS[error.code ?? ''] ?? [400, 'Bad request'];
    const body = JSON.stringify({ success: false, error: message });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nX-Content-Type-Options: nosniff\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  server.on('checkExpectation', (request, response) => server.emit('request', request, response));
  return server;
}

function hostLines(rawHeaders: string[]): number {
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]!.length === 4 && rawHeaders[i]!.toLowerCase() === 'host') count++;
  return count;
}
