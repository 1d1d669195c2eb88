import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readContentSources } from '../src/search/content-sources.ts';
import { parseContent } from '../src/search/content.ts';
import { buildSearchIndex, type SearchIndex } from '../src/search/index-fields.ts';
import { normalizeQuery, searchSite } from '../src/search/search.ts';
import { recordResponse, SEARCH_HEADERS, startBareServer, type RecordedResponse } from './lib/bare-server.ts';
import { checkouts, type Checkout } from './lib/checkouts.ts';
import { load, type LoadResult } from './lib/load.ts';
import { cpuMilliseconds } from './lib/process-cpu.ts';
import { printTable, verdict } from './lib/report.ts';
import { makeCostlyQueries, makeNewWordQueries, makeWordQueries } from './lib/search-corpus.ts';
import { startTenpo, type TenpoProcess } from './lib/tenpo-process.ts';
import { getText, median, percentile } from './lib/stats.ts';

// Search as a running shop sees it, for this checkout and the one TENPO_BENCH_BEFORE names, in the
// same rounds: 1. streams of distinct queries from 50 connections (real words, and words new to the
// process) against a bare node:http server sending the same bytes; each round starts a new service
// and warms it on other queries; both checkouts' answers compared byte for byte; 2. the costliest
// query shapes: CPU per answer, and /healthz while 8 connections send the worst (100 lone kanji and
// kana). Ports 18941-18946.

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = 3;
const STREAM = 100_000;
const BARE_ANSWERS = 20_000;
const COMPARED = 2_000;
const COSTLY_QUERIES = 300;
const PORTS = { now: 18941, before: 18942, bare: 18943, record: 18944, worst: 18945 };

