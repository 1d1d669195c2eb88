import type { Context } from 'hono';
import type { Config } from '../config.ts';
import type { AppEnv } from './app-env.ts';
import { reply, setHeader } from './reply.ts';
import { AppError } from './app-error.ts';
import { requestHeader, requestHeaderLines, requestMethod } from './request.ts';

/** Who may read a route's responses from a browser on another origin. */
export type CorsPolicy =
  /** The shop's own sites only (production, preview pattern, local development). */
  | 'allow-list'
  /** Anyone: `Access-Control-Allow-Origin: *`. */
  | 'any'
  /** No CORS headers at all. */
  | 'none';

const LOCAL_DEVELOPMENT = /^http:\/\/(?:[a-z0-9-]+\.)*localhost:34434$/;

/** No origin is longer (a host name is at most 253 characters), and the patterns never see one that is. */
const LONGEST_ORIGIN = 253;

/** The shop's own origins: production, any preview deployment, and local development on port 34434. */
export function shopOrigins(settings: Config['cors']): (origin: string) => boolean {
  const production = settings.productionOrigin ? new URL(settings.productionOrigin).origin : undefined;
  const preview = settings.previewOriginPattern;
  return (origin) =>
    origin.length <= LONGEST_ORIGIN && (origin === production || LOCAL_DEVELOPMENT.test(origin) || (preview?.test(origin) ?? false));
}

/**
 * Which sites a browser may post from: the shop's (`'shop'`, the storefront forms), the shop's or
 * the service's own (`'shop-or-service'`), or the service's own alone (`'service'`: the console,
 * signed in by its cookie). The service's own is the origin whose host is the Host posted to, or
 * PUBLIC_BASE_URL's.
 */
export type AllowedOrigins = 'shop' | 'shop-or-service' | 'service';

/** Refuses (403) a request whose `Origin` is not allowed; one without `Origin` (a server, a script) passes. */
export type OriginGuard = (c: Context<AppEnv>, allowed: AllowedOrigins) => void;

/**
 * The check of a route's `origins` (route.ts), and of a signed-in console's requests: a browser's
 * post from another site is refused; one from the service's own pages (the Origin is `http://` and
 * the Host posted to, or PUBLIC_BASE_URL's origin where allowed) is not. Two Origin headers are refused
 * too (which one would the browser have sent?).
 */
export function originGuard(isShopOrigin: (origin: string) => boolean, serviceOrigin: string): OriginGuard {
  return (c, allowed) => {
    const origins = requestHeaderLines(c, 'origin');
    if (origins.length === 0) return;
    const [origin] = origins;
    if (
      origins.length === 1 &&
      (sameOrigin(origin!, requestHeader(c, 'host')) ||
        (allowed !== 'service' && isShopOrigin(origin!)) ||
        (allowed !== 'shop' && origin === serviceOrigin))
    )
      return;
    throw new AppError('origin_not_allowed', 'Origin not allowed');
  };
}

/**
 * A page of the service itself (the demo storefront) posting back to it: scheme, host and port are
 * those the request was sent to. The service speaks plain HTTP; reached over HTTPS through a proxy,
 * its own pages are PUBLIC_BASE_URL's origin (`serviceOrigin`), so an `https://` Origin is never
 * taken for the `http://` service of the same host.
 */
function sameOrigin(origin: string, host: string | undefined): boolean {
  return host !== undefined && URL.canParse(`http://${host}`) && origin === new URL(`http://${host}`).origin;
}

/**
 * The CORS headers of an answer (not a preflight's): `*` for `'any'`; for `'allow-list'` the
 * origin itself when it is one of the shop's, with `Vary: Origin`; none for `'none'`.
 */
export function corsHeaders(
  policy: CorsPolicy,
  origin: string | undefined,
  isShopOrigin: (origin: string) => boolean,
): Record<string, string> {
  if (policy === 'none') return {};
  const exposed = { 'Access-Control-Expose-Headers': 'X-Request-Id, Retry-After' };
  if (policy === 'any') return { 'Access-Control-Allow-Origin': '*', ...exposed };
  if (origin && isShopOrigin(origin)) return { Vary: 'Origin', 'Access-Control-Allow-Origin': origin, ...exposed };
  return { Vary: 'Origin', ...exposed };
}

/**
 * CORS for one path: sets the headers for the response and answers a preflight (OPTIONS) itself
 * with 204, the methods the path serves and the request headers it reads (a browser storefront can
 * then send `Idempotency-Key` where it is taken). A disallowed origin simply gets no
 * Access-Control-Allow-Origin, so the browser keeps the response from it.
 *
 * Hand-written rather than hono/cors because that one edits `c.res.headers` after the handler,
 * which makes the Node adapter build a full web Response and copy the body (see reply.ts).
 */
export function corsFor(
  policy: CorsPolicy,
  allowed: { methods: string[]; requestHeaders: string[] },
  isShopOrigin: (origin: string) => boolean,
): (c: Context<AppEnv>) => Response | undefined {
  const allowMethods = allowed.methods.join(', ');
  const allowHeaders = allowed.requestHeaders.join(', ');
  return (c) => {
    const headers = corsHeaders(policy, requestHeader(c, 'origin'), isShopOrigin);
    for (const name in headers) setHeader(c, name, headers[name]!);
    if (requestMethod(c) !== 'OPTIONS') return undefined;
    if (policy === 'none') return reply(c, 204, null);
    return reply(c, 204, null, {
      'Access-Control-Allow-Methods': allowMethods,
      'Access-Control-Allow-Headers': allowHeaders,
      'Access-Control-Max-Age': '600',
    });
  };
}
