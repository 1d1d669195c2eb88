import { z } from 'zod';
import type { Environment } from '../config.ts';
import type { Database } from '../db/database.ts';
import { replyJson } from '../http/reply.ts';
import { defineRoute, type Route } from '../http/route.ts';
import packageJson from '../../package.json' with { type: 'json' };

const PING_TIMEOUT_MS = 2_000;

export const HealthResponse = z.object({
  status: z.enum(['ok', 'error']),
  environment: z.string(),
  version: z.string(),
  checks: z.object({ database: z.enum(['ok', 'error']) }),
});

export function healthRoutes(environment: Environment, database: Database): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/healthz',
      tag: 'Health',
      summary: 'Smoke check: the service runs and its data store answers',
      cors: 'none',
      responses: {
        200: { description: 'Healthy', schema: HealthResponse },
        503: { description: 'The data store does not answer', schema: HealthResponse },
      },
      handle: async (c) => {
        const healthy = await answersWithin(database.ping(), PING_TIMEOUT_MS);
        const status = healthy ? 'ok' : 'error';
        const body = { status, environment, version: packageJson.version, checks: { database: status } };
        return replyJson(c, healthy ? 200 : 503, body, { 'Cache-Control': 'no-store' });
      },
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
