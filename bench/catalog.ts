import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBareServer, type RecordedResponse } from './lib/bare-server.ts';
import { compareServers } from './lib/compare.ts';
import { printTable, verdict } from './lib/report.ts';
import { startTenpo } from './lib/tenpo-process.ts';
import { createMetrics } from '../src/metrics/metrics.ts';

// GET /api/products under 50 connections, against a bare node:http server that sends the very same
// bytes: the ratio is what tenpo's routing, validation and middleware cost on the hottest path.

const QUERIES = [
  '',
  '?page=2',
  '?per_page=10',
  '?per_page=200',
  '?tag=vco',
  '?tag=vcf&tag=vca',
  '?tag=effect&page=2&per_page=5',
  '?tag=case',
  '?q=vco',
  '?q=VCO',
  `?q=${encodeURIComponent('シンセ')}`,
  `?q=${encodeURIComponent('しんせ')}`,
  `?q=${encodeURIComponent('ｼﾝｾ')}`,
  `?q=${encodeURIComponent('フィルター')}`,
  `?q=${encodeURIComponent('ディレイ リバーブ')}`,
  '?q=delay&tag=effect',
  '?q=kumo',
  `?q=${encodeURIComponent('ケース')}&tag=case`,
  '?tag=sequencer&tag=clock&per_page=20',
  '?page=99',
];

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = 3;
// Everything tenpo sends but the per-connection ones Node adds itself (Date, Connection, Keep-Alive).
const KEPT_HEADERS = ['content-type', 'content-length', 'etag', 'vary', 'access-control-expose-headers', 'x-request-id'];

/** Nanoseconds one request observation takes, over a realistic mix of routes and statuses (median of 5 runs). */
function timeRequestObservation(): number {
  const metrics = createMetrics({
    outboxBacklog: async () => ({ pending: 0, dead: 0, superseded: 0, oldestPendingAt: null }),
    deliveryAttempts: () => [],
    keywordLogCounts: () => ({ queued: 0, written: 0, skipped: 0 }),
    passwordsHashed: () => 0,
    emailEvents: () => [],
  });
  const routes = ['/api/products', '/api/search', '/api/reservation', undefined];
  const statuses = [200, 200, 200, 304, 400, 429];
  const runs: number[] = [];
  for (let run = 0; run < 6; run++) {
    const n = 500_000;
    const started = performance.now();
    for (let i = 0; i < n; i++) metrics.observeRequest(routes[i & 3], 'GET', statuses[i % 6]!, 0.0002 + (i % 13) * 0.0003);
    if (run > 0) runs.push(((performance.now() - started) * 1e6) / n); // the first warms up
  }
  return runs.sort((a, b) => a - b)[2]!;
}

export async function run(): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tenpo-bench-'));
  const tenpo = await startTenpo({ DATABASE_URL: `sqlite:${join(dir, 'bench.db')}`, LOG_LEVEL: 'info' }, { port: 18801 });
  const paths = QUERIES.map((q) => `/api/products${q}`);

  const recorded: Record<string, RecordedResponse> = {};
  for (const path of paths) {
    const response = await fetch(tenpo.url + path);
    const headers = Object.fromEntries([...response.headers].filter(([name]) => KEPT_HEADERS.includes(name)));
    recorded[path] = { status: response.status, headers, body: Buffer.from(await response.arrayBuffer()).toString('base64') };
  }
  const bare = await startBareServer(recorded, 18802);
  const requests = paths.map((path) => ({ path }));

  const { ours, baseline, ratio } = await compareServers({
    ours: tenpo.url,
    baseline: bare.url,
    requests,
    rounds: ROUNDS,
    secondsPerRound: SECONDS,
  });
  await Promise.all([tenpo.stop(), bare.stop()]);
  rmSync(dir, { recursive: true, force: true });

  printTable(`GET /api/products, ${QUERIES.length} queries, 50 connections, ${ROUNDS} alternating rounds of ${SECONDS} s (median round)`, [
    {
      server: 'tenpo',
      'req/s': Math.round(ours.requestsPerSecond),
      'p50 ms': ours.p50Ms,
      'p99 ms': ours.p99Ms,
      errors: ours.errors + ours.non2xx,
    },
    {
      server: 'bare node:http',
      'req/s': Math.round(baseline.requestsPerSecond),
      'p50 ms': baseline.p50Ms,
      'p99 ms': baseline.p99Ms,
      errors: baseline.errors + baseline.non2xx,
    },
  ]);
  // The one metric on the request path (src/metrics/request-histogram.ts): its time per request, as a
  // share of the time a request takes at the throughput just measured on one core.
  const observationNs = timeRequestObservation();
  const metricsShare = (observationNs * ours.requestsPerSecond) / 1e9;
  return [
    verdict('catalog ratio tenpo/bare (median of rounds)', ratio >= 0.8, ratio.toFixed(2), '≥ 0.80'),
    verdict(
      'request metrics, share of a catalog request',
      metricsShare < 0.02,
      `${(metricsShare * 100).toFixed(2)} % (${Math.round(observationNs)} ns an observation)`,
      '< 2 %',
    ),
    verdict('cold start (spawn → first 200 /healthz)', tenpo.coldStartMs < 500, `${Math.round(tenpo.coldStartMs)} ms`, '< 500 ms'),
  ];
}
