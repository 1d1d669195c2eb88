import { randomUUID } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import type { Logger } from '../log.ts';
import type { AppEnv } from './app-env.ts';
import { setHeader } from './reply.ts';
import { requestHeader } from './request.ts';

const ACCEPTABLE_ID = /^[\w\-.=]{1,128}$/;

/** Where each answered request is counted (the metrics' request histogram). */
export interface RequestObserver {
  /** One answered request: its mounted route (or undefined: none matched), method, status and seconds taken. */
  observeRequest(route: string | undefined, method: string, status: number, seconds: number): void;
}

/**
 * The first middleware: gives the request an id (the caller's own when it is short and plain, as a
 * proxy would send), returns it as X-Request-Id, and logs one line when the request is answered:
 * at debug when it succeeded, info for a client error, warn for a server error. A line per success
 * is what the load balancer already logs, and here it would cost a quarter of the catalog's
 * throughput (bench/catalog.ts); LOG_LEVEL=debug shows them. Only the path is logged: query strings
 * can carry tokens (unsubscribe links).
 */
export function requestContext(log: Logger, metrics: RequestObserver): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    const given = requestHeader(c, 'x-request-id');
    const reqId = given && ACCEPTABLE_ID.test(given) ? given : randomUUID();
    c.set('requestId', reqId);
    c.set('baseLog', log);
    setHeader(c, 'X-Request-Id', reqId);
    // On every answer: a browser never guesses a type other than the one sent.
    setHeader(c, 'X-Content-Type-Options', 'nosniff');
    await next();
    const status = c.res.status;
    const elapsed = performance.now() - started;
    metrics.observeRequest(c.get('route'), c.req.method, status, elapsed / 1000);
    const level = status >= 500 ? 'warn' : status >= 400 ? 'info' : 'debug';
    if (!log.isLevelEnabled(level)) return;
    const ms = Math.round(elapsed * 10) / 10;
    log[level]({ reqId, method: c.req.method, path: c.req.path, status, ms }, 'request');
  };
}

/**
 * A logger whose lines carry this request's id. Made on first use: most requests never log
 * anything but their access line, and a child logger per request costs (bench/catalog.ts).
 */
export function requestLog(c: Context<AppEnv>): Logger {
  let log = c.get('log');
  if (!log) {
    log = c.get('baseLog').child({ reqId: c.get('requestId') });
    c.set('log', log);
  }
  return log;
}
