import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { DeliveryFailure, isPermanentHttpStatus, retryAfterMs } from './delivery-failure.ts';

/** Senders give up on a request after this long; the dispatcher's lease must outlast it. */
export const SEND_TIMEOUT_MS = 15_000;

/**
 * Longest part of an error answer kept in the failure message: a provider's whole validation
 * answer, within the 500 characters the message log keeps of a last error, since staff fix the
 * cause from it.
 */
const MAX_ANSWER_EXCERPT = 480;

/** How a write on a connection the other end had already closed fails. */
const CLOSED_UNDER_US = new Set(['ECONNRESET', 'EPIPE']);

/** Connections kept open per host: the dispatcher's concurrency. */
const MAX_SOCKETS = 16;

export interface JsonPoster {
  /**
   * POSTs JSON and resolves on a 2xx answer, with its start (what an email API says of the email
   * it took: its id). Anything else throws, so the dispatcher retries; an
   * answer no retry can change (see isPermanentHttpStatus) or one with `Retry-After` on a 429 or
   * 503 throws a DeliveryFailure saying so. The error names the status and the start of the
   * answer, never the URL (webhook URLs are secrets).
   */
  post(url: string, body: unknown, headers?: Record<string, string>): Promise<string>;
  /** Closes the kept-open connections. */
  close(): void;
}

/**
 * JSON over node:http on kept-open connections. Not fetch: undici's fetch measured several times
 * the CPU and memory per request of node:http, and the dispatcher makes one request per message.
 * node:https (and TLS with it) is loaded by the first post to an https URL, not at start.
 */
export function createJsonPoster(): JsonPoster {
  const http = new HttpAgent({ keepAlive: true, maxSockets: MAX_SOCKETS });
  let https: { agent: HttpAgent; request: typeof httpRequest } | undefined;
  const secureClient = () => {
    if (!https) {
      const { Agent, request } = process.getBuiltinModule('node:https');
      https = { agent: new Agent({ keepAlive: true, maxSockets: MAX_SOCKETS }), request };
    }
    return https;
  };
  return {
    post: (url, body, headers = {}) => {
      const target = new URL(url);
      const client = target.protocol === 'https:' ? secureClient() : { agent: http, request: httpRequest };
      const payload = Buffer.from(JSON.stringify(body));
      const signal = AbortSignal.timeout(SEND_TIMEOUT_MS);
      const send = (resolve: (answer: string) => void, reject: (error: Error) => void) => {
        let answered = false;
        const request = client.request(
          target,
          {
            method: 'POST',
            agent: client.agent,
            headers: { 'content-type': 'application/json', 'content-length': String(payload.length), ...headers },
            signal,
          },
          (response) => {
            answered = true;
            answerOf(response).then(resolve, reject);
          },
        );
        request.on('error', (error: NodeJS.ErrnoException) => {
          // A kept-open connection the server closed as this request went out (its idle timeout,
          // reached while this process was busy), and no answer: it goes again on another
          // connection, as Node's docs advise (a server that had read it before the reset gets it
          // twice; an email carries its Idempotency-Key for that). Each such connection is
          // dropped, so this ends with a new one.
          if (request.reusedSocket && !answered && CLOSED_UNDER_US.has(error.code ?? '')) return send(resolve, reject);
          reject(
            new Error(
              error.name === 'AbortError' || error.name === 'TimeoutError'
                ? `no answer within ${SEND_TIMEOUT_MS} ms`
                : (error.code ?? error.message),
            ),
          );
        });
        request.end(payload);
      };
      return new Promise(send);
    },
    close: () => {
      http.destroy();
      https?.agent.destroy();
    },
  };
}

/** Reads the answer (keeping only its start) and settles on its status. */
function answerOf(response: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let excerpt = '';
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      if (excerpt.length < MAX_ANSWER_EXCERPT) excerpt += chunk;
    });
    response.on('error', reject);
    response.on('end', () => {
      const status = response.statusCode ?? 0;
      const shown = excerpt.slice(0, MAX_ANSWER_EXCERPT).trim();
      if (status >= 200 && status < 300) return resolve(shown);
      const header = response.headers['retry-after'];
      const wait = status === 429 || status === 503 ? retryAfterMs(header, Date.now()) : undefined;
      reject(
        new DeliveryFailure(`HTTP ${status}${shown ? `: ${shown}` : ''}`, { permanent: isPermanentHttpStatus(status), retryAfterMs: wait }),
      );
    });
  });
}
