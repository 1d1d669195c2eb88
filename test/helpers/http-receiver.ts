import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { waitUntil } from './wait.ts';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The body parsed as JSON (the raw text when it is not JSON). */
  body: unknown;
  /** The status this receiver answered with. */
  status: number;
}

export interface FailureAnswer {
  path?: string;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface HttpReceiver {
  url: string;
  /** Every request, answered 2xx or not, in arrival order. */
  requests: ReceivedRequest[];
  /** The requests to `path` that were accepted (answered 2xx). */
  accepted(path?: string): ReceivedRequest[];
  /** Answer the next `count` requests (to `answer.path`, or any) with `status` instead of 200, with these headers and JSON body when given. */
  failNext(count: number, status?: number, answer?: FailureAnswer): void;
  /** Answer every request with `status` until told otherwise (0 → back to 200). */
  failAlways(status: number): void;
  /** Hold each answer this long (0 → answer at once). */
  delayAnswers(ms: number): void;
  /** The most requests that were ever open at the same time. */
  readonly maxConcurrent: number;
  /**
   * Waits until every connection open now has closed and every request received has been answered
   * and recorded: after a sender is killed, what it had already sent is then all in `requests`.
   */
  quiet(timeoutMs?: number): Promise<void>;
  /** Waits until `count` requests to `path` have been accepted; returns them. */
  waitForAccepted(count: number, path?: string, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

/**
 * A local HTTP server standing in for the email API and the chat webhooks: it records what it is
 * sent and answers 200, or fails as told, so tests can watch retries from the outside. On a free
 * port, or on `port` (to come up where a service was already sending).
 */
export async function startHttpReceiver(options: { port?: number } = {}): Promise<HttpReceiver> {
  const requests: ReceivedRequest[] = [];
  let failures = 0;
  let failureStatus = 503;
  let failureAnswer: FailureAnswer = {};
  let alwaysStatus = 0;
  let delayMs = 0;
  let open = 0;
  let maxConcurrent = 0;
  const server = createServer((req, res) => {
    open += 1;
    maxConcurrent = Math.max(maxConcurrent, open);
    // A request cut off before its whole body arrived (its sender killed) is never answered.
    req.on('close', () => {
      if (!req.complete) open -= 1;
    });
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      open -= 1;
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {}
      let status = 200;
      let answer: FailureAnswer = {};
      if (alwaysStatus) status = alwaysStatus;
      else if (failures > 0 && (failureAnswer.path === undefined || failureAnswer.path === req.url)) {
        failures -= 1;
        status = failureStatus;
        answer = failureAnswer;
      }
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, status });
      const reply = answer.body ?? (status === 200 ? { id: `msg-${requests.length}` } : { error: 'unavailable' });
      res.writeHead(status, { 'content-type': 'application/json', ...answer.headers }).end(JSON.stringify(reply));
    });
  });
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const accepted = (path?: string) => requests.filter((r) => r.status < 300 && (path === undefined || r.path === path));
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    accepted,
    failNext: (count, status = 503, answer = {}) => {
      failures = count;
      failureStatus = status;
      failureAnswer = answer;
    },
    failAlways: (status) => {
      alwaysStatus = status;
    },
    delayAnswers: (ms) => {
      delayMs = ms;
    },
    get maxConcurrent() {
      return maxConcurrent;
    },
    quiet: async (timeoutMs) => {
      const openNow = [...sockets];
      await waitUntil(() => openNow.every((socket) => !sockets.has(socket)) && open === 0, {
        timeoutMs,
        what: 'the connections open now to close and every request to be answered',
      });
    },
    waitForAccepted: async (count, path, timeoutMs) => {
      await waitUntil(() => accepted(path).length >= count, { timeoutMs, what: `${count} accepted request(s) to ${path ?? 'any path'}` });
      return accepted(path);
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