export async function run(): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tenpo-bench-search-load-'));
  const verdicts: string[] = [];
  try {
    const sample = parseContent(readContentSources('content'));
    const streams = [
      { name: 'real words', queries: makeWordQueries(sample, STREAM), warmUp: makeWordQueries(sample, 20_000, 31), target: 0.4 },
      { name: 'new words', queries: makeNewWordQueries(sample, STREAM), warmUp: makeNewWordQueries(sample, 20_000, 37), target: 0.3 },
    ];
    const rows = [];
    for (const stream of streams) {
      const paths = stream.queries.map(searchPath);
      const result = await measureStream(dir, paths, stream.warmUp.map(searchPath));
      for (const [label, side] of Object.entries(result.sides)) {
        rows.push({
          stream: stream.name,
          server: label,
          'req/s': Math.round(side.load.requestsPerSecond),
          'p50 ms': side.load.p50Ms,
          'p99 ms': side.load.p99Ms,
          'CPU µs/req': Math.round(side.cpuPerRequest),
          ratio: label === 'bare' ? '' : side.ratio.toFixed(2),
          errors: side.load.errors + side.load.non2xx,
        });
      }
      const now = result.sides.now!;
      verdicts.push(
        verdict(
          `search of ${stream.name} under 50 connections, against bare`,
          now.ratio >= stream.target,
          `×${now.ratio.toFixed(2)}`,
          `≥ ${stream.target}`,
        ),
        verdict(`search of ${stream.name}, p99 under 50 connections`, now.load.p99Ms < 10, `${now.load.p99Ms} ms`, '< 10 ms'),
      );
      if (result.differing !== undefined) {
        verdicts.push(
          verdict(
            `search of ${stream.name}: answers byte-identical to before's (first ${COMPARED})`,
            result.differing === 0,
            `${result.differing} differ`,
            '0',
          ),
        );
      }
    }
    printTable(
      `GET /api/search, streams of ${STREAM.toLocaleString('en-US')} distinct queries, 50 connections, ${ROUNDS} rounds of ${SECONDS} s, each on a new process warmed on other queries; ` +
        `bare node:http sends the first ${BARE_ANSWERS.toLocaleString('en-US')} answers as tenpo sent them (median round; CPU: the server process's own per request)`,
      rows,
    );
    verdicts.push(...(await measureWorst(dir, sample)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return verdicts;
}

const searchPath = (q: string) => `/api/search?q=${encodeURIComponent(q)}`;

interface Side {
  load: LoadResult;
  cpuPerRequest: number;
  ratio: number;
}

async function measureStream(dir: string, paths: string[], warmUp: string[]) {
  const answers = new Map<string, Map<string, RecordedResponse>>();
  for (const checkout of checkouts()) {
    const tenpo = await startTenpo(
      { DATABASE_URL: `sqlite:${join(dir, `record-${checkout.label}.db`)}` },
      { port: PORTS.record, root: checkout.root },
    );
    answers.set(checkout.label, await record(tenpo, checkout.label === 'now' ? paths.slice(0, BARE_ANSWERS) : paths.slice(0, COMPARED)));
    await tenpo.stop();
  }
  const recorded = answers.get('now')!;
  const before = answers.get('before');
  const differing = before && [...before].filter(([path, answer]) => answer.body !== recorded.get(path)!.body).length;

  const bare = await startBareServer(Object.fromEntries(recorded), PORTS.bare);
  const barePaths = [...recorded.keys()].map((path) => ({ path }));
  const rounds: Record<string, { load: LoadResult; cpuPerRequest: number }[]> = {};
  const measure = async (label: string, url: string, pid: number, requests: { path: string }[]) => {
    const cpuBefore = cpuMilliseconds(pid);
    const result = await load({ url, requests, seconds: SECONDS, shared: true });
    (rounds[label] ??= []).push({ load: result, cpuPerRequest: ((cpuMilliseconds(pid) - cpuBefore) * 1000) / result.total });
  };
  const sides: (() => Promise<void>)[] = [
    ...checkouts().map((checkout: Checkout) => async () => {
      const tenpo = await startTenpo(
        { DATABASE_URL: `sqlite:${join(dir, `${checkout.label}.db`)}` },
        {
          port: PORTS[checkout.label as 'now' | 'before'],
          root: checkout.root,
        },
      );
      await load({ url: tenpo.url, requests: warmUp.map((path) => ({ path })), seconds: 2, shared: true });
      await measure(
        checkout.label,
        tenpo.url,
        tenpo.child.pid!,
        paths.map((path) => ({ path })),
      );
      await tenpo.stop();
    }),
    () => measure('bare', bare.url, bare.pid, barePaths),
  ];
  await load({ url: bare.url, requests: barePaths, seconds: 2, shared: true });
  for (let round = 0; round < ROUNDS; round++) for (const side of round % 2 === 0 ? sides : sides.toReversed()) await side();
  await bare.stop();

  const medianOf = (label: string) =>
    [...rounds[label]!].sort((a, b) => a.load.requestsPerSecond - b.load.requestsPerSecond)[Math.floor(ROUNDS / 2)]!;
  const ratio = (label: string) =>
    median(rounds[label]!.map((side, i) => side.load.requestsPerSecond / rounds.bare![i]!.load.requestsPerSecond));
  const result: Record<string, Side> = {};
  for (const label of Object.keys(rounds)) result[label] = { ...medianOf(label), ratio: label === 'bare' ? 1 : ratio(label) };
  return { sides: result, differing };
}

/** Each path's answer as tenpo sends it, asked 16 at a time. */
async function record(tenpo: TenpoProcess, paths: string[]): Promise<Map<string, RecordedResponse>> {
  const recorded = new Map<string, RecordedResponse>();
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < paths.length) {
        const path = paths[next++]!;
        recorded.set(path, await recordResponse(await fetch(tenpo.url + path), SEARCH_HEADERS));
      }
    }),
  );
  return recorded;
}

/**
 * The costliest shapes: CPU of the answering thread per whole answer in this process (30 distinct of
 * each, after 3), then for each checkout the worst shape one at a time through HTTP, and /healthz
 * probed one request at a time while 8 connections send it.
 */
