import type { Context, Hono } from 'hono';
import type { AppEnv } from './app-env.ts';
import { adminAuthentication, adminGuard, type SessionReader } from './admin-auth.ts';
import type { AdminThrottle } from './admin-throttle.ts';
import { AppError } from './app-error.ts';
import { corsFor, originGuard, type shopOrigins } from './cors.ts';
import { readIdempotencyKey } from './idempotency-key.ts';
import { readInput } from './input.ts';
import { setHeader } from './reply.ts';
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
}

const NO_INPUT = { query: undefined, body: undefined };

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
 * Mounts routes one path at a time, so every path behaves the same way around its handlers:
 * OPTIONS is the CORS preflight (204), HEAD is GET without a body, any other method is 405 with an
 * `Allow` header; a cross-site post is refused (the route's `origins`), then the admin check (the
 * token or a session; then an owner-only route refuses a `staff` account) and the rate limit come
 * before the body is read, then the Idempotency-Key is read, then input is validated.
 */
export function mountRoutes(app: Hono<AppEnv>, routes: Route[], options: MountOptions): void {
  const checkAdmin = adminGuard(options.adminToken);
  const checkOrigin = originGuard(options.isShopOrigin, options.serviceOrigin);
  const authenticate = adminAuthentication({ sessions: options.sessions, checkOrigin });
  for (const [path, pathRoutes] of Map.groupBy(routes, (route) => route.path)) {
    const served = pathRoutes.map((route) => route.method);
    const allow = [...served, ...(served.includes('GET') ? ['HEAD'] : []), 'OPTIONS'];
    const allowHeader = allow.join(', ');
    const requestHeaders = ['Content-Type', 'Authorization', ...(pathRoutes.some((route) => route.idempotent) ? ['Idempotency-Key'] : [])];
    const cors = corsFor(pathRoutes[0]!.cors, { methods: allow, requestHeaders }, options.isShopOrigin);
    const guards = new Map(
      pathRoutes.map((route) => [route, route.alsoAccepts ? adminGuard(options.adminToken, route.alsoAccepts) : checkAdmin]),
    );

    app.all(path, async (c) => {
      // For the request metrics: the path as mounted, never the raw URL.
      c.set('route', path);
      if (c.req.method === 'OPTIONS') setHeader(c, 'Allow', allowHeader);
      const preflight = cors(c);
      if (preflight) return preflight;
      const method = c.req.method === 'HEAD' ? 'GET' : c.req.method;
      const route = pathRoutes.find((r) => r.method === method);
      if (!route) throw new AppError('method_not_allowed', 'Method not allowed', { headers: { Allow: allowHeader } });
      c.set('serverErrorMessage', route.serverError);
      if (route.origins) checkOrigin(c, route.origins);
      if (route.admin) {
        const identity = await options.adminThrottle(c, () => authenticate(c, guards.get(route)!));
        c.set('admin', identity);
        if (route.ownerOnly && identity.role !== 'owner') throw new AppError('forbidden', 'Forbidden');
      }
      await route.rateLimit?.check(c);
      if (route.idempotent) readIdempotencyKey(c, options.clientAddress);
      try {
        // A route with `answer` reads its own query (route.ts).
        return await (route.answerKnown?.(c) ?? route.handle(c, route.answer ? NO_INPUT : await readInput(c, route)));
      } catch (error) {
        throw undeclared(route, error) ?? error;
      }
    });
  }
}
