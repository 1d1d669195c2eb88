import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';

// HTTP as a hostile client writes it, which fetch() will not: any method, headers repeated or in any
// case, bytes of any kind in the request target and the body. Header values and the target are
// written as latin1 (so a character below U+0100 goes out as that one byte), except that Node's
// client writes the headers of a request with `Expect` as UTF-8.

export interface RawRequest {
  method: string;
  /** The request target as sent: path and query string, unencoded. */
  target: string;
  /** In order, repeats kept; Host is added unless given. */
  headers?: [string, string][];
  body?: Buffer;
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/**
 * At most the size of a request's line and headers as written (the client adds a few more); Node
 * refuses more than 16 KiB. Counted as UTF-8: Node's client writes headers as latin1, except with
 * `Expect`, when it writes them as UTF-8.
 */
export function headerBytes({ method, target, headers = [] }: RawRequest): number {
  return (
    Buffer.byteLength(`${method} ${target} HTTP/1.1\r\n`) +
    headers.reduce((n, [name, value]) => n + Buffer.byteLength(`${name}: ${value}\r\n`), 0)
  );
}

/** A client with its own pool of kept-alive connections to one service. */
export interface RawClient {
  send(request: RawRequest, timeoutMs?: number): Promise<RawResponse>;
  close(): void;
}

export function rawClient(baseUrl: string): RawClient {
  const base = new URL(baseUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  return {
    send: ({ method, target, headers = [], body }, timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        const flat = headers.some(([name]) => name.toLowerCase() === 'host') ? [] : ['Host', base.host];
        for (const [name, value] of headers) flat.push(name, value);
        if (body && !headers.some(([name]) => /^(content-length|transfer-encoding)$/i.test(name)))
          flat.push('Content-Length', String(body.length));
        const req = request(
          { host: base.hostname, port: base.port, method, path: target, headers: flat, agent, timeout: timeoutMs },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
            res.on('error', reject);
          },
        );
        req.on('timeout', () => req.destroy(new Error(`no answer to ${method} ${target.slice(0, 100)} within ${timeoutMs} ms`)));
        req.on('error', reject);
        req.end(body);
      }),
    close: () => agent.destroy(),
  };
}

/**
 * Writes bytes on a fresh connection exactly as given (malformed requests the HTTP client refuses
 * to send) and returns everything the service wrote back before it closed the connection.
 */
export function sendBytes(baseUrl: string, bytes: Buffer, timeoutMs = 5_000): Promise<string> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(bytes));
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(new Error('the connection stayed open')), timeoutMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('latin1'));
    });
    socket.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' ? undefined : reject(error)));
  });
}
