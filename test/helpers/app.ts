import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { allRoutes } from '../../src/app.ts';
import type { EndpointPath } from '../../src/client/endpoints.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { startServer, type RunningServer, type StartOptions } from '../../src/server.ts';
import { readAnswer, routeSchemaCheck, type Answer } from './answers.ts';
import type { Dialect } from './dialects.ts';
import { createTestDatabase } from './postgres.ts';
import { postJson } from './post-json.ts';

export { DIALECTS, type Dialect } from './dialects.ts';

export const ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';

export interface TestApp extends RunningServer {
  /** Every log line the service wrote, parsed. */
  logs: Record<string, unknown>[];
  /** fetch() relative to the app's URL. */
  request(path: string, init?: RequestInit): Promise<Response>;
  /** POST JSON, as a storefront or a customer's browser would (helpers/post-json.ts). */
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
  /** POST JSON with the admin bearer token. */
  admin(path: string, body: unknown): Promise<Response>;
  /** Reads this app's answer to `path`, to be checked against what its route documents (helpers/answers.ts). */
  read<P extends EndpointPath>(path: P, response: Response): Promise<Answer<P>>;
  /** admin() and read() together: an admin endpoint's answer. */
  call<P extends EndpointPath>(path: P, body: unknown): Promise<Answer<P>>;
  /** The env the app was configured from, to start another one on the same store. */
  env: Record<string, string>;
}

/**
 * Starts the whole service in this process on a free port, on a fresh store of the given dialect:
 * a temp SQLite file, or a new database in the test PostgreSQL cluster.
 */
export async function startTestApp(options: { dialect?: Dialect; env?: Record<string, string> } & StartOptions = {}): Promise<TestApp> {
  const dialect = options.dialect ?? 'sqlite';
  let tempDir: string | undefined;
  let databaseUrl: string;
  if (options.env?.DATABASE_URL) {
    databaseUrl = options.env.DATABASE_URL;
  } else if (dialect === 'sqlite') {
    tempDir = mkdtempSync(join(tmpdir(), 'tenpo-test-'));
    databaseUrl = `sqlite:${join(tempDir, 'tenpo.db')}`;
  } else {
    databaseUrl = await createTestDatabase();
  }
  const env: Record<string, string> = {
    PORT: '0',
    HOST: '127.0.0.1',
    PREORDER_API_TOKEN: ADMIN_TOKEN,
    LOG_LEVEL: 'info',
    // A test's stop need not wait for a load balancer (test/health.test.ts sets one to see the drain).
    SHUTDOWN_DRAIN_SECONDS: '0',
    // Many tests send wrong tokens on purpose, all from 127.0.0.1; test/admin-auth.test.ts turns the throttle on.
    ADMIN_AUTH_FAILURES_PER_MINUTE: '0',
    ...options.env,
    DATABASE_URL: databaseUrl,
  };
  const logs: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line) logs.push(JSON.parse(line));
      done();
    },
  });
  const server = await startServer(loadConfig(env), createLogger(env.LOG_LEVEL ?? 'info', sink), {
    dispatcher: options.dispatcher,
    now: options.now,
  });
  const request = (path: string, init?: RequestInit) => fetch(server.url + path, init);
  const check = routeSchemaCheck(allRoutes(server.services));
  const admin = (path: string, body: unknown) => postJson(request, path, body, { authorization: `Bearer ${ADMIN_TOKEN}` });
  return {
    ...server,
    logs,
    env,
    request,
    post: (path, body, headers) => postJson(request, path, body, headers),
    admin,
    read: (path, response) => readAnswer(check, path, response),
    call: async (path, body) => readAnswer(check, path, await admin(path, body)),
    close: async () => {
      await server.close();
      if (tempDir) rmSync(tempDir, { recursive: true, force: true });
    },
  };
}