async function measureWorst(dir: string, sample: ReturnType<typeof parseContent>): Promise<string[]> {
  const costRows = measureCostlyQueries(buildSearchIndex(sample), makeCostlyQueries(sample, COSTLY_QUERIES));
  const worst = Math.max(...costRows.map((row) => row['mean CPU ms']));
  printTable(
    `The costliest query shapes on the sample index, in this process: ${COSTLY_QUERIES} distinct of each, CPU per whole answer (excerpt_length 500), and the slowest answer's wall time`,
    costRows,
  );

  const worstShape = makeCostlyQueries(sample, 1_500, 17)['100 lone kanji/kana, spaced']!.map(searchPath);
  const rows = [];
  const verdicts = [verdict('costliest query shape on the sample, CPU per answer', worst <= 5, `${worst.toFixed(2)} ms`, '≤ 5 ms')];
  for (const checkout of checkouts()) {
    const tenpo = await startTenpo(
      { DATABASE_URL: `sqlite:${join(dir, `worst-${checkout.label}.db`)}` },
      { port: PORTS.worst, root: checkout.root },
    );
    const oneAtATime: number[] = [];
    for (const path of worstShape.slice(0, 300)) {
      const started = performance.now();
      await getText(tenpo.url + path);
      oneAtATime.push(performance.now() - started);
    }
    const health = await healthUnderLoad(tenpo, worstShape.slice(300));
    await tenpo.stop();
    rows.push({
      checkout: checkout.label,
      'one at a time p50 ms': percentile(oneAtATime, 0.5),
      'p99 ms': percentile(oneAtATime, 0.99),
      'max ms': percentile(oneAtATime, 1),
      '8 conn req/s': Math.round(health.loaded.requestsPerSecond),
      'server CPU ms/req': Math.round(health.cpuPerRequest * 100) / 100,
      'healthz probes': health.probes.length,
      'healthz p50 ms': percentile(health.probes, 0.5),
      'healthz p99 ms': percentile(health.probes, 0.99),
      'healthz max ms': percentile(health.probes, 1),
      errors: health.loaded.errors + health.loaded.non2xx,
    });
    if (checkout.label === 'now') {
      verdicts.push(
        verdict(
          '100 lone kanji/kana, one at a time through HTTP, p99',
          percentile(oneAtATime, 0.99) < 10,
          `${percentile(oneAtATime, 0.99)} ms`,
          '< 10 ms',
        ),
        verdict(
          '/healthz p99 while 8 connections send them',
          percentile(health.probes, 0.99) < 20,
          `${percentile(health.probes, 0.99)} ms`,
          '< 20 ms',
        ),
      );
    }
  }
  printTable(
    `Queries of 100 lone kanji/kana (distinct, none cached): 300 one at a time through HTTP, then 8 connections for ${SECONDS} s with /healthz probed one at a time`,
    rows,
  );
  return verdicts;
}

/**
 * CPU of the thread answering (not wall time: the machine is shared; not the process's, which
 * counts the collector's helper threads too) per whole answer, as a miss costs it, over distinct
 * queries of each shape after 3 not measured. The kernel counts a thread's CPU in ticks of a few
 * milliseconds, so one answer's CPU cannot be read, only the mean of many.
 */
function measureCostlyQueries(index: SearchIndex, shapes: Record<string, string[]>) {
  return Object.entries(shapes).map(([shape, queries]) => {
    for (const query of queries.slice(0, 3)) searchSite(index, normalizeQuery(query), 500);
    const measured = queries.slice(3);
    let slowest = 0;
    const started = process.threadCpuUsage();
    for (const query of measured) {
      const at = performance.now();
      searchSite(index, normalizeQuery(query), 500);
      slowest = Math.max(slowest, performance.now() - at);
    }
    const used = process.threadCpuUsage(started);
    return {
      shape,
      'mean CPU ms': Math.round((used.user + used.system) / measured.length / 10) / 100,
      'slowest wall ms': Math.round(slowest * 100) / 100,
    };
  });
}

async function healthUnderLoad(tenpo: TenpoProcess, paths: string[]) {
  let loading = true;
  const probes: number[] = [];
  const probing = (async () => {
    while (loading) {
      const started = performance.now();
      await getText(`${tenpo.url}/healthz`);
      probes.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  const cpuBefore = cpuMilliseconds(tenpo.child.pid!);
  const loaded = await load({ url: tenpo.url, requests: paths.map((path) => ({ path })), connections: 8, seconds: SECONDS, shared: true });
  const cpuPerRequest = (cpuMilliseconds(tenpo.child.pid!) - cpuBefore) / loaded.total;
  loading = false;
  await probing;
  return { loaded, cpuPerRequest, probes };
}
