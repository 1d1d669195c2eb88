import type { Context } from 'hono';
import type { z } from 'zod';
import type { AppEnv } from './app-env.ts';
import { AppError } from './app-error.ts';
import type { RateLimit } from './rate-limit.ts';
import { errorResponses } from './schemas.ts';
import { detailsFrom } from './validation.ts';

/** Who may read a route's responses from a browser on another origin. */
export type CorsPolicy =
  /** The shop's own sites only (production, preview pattern, local development). */
  | 'allow-list'
  /** Anyone: `Access-Control-Allow-Origin: *`. */
  | 'any'
  /** No CORS headers at all. */
  | 'none';

export interface ResponseDoc {
  description: string;
  schema?: z.ZodType;
  /** The media type of the body; absent means `application/json`. */
  contentType?: string;
  headers?: Record<string, string>;
}

export type Method = 'GET' | 'POST';

/** What a route declares and keeps as declared. */
interface RouteCommon {
  method: Method;
  path: string;
  summary: string;
  description?: string;
  tag: string;
  cors: CorsPolicy;
  /** Another bearer token this admin route also accepts (METRICS_TOKEN on /metrics). */
  alsoAccepts?: string;
  /**
   * Refuses a browser's cross-site post (SPEC §10): a request whose `Origin` is not one of the
   * shop's (`'shop'`), or not one of the shop's nor the service's own (PUBLIC_BASE_URL's,
   * `'shop-or-service'`, for the service's own pages), gets 403 `Origin not allowed` before anything
   * else is done. A request without `Origin` (a server, a script) is unaffected.
   */
  origins?: 'shop' | 'shop-or-service';
  /** Also takes an HTML form's body (`application/x-www-form-urlencoded`), for pages that work without JavaScript. */
  acceptsForm?: boolean;
  /**
   * Takes an `Idempotency-Key` header (SPEC §9), read after the rate limit and before the body
   * (idempotency-key.ts): a malformed one is 400, one reused with another request 422.
   */
  idempotent?: boolean;
  /** A per-client budget, counted before the input is read (so refused and invalid requests count too). */
  rateLimit?: RateLimit;
  responses: Record<number, ResponseDoc>;
  /**
   * Answers a request this route has already answered, before its input is parsed again (a cache
   * keyed by the raw URL, say); undefined lets the request go the normal way.
   */
  answerKnown?(c: Context<AppEnv>): Response | undefined;
}

/**
 * One endpoint: its contract (schemas, errors, documentation) and its handler. The same object
 * mounts the route on the app and describes it in the OpenAPI document, so the two cannot drift.
 */
export interface Route extends RouteCommon {
  /** Requires `Authorization: Bearer <admin token>`, checked before the body is read. */
  admin: boolean;
  query?: z.ZodType;
  body?: z.ZodType;
  /** Turns schema failures into the route's 400. */
  invalid: (issues: z.core.$ZodIssue[]) => AppError;
  /** The 400 message for a body that is not a JSON object. */
  notAnObject: string;
  /** The 500 message. */
  serverError: string;
  handle(c: Context<AppEnv>, input: { query: unknown; body: unknown }): Response | Promise<Response>;
}

/** A route as written in its domain: typed input, and defaults for what most routes leave out (see defineRoute). */
export interface RouteDefinition<Q extends z.ZodType | undefined, B extends z.ZodType | undefined> extends RouteCommon {
  admin?: boolean;
  query?: Q;
  body?: B;
  invalid?: string | ((issues: z.core.$ZodIssue[]) => AppError);
  notAnObject?: string;
  serverError?: string;
  handle(c: Context<AppEnv>, input: { query: Output<Q>; body: Output<B> }): Response | Promise<Response>;
}

type Output<S> = S extends z.ZodType ? z.output<S> : undefined;

export const INVALID_PARAMETERS = 'Invalid parameters';
export const INTERNAL_SERVER_ERROR = 'Internal server error';

/** Fills a route's defaults and erases its input types so routes of any shape share one list. */
export function defineRoute<Q extends z.ZodType | undefined = undefined, B extends z.ZodType | undefined = undefined>(
  definition: RouteDefinition<Q, B>,
): Route {
  const invalid = definition.invalid ?? INVALID_PARAMETERS;
  return {
    ...definition,
    // An admin route can be refused for its client's failed authentications (admin-throttle.ts).
    responses: {
      ...(definition.admin ? errorResponses(429) : {}),
      ...(definition.origins ? errorResponses(403) : {}),
      ...(definition.idempotent ? errorResponses(422) : {}),
      ...definition.responses,
    },
    admin: definition.admin ?? false,
    invalid: typeof invalid === 'string' ? (issues) => new AppError(400, invalid, { details: detailsFrom(issues) }) : invalid,
    notAnObject: definition.notAnObject ?? 'Invalid JSON body',
    serverError: definition.serverError ?? INTERNAL_SERVER_ERROR,
    // The input was parsed by this route's own schemas (see mount.ts), so it has their output types.
    handle: (c, input) => definition.handle(c, input as { query: Output<Q>; body: Output<B> }),
  };
}
