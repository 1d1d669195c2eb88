import type { Endpoints, ErrorBody } from './api-types.ts';
import { ENDPOINTS, type EndpointPath } from './endpoints.ts';

// A typed client for the whole API, for browsers (the admin console, a storefront) and Node (tests,
// scripts). It depends on nothing but fetch.

export type * from './api-types.ts';
export { ENDPOINTS, type EndpointPath } from './endpoints.ts';

export interface ClientOptions {
  /** The service's origin, e.g. `http://localhost:8787`; '' (the default) means the page's own. */
  baseUrl?: string;
  /** The admin token, asked for on every admin call (so logging out takes effect at once). */
  token?: () => string | undefined;
  fetch?: typeof fetch;
}

/** What went wrong, as a program can tell (every code: docs/endpoints.md#error-codes); every error envelope carries one. */
export type ErrorCode = ErrorBody['code'];

export type Input<P extends EndpointPath> = Endpoints[P]['input'];
export type Output<P extends EndpointPath> = Endpoints[P]['output'];

/** The input argument: optional where the endpoint needs nothing. */
type InputArgs<P extends EndpointPath> = Input<P> extends undefined ? [] : {} extends Input<P> ? [input?: Input<P>] : [input: Input<P>];

/** What a call to an endpoint that takes an Idempotency-Key may add. */
export interface IdempotentOptions {
  /**
   * Sent as `Idempotency-Key` (1-255 visible ASCII characters): make one per submission
   * (`crypto.randomUUID()`) and send the same with every retry of it, so a retry after a timeout
   * answers the first answer instead of reserving twice.
   */
  idempotencyKey?: string;
}

/** The arguments after the path: the input, and for an idempotent endpoint its options. */
type CallArgs<P extends EndpointPath> = (typeof ENDPOINTS)[P] extends { idempotent: true }
  ? [input: Input<P>, options?: IdempotentOptions]
  : InputArgs<P>;

/**
 * An error answer's body: the service's envelope, or, for an answer that was not one (a proxy's
 * error page, say), one made from its status, without a code.
 */
export type ErrorAnswer = Omit<ErrorBody, 'code'> & { code?: ErrorCode };

/** An answer as it came: the success body, or the error envelope with its status. */
export type Reply<P extends EndpointPath> =
  { ok: true; status: number; body: Output<P>; headers: Headers } | { ok: false; status: number; body: ErrorAnswer; headers: Headers };

/** A call that did not succeed: the service's error, or no answer at all (status 0). */
export class ApiError extends Error {
  override name = 'ApiError';
  /** The HTTP status; 0 when no answer came (offline, service down). */
  readonly status: number;
  /**
   * What went wrong, as the service names it (`reservation_not_found`, `changed_by_someone_else`, …):
   * branch on this, never on the message. Undefined when no answer, or no envelope, came.
   */
  readonly code: ErrorCode | undefined;
  /** The envelope's field errors, if any. */
  readonly details: { field: string; message: string }[];
  /** The service's id for the request, to quote when reporting a 500. */
  readonly requestId: string | undefined;

  constructor(
    status: number,
    message: string,
    options: { code?: ErrorCode; details?: { field: string; message: string }[]; requestId?: string; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.status = status;
    this.code = options.code;
    this.details = options.details ?? [];
    this.requestId = options.requestId;
  }
}

export interface TenpoClient {
  /** Calls an endpoint and returns its success body; anything else throws ApiError. */
  call<P extends EndpointPath>(path: P, ...args: CallArgs<P>): Promise<Output<P>>;
  /** Calls an endpoint and returns the answer whatever its status; only a missing answer throws. */
  send<P extends EndpointPath>(path: P, ...args: CallArgs<P>): Promise<Reply<P>>;
}

export function createTenpoClient(options: ClientOptions = {}): TenpoClient {
  const baseUrl = options.baseUrl ?? '';
  const fetchFn = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));

  // Every endpoint's arguments fit this shape; CallArgs says which each endpoint takes.
  async function send<P extends EndpointPath>(path: P, input?: unknown, callOptions?: IdempotentOptions): Promise<Reply<P>> {
    const { method, admin } = ENDPOINTS[path];
    const headers: Record<string, string> = {};
    const token = admin ? options.token?.() : undefined;
    if (token) headers.authorization = `Bearer ${token}`;
    if (callOptions?.idempotencyKey !== undefined) headers['idempotency-key'] = callOptions.idempotencyKey;
    let url = baseUrl + path;
    let body: string | undefined;
    if (method === 'GET') {
      url += queryString(input as Record<string, unknown> | undefined);
    } else {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(input ?? {});
    }
    let response: Response;
    try {
      response = await fetchFn(url, { method, headers, body });
    } catch (cause) {
      throw new ApiError(0, 'No answer from the service', { cause });
    }
    const parsed: unknown = await response.json().catch(() => undefined);
    if (response.ok && parsed !== undefined)
      return { ok: true, status: response.status, body: parsed as Output<P>, headers: response.headers };
    return { ok: false, status: response.status, body: asErrorBody(parsed, response.status), headers: response.headers };
  }

  return {
    send,
    async call(path, ...args) {
      const reply = await send(path, ...args);
      if (reply.ok) return reply.body;
      throw new ApiError(reply.status, reply.body.error, {
        code: reply.body.code,
        details: reply.body.details,
        requestId: reply.headers.get('x-request-id') ?? undefined,
      });
    },
  };
}

/** `?a=1&tag=x&tag=y`: arrays repeat their name, absent values are left out. */
function queryString(query: Record<string, unknown> | undefined): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    for (const item of Array.isArray(value) ? value : [value]) if (item !== undefined && item !== null) params.append(name, String(item));
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/** The envelope when the answer was one; otherwise (a proxy's error page, say) one made from the status. */
function asErrorBody(value: unknown, status: number): ErrorAnswer {
  const candidate = value as Partial<ErrorBody> | undefined;
  if (candidate && typeof candidate.error === 'string')
    return {
      success: false,
      error: candidate.error,
      ...(typeof candidate.code === 'string' ? { code: candidate.code } : {}),
      ...(candidate.details ? { details: candidate.details } : {}),
    };
  return { success: false, error: `HTTP ${status}` };
}
