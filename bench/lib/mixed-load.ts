import { Agent, request } from 'node:http';
import { createHistogram, type RecordableHistogram } from 'node:perf_hooks';

// A load generator for mixed traffic, which autocannon cannot measure per endpoint: `connections`
// loops, each with one request at a time on a kept-alive connection, each request an endpoint chosen
// at random by weight, its latency recorded in that endpoint's histogram (microseconds).

export interface LoadCall {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface Endpoint {
  /** Its row in the report, e.g. `GET /api/products`. */
  name: string;
  /** Its share of the traffic, relative to the other endpoints' weights. */
  weight: number;
  /** The next request; undefined when it has none to make yet (another endpoint is chosen instead). */
  next(random: () => number): LoadCall | undefined;
  /** Sees each 2xx answer's body (only endpoints that define it have their bodies read). */
  answered?(call: LoadCall, body: string): void;
  /** Sees each failed request, whatever the reason, so it can give back what next() took. */
  failed?(call: LoadCall): void;
}

export interface EndpointResult {
  name: string;
  count: number;
  errors: number;
  histogram: RecordableHistogram;
}

export interface MixedLoadResult {
  seconds: number;
  total: number;
  errors: number;
  endpoints: EndpointResult[];
  /** Every request's latency, whatever its endpoint. */
  overall: RecordableHistogram;
  /** The first few failures, for the report. */
  failures: string[];
}

/** Runs the mix against `url` for `seconds`. Every answer other than 2xx, and every network error, is an error. */
export async function runMixedLoad(options: {
  url: string;
  endpoints: Endpoint[];
  connections: number;
  seconds: number;
  /** Stop after this many requests, if the time has not run out first. */
  requests?: number;
  random: () => number;
  headers?: Record<string, string>;
}): Promise<MixedLoadResult> {
  const { endpoints, random } = options;
  const target = new URL(options.url);
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
  const totalWeight = endpoints.reduce((sum, e) => sum + e.weight, 0);
  const histogram = () => createHistogram({ lowest: 1, highest: 60_000_000, figures: 3 });
  const results = new Map(endpoints.map((e) => [e, { name: e.name, count: 0, errors: 0, histogram: histogram() }]));
  const overall = histogram();
  const failures: string[] = [];
  const fail = (endpoint: Endpoint, call: LoadCall, reason: string) => {
    results.get(endpoint)!.errors += 1;
    endpoint.failed?.(call);
    if (failures.length < 10) failures.push(`${call.method} ${call.path}: ${reason}`);
  };

  const choose = (): [Endpoint, LoadCall] => {
    for (;;) {
      let pick = random() * totalWeight;
      const endpoint = endpoints.find((e) => (pick -= e.weight) < 0) ?? endpoints.at(-1)!;
      const call = endpoint.next(random);
      if (call) return [endpoint, call];
    }
  };

  const send = (call: LoadCall, readBody: boolean) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const payload = call.body === undefined ? undefined : JSON.stringify(call.body);
      const req = request(
        {
          host: target.hostname,
          port: target.port,
          method: call.method,
          path: call.path,
          agent,
          headers: {
            ...options.headers,
            ...call.headers,
            ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
          },
        },
        (res) => {
          const status = res.statusCode ?? 0;
          const ok = status >= 200 && status < 300;
          if (!readBody && ok) {
            res.resume();
            res.on('end', () => resolve({ status, body: '' }));
            return;
          }
          let body = '';
          res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
          res.on('end', () => resolve({ status, body }));
        },
      );
      req.on('error', reject);
      req.end(payload);
    });

  const deadline = performance.now() + options.seconds * 1000;
  const started = performance.now();
  let begun = 0;
  await Promise.all(
    Array.from({ length: options.connections }, async () => {
      while (performance.now() < deadline && begun++ < (options.requests ?? Number.POSITIVE_INFINITY)) {
        const [endpoint, call] = choose();
        const result = results.get(endpoint)!;
        const sent = performance.now();
        try {
          const { status, body } = await send(call, endpoint.answered !== undefined);
          const microseconds = Math.max(1, Math.round((performance.now() - sent) * 1000));
          result.histogram.record(microseconds);
          overall.record(microseconds);
          result.count += 1;
          if (status < 200 || status >= 300) fail(endpoint, call, `${status} ${body.slice(0, 200)}`);
          else endpoint.answered?.(call, body);
        } catch (error) {
          result.count += 1;
          fail(endpoint, call, error instanceof Error ? error.message : String(error));
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  const list = [...results.values()];
  return {
    seconds,
    total: list.reduce((sum, r) => sum + r.count, 0),
    errors: list.reduce((sum, r) => sum + r.errors, 0),
    endpoints: list,
    overall,
    failures,
  };
}
