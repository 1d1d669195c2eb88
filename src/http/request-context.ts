import { randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import type { Logger } from '../log.ts';
import type { AppEnv } from './app-env.ts';
import { requestHeader, requestMethod } from './request.ts';

const ACCEPTABLE_ID = /^[\w\-.=]{1,128}$/;

/** Where each answered request is counted (the metrics' request histogram). */
export interface RequestObserver {
  /** One answered request: its mounted route (or undefined: none matched), method, status and seconds taken. */
  observeRequest(route: string | undefined, method: string, status: number, seconds: number): void;
}

/** The request's id: the caller's own when it is short and plain (as a proxy would send), else a new one. */
export function requestIdOf(given: string | undefined): string {
  return given && ACCEPTABLE_ID.test(given) ? given : randomUUID();
}

/** An answered request, as counted and logged (see inRequestContext). */
export interface AnsweredRequest {
  reqId: string;
  /** The mounted path template (undefined: no route matched). */
  route: string | undefined;
  method: string;
  /** The path only: query strings can carry tokens (unsubscribe links). */
  path: string;
  status: number;
  /** performance.now() when the request arrived. */
  started: number;
}

/** Counts an answered request in the metrics and writes its access line (see inRequestContext). */
export function requestAnswered(log: Logger, metrics: RequestObserver): (answered: AnsweredRequest) => void {
  return ({ reqId, route, method, path, status, started }) => {
    const elapsed = performance.now() - started;
    metrics.observeRequest(route, method, status, elapsed / 1000);
    const level = status >= 500 ? 'warn' : status >= 400 ? 'info' : 'debug';
    if (!log.isLevelEnabled(level)) return;
    const ms = Math.round(elapsed * 10) / 10;
    log[level]({ reqId, method, path, status, ms }, 'request');
  };
}

/** The headers every answer carries, whoever produces it: the request's id, and no type guessing by browsers. */
export function everyAnswerHeaders(reqId: string): Record<string, string> {
  return { 'X-Request-Id': reqId, 'X-Content-Type-Options': 'nosniff' };
}

/** How a path answers, once in its request's context. */
export type Answer = (c: Context<AppEnv>) => Response | Promise<Response>;

/** What a thrown error is answered with (error-handler.ts). */
type OnError = (error: unknown, c: Context<AppEnv>) => Response;

/**
 * Puts a path's answer (mount.ts) in its request's context: gives the request an id (requestIdOf),
 * returns it as X-Request-Id, turns what it throws into a response (`onError`), and logs one line
 * when the request is answered: at debug when it succeeded, info for a client error, warn for a
 * server error. A line per success is what the load balancer already logs, and here it would cost a
 * quarter of the catalog's throughput (bench/catalog.ts); LOG_LEVEL=debug shows them. Only the path
 * is logged: query strings can carry tokens (unsubscribe links). `route` is the path as mounted
 * (undefined: none matched), for the request metrics.
 */
export function inRequestContext(
  log: Logger,
  metrics: RequestObserver,
): (route: string | undefined, answer: Answer, onError: OnError) => Answer {
  const answered = requestAnswered(log, metrics);
  return (route, answer, onError) => (c) => {
    const started = performance.now();
    const reqId = requestIdOf(requestHeader(c, 'x-request-id'));
    c.set('requestId', reqId);
    c.set('baseLog', log);
    // The first headers of the request's header bag (reply.ts).
    c.set('responseHeaders', everyAnswerHeaders(reqId));
    const done = (response: Response) => {
      answered({ reqId, route, method: requestMethod(c), path: c.req.path, status: response.status, started });
      return response;
    };
    let response: Response | Promise<Response>;
    try {
      response = answer(c);
    } catch (error) {
      return done(onError(error, c));
    }
    // An answer made at once is returned at once (a promise awaited costs about a microsecond).
    return response instanceof Promise ? response.then(done, (error: unknown) => done(onError(error, c))) : done(response);
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
