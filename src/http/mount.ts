import type { Context, Hono } from 'hono';
import type { Logger } from '../log.ts';
import { answersByUrl } from '../serving/cached-json.ts';
import type { AppEnv } from './app-env.ts';
import { adminAuthentication, adminGuard, type SessionReader } from './admin-auth.ts';
import type { AdminThrottle } from './admin-throttle.ts';
import { AppError } from './app-error.ts';
import { corsFor, originGuard, type shopOrigins } from './cors.ts';
import { errorHandler, notFound } from './error-handler.ts';
import { readIdempotencyKey } from './idempotency-key.ts';
import { readInput } from './input.ts';
import { sendCachedJson, setHeader } from './reply.ts';
import { inRequestContext, type Answer, type RequestObserver } from './request-context.ts';
import { requestMethod, requestTarget } from './request.ts';
import type { Route } from './route.ts';

interface MountOptions {
  adminToken: string;
  /** The staff's sessions, which a console's cookie names. */
  sessions: SessionReader;
  adminThrottle: AdminThrottle;
  isShopOrigin: ReturnType<typeof shopOrigins>;
  /** PUBLIC_BASE_URL's origin: the service's own pages post from it. */
  serviceOrigin: string;
  /** Who the client is (client-address.ts): Idempotency-Keys are per client. */
  clientAddress: (c: Context) => string;
  /** Where failures are logged, with an access line for each (request-context.ts). */
  log: Logger;
  /** Where every answered request is counted. */
  metrics: RequestObserver;
}

/** What the app serves one path with: everything from the request's id to the answer. */
export type PathHandler = Answer;

/** `next` of a value, at once, or of a promise's once it is settled: awaiting costs about a microsecond. */
function then<T, U>(value: T | Promise<T>, next: (value: T) => U | Promise<U>): U | Promise<U> {
  return value instanceof Promise ? value.then(next) : next(value);
}

/**
 * A bug, when a route answers an error code it does not declare (and so does not document): the
 * contract says what each route answers, and a client reading the document cannot expect it.
 * Answered as any other bug, a logged 500, so a test that reaches it fails.
 */
function undeclared(route: Route, error: unknown): Error | undefined {
  if (!(error instanceof AppError) || route.codes.has(error.code)) return undefined;
  return new Error(`${route.method} ${route.path} answered the undeclared error code ${error.code} (${error.message})`, { cause: error });
}

/**
 * Mounts routes one path at a time, each path's whole chain one function, so every path behaves
 * alike: the request's id and access line; OPTIONS is the CORS preflight (204), HEAD is GET without
 * a body, any other method 405 with `Allow`; a cross-site post is refused (`origins`), then the admin
 * check (an owner-only route refuses a `staff` account) and the rate limit, before the body is read;
 * then the Idempotency-Key, a kept answer of a route kept by URL, the input, the handler; what it
 * throws becomes the envelope. Returns the handlers of the paths without parameters, which the
 * serving layer's direct lane calls as Hono's router would (src/serving/direct-lane.ts).
 */
export function mountRoutes(app: Hono<AppEnv>, routes: Route[], options: MountOptions): Map<string, PathHandler> {
  const checkAdmin = adminGuard(options.adminToken);
  const checkOrigin = originGuard(options.isShopOrigin, options.serviceOrigin);
  const authenticate = adminAuthentication({ sessions: options.sessions, checkOrigin });
  const onError = errorHandler(options.log);
  const inContext = inRequestContext(options.log, options.metrics);
  const exact = new Map<string, PathHandler>();
  for (const [path, pathRoutes] of Map.groupBy(routes, (route) => route.path)) {
    const served = pathRoutes.map((route) => route.method);
    const allow = [...served, ...(served.includes('GET') ? ['HEAD'] : []), 'OPTIONS'];
    const allowHeader = allow.join(', ');
    const requestHeaders = ['Content-Type', 'Authorization', ...(pathRoutes.some((route) => route.idempotent) ? ['Idempotency-Key'] : [])];
    const cors = corsFor(pathRoutes[0]!.cors, { methods: allow, requestHeaders }, options.isShopOrigin);
    const guards = new Map(
      pathRoutes.map((route) => [route, route.alsoAccepts ? adminGuard(options.adminToken, route.alsoAccepts) : checkAdmin]),
    );
    const kept = new Map(pathRoutes.flatMap((route) => (route.keptByUrl ? [[route, answersByUrl(route.keptByUrl)] as const] : [])));
    const routeOf = (c: Context<AppEnv>) => {
      const sent = requestMethod(c);
      return pathRoutes.find((r) => r.method === (sent === 'HEAD' ? 'GET' : sent));
    };

    /** The route's answer once it is let in: a kept one, or its handler's (kept when the route is kept by URL). */
    const answer = (c: Context<AppEnv>, route: Route) => {
      if (route.idempotent) readIdempotencyKey(c, options.clientAddress);
      const byUrl = kept.get(route);
      const known = byUrl?.get(requestTarget(c));
      if (known) return sendCachedJson(c, known.json, known.headers);
      const response = then(readInput(c, route), (input) => route.handle(c, input));
      if (!byUrl) return response;
      return then(response, (made) => {
        const sent = c.get('sentJson');
        if (sent) byUrl.set(requestTarget(c), sent);
        return made;
      });
    };

    const handler = inContext(
      path,
      (c) => {
        if (requestMethod(c) === 'OPTIONS') setHeader(c, 'Allow', allowHeader);
        const preflight = cors(c);
        if (preflight) return preflight;
        const route = routeOf(c);
        if (!route) throw new AppError('method_not_allowed', 'Method not allowed', { headers: { Allow: allowHeader } });
        c.set('serverErrorMessage', route.serverError);
        if (route.origins) checkOrigin(c, route.origins);
        if (!route.admin && !route.rateLimit) return answer(c, route);
        return (async () => {
          if (route.admin) {
            const identity = await options.adminThrottle(c, () => authenticate(c, guards.get(route)!));
            c.set('admin', identity);
            if (route.ownerOnly && identity.role !== 'owner') throw new AppError('forbidden', 'Forbidden');
          }
          if (route.rateLimit) await route.rateLimit.check(c);
          return answer(c, route);
        })();
      },
      (error, c) => {
        const route = routeOf(c);
        return onError((route && undeclared(route, error)) ?? error, c);
      },
    );
    app.all(path, handler);
    if (!path.includes(':') && !path.includes('*')) exact.set(path, handler);
  }
  app.notFound(inContext(undefined, notFound, onError));
  app.onError(onError);
  return exact;
}
