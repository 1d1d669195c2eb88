import type { Context } from 'hono';
import type { z } from 'zod';
import type { AppEnv } from './app-env.ts';
import type { AllowedOrigins, CorsPolicy } from './cors.ts';
import { AppError } from './app-error.ts';
import { ALL_ERROR_CODES, ERROR_CODES, type AnswerCode } from './error-codes.ts';
import type { RateLimit } from './rate-limit.ts';
import { errorResponses, ErrorSchema, type ResponseDoc } from './schemas.ts';
import { detailsFrom } from './validation.ts';

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
   * Refuses a browser's cross-site post: a request whose `Origin` is not one of the
   * shop's (`'shop'`), or not one of the shop's nor the service's own (PUBLIC_BASE_URL's,
   * `'shop-or-service'`, for the service's own pages), or not the service's own (`'service'`, the
   * console's sign-in) gets 403 `Origin not allowed` before anything else is done. A request
   * without `Origin` (a server, a script) is unaffected.
   */
  origins?: AllowedOrigins;
  /** Only an owner may call it (an admin route): a signed-in `staff` account gets 403 `Forbidden`. */
  ownerOnly?: boolean;
  /** Also takes an HTML form's body (`application/x-www-form-urlencoded`), for pages that work without JavaScript. */
  acceptsForm?: boolean;
  /**
   * Takes an `Idempotency-Key` header, read after the rate limit and before the body
   * (idempotency-key.ts): a malformed one is 400, one reused with another request 422.
   */
  idempotent?: boolean;
  /**
   * Checks the body as it arrived, before it is parsed (a provider's signature over its bytes):
   * throws the route's refusal, so a body it does not vouch for is never read as input.
   */
  verifyRawBody?(c: Context<AppEnv>, raw: string): void;
  /** A per-client budget, counted before the input is read (so refused and invalid requests count too). */
  rateLimit?: RateLimit;
  responses: Record<number, ResponseDoc>;
  /**
   * Its answer depends on the URL alone (path and query, as sent): the JSON it answers with
   * `sendCachedJson` is kept under the URL, `entries` answers and `bytes` between them at most, and
   * the same URL is answered from it again, with its ETag and 304s, after the checks the route
   * declares and before its input is parsed (mount.ts). A GET.
   */
  keptByUrl?: { entries: number; bytes: number };
}

/**
 * One endpoint: its contract (schemas, errors, documentation) and its handler. The same object
 * mounts the route on the app and describes it in the OpenAPI document, so the two cannot drift.
 */
export interface Route extends RouteCommon {
  /**
   * Requires the admin token (`Authorization: Bearer …`) or a signed-in staff account's session
   * cookie, checked before the body is read (mount.ts).
   */
  admin: boolean;
  query?: z.ZodType;
  body?: z.ZodType;
  /** Turns schema failures into the route's 400. */
  invalid: InvalidInput;
  /** The 400 for a body that is not a JSON object. */
  notAnObject: AppError;
  /** The 500 message. */
  serverError: string;
  /**
   * Every error code this route can answer: its own (`errors`), its validation's, and those its
   * declaration implies (admin, body, origins, rate limit, Idempotency-Key). An AppError with
   * another code escaping its handler is a bug (mount.ts answers it as one).
   */
  codes: ReadonlySet<AnswerCode>;
  handle(c: Context<AppEnv>, input: { query: unknown; body: unknown }): Response | Promise<Response>;
}

/** A route's 400 for input its schemas refuse: the error made from the schema's issues, and every code it can carry. */
export interface InvalidInput {
  codes: readonly AnswerCode[];
  error(issues: z.core.$ZodIssue[]): Error;
}

/**
 * For input whose schemas take anything (every value falls back to a default): a refusal would be a
 * bug, and is answered as one (a logged 500).
 */
export const TAKES_ANYTHING: InvalidInput = {
  codes: [],
  error: (issues) => new Error(`a schema meant to take anything refused: ${JSON.stringify(issues).slice(0, 500)}`),
};

/** A 400 that always has this code and text, every field at fault in its details. */
export function refusedAs(code: AnswerCode, message: string): InvalidInput {
  return { codes: [code], error: (issues) => new AppError(code, message, { details: detailsFrom(issues) }) };
}

/** A route as written in its domain: typed input, and defaults for what most routes leave out (see defineRoute). */
export interface RouteDefinition<Q extends z.ZodType | undefined, B extends z.ZodType | undefined> extends RouteCommon {
  admin?: boolean;
  query?: Q;
  body?: B;
  /** Default: `400 Invalid parameters` (invalid_parameters) with the fields at fault. */
  invalid?: InvalidInput;
  /** Default: `400 Invalid JSON body` (invalid_json_body). */
  notAnObject?: { code: AnswerCode; message: string };
  serverError?: string;
  /** The error codes the handler itself answers with (a record not found, a refused move, …). */
  errors?: readonly AnswerCode[];
  handle(c: Context<AppEnv>, input: { query: Output<Q>; body: Output<B> }): Response | Promise<Response>;
}

