import type { MiddlewareHandler } from 'hono';
import type { Logger } from '../log.ts';
import type { AppEnv } from './app-env.ts';

/**
 * Gives each request a logger bound to its request id, and logs one line when it is answered.
 * Only the path is logged: query strings can carry tokens (unsubscribe links).
 */
export function accessLog(log: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    const requestLog = log.child({ reqId: c.var.requestId });
    c.set('log', requestLog);
    await next();
    const ms = Math.round((performance.now() - started) * 10) / 10;
    requestLog.info({ method: c.req.method, path: c.req.path, status: c.res.status, ms }, 'request');
  };
}
