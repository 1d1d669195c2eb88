import { z } from 'zod';
import type { Environment } from '../config.ts';
import type { Database } from '../db/database.ts';
import { replyJson } from '../http/reply.ts';
import { defineRoute, type Route } from '../http/route.ts';
import type { Readiness } from './readiness.ts';
import packageJson from '../../package.json' with { type: 'json' };

const PING_TIMEOUT_MS = 2_000;

export const HealthResponse = z
  .object({
    status: z.enum(['ok', 'error']),
    environment: z.string(),
    version: z.string(),
    checks: z.object({ database: z.enum(['ok', 'error']) }),
  })
  .meta({ id: 'Health' });

export const ProbeResponse = z.object({ status: z.enum(['ok', 'draining']) });

const NO_STORE = { 'Cache-Control': 'no-store' };

export function healthRoutes(environment: Environment, database: Database, readiness: Readiness): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/healthz',
      tag: 'Health',
      summary: 'Smoke check: the service runs and its data store answers',
      description:
        "Answers `200 {status:'ok', environment, version, checks:{database:'ok'}}`, or `503` with `status:'error'` (and `checks.database:'error'`) when the data store does not answer. " +
        'For monitoring and smoke tests. Do not restart instances on its 503: during a database outage every instance answers 503 and recovers by itself when the database is back (use /livez and /readyz for probes).',
      cors: 'none',
      responses: {
        200: { description: 'Healthy', schema: HealthResponse },
        503: { description: 'The data store does not answer', schema: HealthResponse },
      },
      handle: async (c) => {
        const healthy = await answersWithin(database.ping(), PING_TIMEOUT_MS);
        const status = healthy ? 'ok' : 'error';
        const body = { status, environment, version: packageJson.version, checks: { database: status } };
        return replyJson(c, healthy ? 200 : 503, body, NO_STORE);
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/livez',
      tag: 'Health',
      summary: 'Liveness probe: the process answers',
      description:
        "Always `200 {status:'ok'}` while the process can answer, also while it drains and while the database is down (restarting would not help either). For a restart-on-failure probe.",
      cors: 'none',
      responses: { 200: { description: 'Alive', schema: ProbeResponse } },
      handle: (c) => replyJson(c, 200, { status: 'ok' }, NO_STORE),
    }),
    defineRoute({
      method: 'GET',
      path: '/readyz',
      tag: 'Health',
      summary: 'Readiness probe: send this instance traffic',
      description:
        "`200 {status:'ok'}`; `503 {status:'draining'}` from SIGTERM on, " +
        'for SHUTDOWN_DRAIN_SECONDS before the instance stops accepting connections, so a load balancer takes it out of rotation first. ' +
        'It does not check the database: an outage touches every instance alike, and catalog and search keep answering through it.',
      cors: 'none',
      responses: {
        200: { description: 'Ready', schema: ProbeResponse },
        503: { description: 'Stopping: take it out of rotation', schema: ProbeResponse },
      },
      handle: (c) =>
        readiness.ready ? replyJson(c, 200, { status: 'ok' }, NO_STORE) : replyJson(c, 503, { status: 'draining' }, NO_STORE),
    }),
  ];
}

/** Whether the check succeeds within `ms`; a check that fails after the deadline is still handled. */
async function answersWithin(check: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const outcome = check.then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([outcome, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