type Output<S> = S extends z.ZodType ? z.output<S> : undefined;

export const INVALID_PARAMETERS = 'Invalid parameters';
export const INTERNAL_SERVER_ERROR = 'Internal server error';

const INVALID = refusedAs('invalid_parameters', INVALID_PARAMETERS);

/**
 * Fills a route's defaults, gathers every error code it can answer and lists each documented error
 * status's codes, and erases its input types so routes of any shape share one list.
 */
export function defineRoute<Q extends z.ZodType | undefined = undefined, B extends z.ZodType | undefined = undefined>(
  definition: RouteDefinition<Q, B>,
): Route {
  if (definition.ownerOnly && !definition.admin) throw new Error(`${definition.path} is owner-only but not an admin route`);
  const { handle } = definition;
  if (definition.keptByUrl && definition.method !== 'GET') throw new Error(`${definition.path} is kept by URL, so it is a GET`);
  const invalid = definition.invalid ?? INVALID;
  const notAnObject = definition.notAnObject ?? { code: 'invalid_json_body', message: 'Invalid JSON body' };
  const codes = new Set<AnswerCode>([...UNIVERSAL_CODES, ...(definition.errors ?? [])]);
  if (definition.query || definition.body) for (const code of invalid.codes) codes.add(code);
  if (definition.body) codes.add('payload_too_large').add('request_body_incomplete');
  if (definition.body && !definition.acceptsForm) codes.add(notAnObject.code);
  // A signed-in browser's request from a page not the service's own is refused (admin-auth.ts).
  if (definition.admin) codes.add('unauthorized').add('too_many_failed_authentications').add('origin_not_allowed');
  if (definition.ownerOnly) codes.add('forbidden');
  if (definition.origins) codes.add('origin_not_allowed');
  if (definition.rateLimit) codes.add('too_many_requests');
  if (definition.idempotent) codes.add('invalid_idempotency_key').add('idempotency_key_reused');
  const responses: Record<number, ResponseDoc> = {
    // An admin route can be refused for its client's failed authentications (admin-throttle.ts).
    ...(definition.admin ? errorResponses(403, 429) : {}),
    ...(definition.origins ? errorResponses(403) : {}),
    ...(definition.idempotent ? errorResponses(422) : {}),
    ...definition.responses,
  };
  return {
    ...definition,
    responses: documentCodes(definition, responses, codes),
    admin: definition.admin ?? false,
    invalid,
    notAnObject: new AppError(notAnObject.code, notAnObject.message),
    serverError: definition.serverError ?? INTERNAL_SERVER_ERROR,
    codes,
    // The input was parsed by this route's own schemas (see mount.ts), so it has their output types.
    handle: (c, input) => handle(c, input as { query: Output<Q>; body: Output<B> }),
  };
}

/** The codes of each status, in the order of error-codes.ts (the order a route's documentation lists them in). */
const CODES_BY_STATUS = Map.groupBy(
  ALL_ERROR_CODES.filter((code): code is AnswerCode => 'status' in ERROR_CODES[code]),
  (code) => String(ERROR_CODES[code].status),
);

/** Codes any path can answer, documented only where the route documents their status. */
const UNIVERSAL_CODES: readonly AnswerCode[] = ['internal_error', 'method_not_allowed'];

/**
 * Each envelope the route documents, with the codes of its status. Fails at once (the app cannot be
 * built) when the route can answer a code whose status it does not document, or documents an error
 * status none of its codes has.
 */
function documentCodes(
  route: RouteCommon,
  responses: Record<number, ResponseDoc>,
  codes: ReadonlySet<AnswerCode>,
): Record<number, ResponseDoc> {
  const what = `${route.method} ${route.path}`;
  for (const code of codes) {
    if (!UNIVERSAL_CODES.includes(code) && !responses[ERROR_CODES[code].status])
      throw new Error(`${what} can answer ${code} but documents no ${ERROR_CODES[code].status}`);
  }
  return Object.fromEntries(
    Object.entries(responses).map(([status, doc]) => {
      if (doc.schema !== ErrorSchema) return [status, doc];
      const ofStatus = CODES_BY_STATUS.get(status)?.filter((code) => codes.has(code)) ?? [];
      if (ofStatus.length === 0) throw new Error(`${what} documents ${status} but answers no error code with it`);
      return [status, { ...doc, codes: ofStatus }];
    }),
  );
}
