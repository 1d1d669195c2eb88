import autocannon from 'autocannon';

export interface LoadRequest {
  method?: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  total: number;
  /** Requests answered 2xx. */
  ok: number;
  errors: number;
  non2xx: number;
}

export interface LoadOptions {
  url: string;
  requests: LoadRequest[];
  connections?: number;
  /** How long to run; ignored when `amount` is given. */
  seconds?: number;
  /** Stop after this many requests instead of after `seconds`. */
  amount?: number;
  /**
   * Deal `requests` out in turn across all connections (one sequence for all) instead of each
   * connection cycling through them from the start, so no two connections ask for the same thing
   * at once: with more requests than a cache holds, none is answered from the cache.
   */
  shared?: boolean;
}

/** Drives a server with autocannon; each connection cycles through `requests` in order (see `shared`). */
export async function load(options: LoadOptions): Promise<LoadResult> {
  let turn = 0;
  const result = await autocannon({
    url: options.url,
    connections: options.connections ?? 50,
    ...(options.amount ? { amount: options.amount } : { duration: options.seconds ?? 10 }),
    requests: options.shared
      ? [{ setupRequest: (request) => ({ ...request, ...options.requests[turn++ % options.requests.length]! }) }]
      : options.requests,
  });
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    total: result.requests.total,
    ok: result['2xx'],
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}
