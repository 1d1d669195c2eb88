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

/** Drives a server with autocannon; each connection cycles through `requests` in order. */
export async function load(options: { url: string; requests: LoadRequest[]; connections?: number; seconds?: number }): Promise<LoadResult> {
  const result = await autocannon({
    url: options.url,
    connections: options.connections ?? 50,
    duration: options.seconds ?? 10,
    requests: options.requests,
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
