import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// The email API and chat webhook stand-in of the benchmarks: it counts what it accepts and answers
// 200 at once, keeping nothing else (a test's receiver keeps every request, too much under load).

export interface CountingReceiver {
  url: string;
  /** Idempotency keys of the emails received. */
  emails: Set<string>;
  duplicateEmails: number;
  chats: number;
  /** Chat messages received per webhook path (`/hooks/public` …). */
  chatsTo(path: string): number;
  reset(): void;
  close(): Promise<void>;
}

/**
 * The environment that sends a tenpo's emails (through the HTTP email API) and the named webhooks'
 * chat messages to the receiver at `url`.
 */
export function deliveringTo(url: string, webhooks: ('reservation' | 'restock' | 'public')[] = []): Record<string, string> {
  const env: Record<string, string> = { EMAIL_PROVIDER_API_KEY: 'bench-key', EMAIL_API_URL: `${url}/emails` };
  for (const name of webhooks) env[`${name.toUpperCase()}_WEBHOOK_URL`] = `${url}/hooks/${name}`;
  return env;
}

/** Listens on `port`; emails are told apart by their Idempotency-Key, so a repeat is counted as one. */
export async function startCountingReceiver(port: number): Promise<CountingReceiver> {
  const state = { emails: new Set<string>(), duplicateEmails: 0, chats: 0, chatsByPath: new Map<string, number>() };
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url === '/emails') {
        const key = String(req.headers['idempotency-key']);
        if (state.emails.has(key)) state.duplicateEmails += 1;
        state.emails.add(key);
      } else {
        state.chats += 1;
        state.chatsByPath.set(req.url ?? '', (state.chatsByPath.get(req.url ?? '') ?? 0) + 1);
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"ok"}');
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get emails() {
      return state.emails;
    },
    get duplicateEmails() {
      return state.duplicateEmails;
    },
    get chats() {
      return state.chats;
    },
    chatsTo: (path) => state.chatsByPath.get(path) ?? 0,
    reset: () => {
      state.emails = new Set();
      state.duplicateEmails = 0;
      state.chats = 0;
      state.chatsByPath = new Map();
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
