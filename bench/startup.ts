import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { readContentSources } from '../src/search/content-sources.ts';
import { parseContent } from '../src/search/content.ts';
import { browseMix } from './lib/browse-mix.ts';
import { checkouts, startCommand, type Checkout } from './lib/checkouts.ts';
import { runMixedLoad } from './lib/mixed-load.ts';
import { printTable, verdict } from './lib/report.ts';
import { seededRandom, writeCorpus } from './lib/search-corpus.ts';
import { shopTraffic } from './lib/shop-traffic.ts';
import { startTenpo, type StartWay, type TenpoProcess } from './lib/tenpo-process.ts';
import { median } from './lib/stats.ts';
import { preciseCpuMilliseconds } from './lib/process-cpu.ts';

// The first request after a deploy, and what the service holds, for this checkout and the one
// TENPO_BENCH_BEFORE names (bench/lib/checkouts.ts), in the same run, the load beside each figure:
// 1. cold start (spawn to the first /healthz 200, median of 5) started each way an operator starts
// it (WAYS) against a bare node:http file started the same way, with the CPU each took; 2. resident
// memory after the start and after 10,000 requests of each traffic (TRAFFICS), for this checkout
// also with V8's defaults (DEFAULT_V8_FLAGS); 3. a generated site of 5,000 pages' cold start, and
// with 50,000 pages, memory after the start and after 1,000 searches, less the sample's, per page.
// Ports 18901-18904.

const PORTS = { sample: 18901, bare: 18902, corpus: 18903, large: 18904 };
const COLD_STARTS = 5;
const CORPUS_PAGES = 5_000;
const LARGE_PAGES = Number(process.env.BENCH_LARGE_PAGES ?? 50_000);
const MIXED_REQUESTS = 10_000;
/**
 * V8's own sizes in place of npm start's caps (a young generation of up to 16 MB a half, four V8
 * worker threads): what the caps save, measured beside npm start's own command for this checkout
 * (docs/performance.md, Memory). Given after npm start's flags, they win.
 */
const DEFAULT_V8_FLAGS = ['--max-semi-space-size=16', '--v8-pool-size=4'];
const TOKEN = 'bench-admin-token';

/**
 * The ways an operator starts the service, each measured against a bare node:http file started the
 * same way: npm start's command with the code V8 kept at an earlier start; the same with an empty
 * compile cache, as the first start after a release is, and every start where the cache's directory
 * does not outlive the process (the temp dir under a systemd unit with PrivateTmp); the script
 * without npm start's flags; and `npm start` itself, which spawns npm first.
 */
const WAYS: { name: string; way: StartWay; emptyCache?: boolean }[] = [
  { name: "npm start's command", way: 'command' },
  { name: "npm start's command, empty compile cache", way: 'command', emptyCache: true },
  { name: 'node build/service/main.js', way: 'node' },
  { name: 'npm start', way: 'npm' },
];

/** The two traffics memory is measured after: the shop's (the docs') and a browsing mix heavier on search. */
const TRAFFICS = [
  { name: 'shop traffic', endpoints: shopTraffic, connections: 8 },
  { name: 'browsing mix', endpoints: browseMix, connections: 10 },
];

export async function run(): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tenpo-bench-startup-'));
  const verdicts: string[] = [];
  const load = () => `load ${loadavg()[0]!.toFixed(2)}`;
  try {
    const sample = parseContent(readContentSources('content'));
    const bare = new Map<string, { ms: number; cpu: { main: number; all: number } }>();
    for (const way of WAYS) {
      const starts: { ms: number; cpu: { main: number; all: number } }[] = [];
      for (let i = 0; i < COLD_STARTS; i++) starts.push(await bareColdStart(dir, way.way, way.emptyCache));
      bare.set(way.name, {
        ms: median(starts.map((start) => start.ms)),
        cpu: { main: median(starts.map((start) => start.cpu.main)), all: median(starts.map((start) => start.cpu.all)) },
      });
    }
    const corpus = writeCorpus(join(dir, 'corpus'), sample, CORPUS_PAGES);
    const large = writeCorpus(join(dir, 'large'), sample, LARGE_PAGES);
    const startRows = [];
    const memoryRows = [];
    const largeRows = [];
    for (const checkout of checkouts()) {
      const store = `sqlite:${join(dir, `${checkout.label}.db`)}`;
      await (await startTenpo({ DATABASE_URL: store }, { port: PORTS.sample, root: checkout.root })).stop(); // migrates, keeps the code
      for (const way of WAYS) {
        const cpu: { main: number; all: number }[] = [];
        const starts = await repeat(COLD_STARTS, async () => {
          const env: Record<string, string> = way.emptyCache ? { NODE_COMPILE_CACHE: mkdtempSync(join(dir, 'compile-cache-')) } : {};
          const tenpo = await startTenpo({ DATABASE_URL: store, ...env }, { port: PORTS.sample, root: checkout.root, way: way.way });
          await tenpo.stop();
          cpu.push(tenpo.coldStartCpuMs);
          return tenpo.coldStartMs;
        });
        const coldStart = median(starts);
        const { ms: bareMs, cpu: bareCpu } = bare.get(way.name)!;
        startRows.push({
          checkout: checkout.label,
          'started by': way.name,
          'ms (median)': Math.round(coldStart),
          'every start ms': starts.map(Math.round).join(' '),
          'bare node:http ms': Math.round(bareMs),
          '× bare': (coldStart / bareMs).toFixed(2),
          'CPU ms: main thread / all (bare)':
            way.way === 'npm'
              ? 'npm’s'
              : `${Math.round(median(cpu.map((c) => c.main)))} / ${Math.round(median(cpu.map((c) => c.all)))} (${Math.round(bareCpu.main)} / ${Math.round(bareCpu.all)})`,
        });
        if (checkout.label === 'now') {
          verdicts.push(
            verdict(
              `cold start against a bare node:http file, ${way.name} (${load()})`,
              coldStart < 2 * bareMs,
              `×${(coldStart / bareMs).toFixed(2)}`,
              '< ×2',
            ),
          );
          if (way.way === 'command' && !way.emptyCache)
            verdicts.push(
              verdict(`cold start, sample, migrated SQLite (${load()})`, coldStart < 150, `${Math.round(coldStart)} ms`, '< 150 ms'),
            );
        }
      }
      const corpusIndex = buildIndex(checkout, corpus, join(dir, `${checkout.label}-corpus-index.json`));
      const corpusStart = median(
        await repeat(3, async () => {
          const tenpo = await startTenpo({ DATABASE_URL: store, ...corpusIndex }, { port: PORTS.corpus, root: checkout.root });
          await tenpo.stop();
          return tenpo.coldStartMs;
        }),
      );

      let sampleRss = 0; // after the start with npm start's command, the first traffic's
      for (const traffic of TRAFFICS) {
        for (const flags of checkout.label === 'now' ? [[], DEFAULT_V8_FLAGS] : [[]]) {
          const memory = await memoryAfterTraffic(
            checkout,
            `sqlite:${join(dir, `${checkout.label}-${memoryRows.length}.db`)}`,
            traffic,
            flags,
          );
          sampleRss ||= memory.afterStart;
          memoryRows.push({
            checkout: checkout.label,
            traffic: `${traffic.name}, ${traffic.connections} connections`,
            command: flags.length === 0 ? "npm start's" : `with ${flags.join(' ')}`,
            'RSS after start MB': mb(memory.afterStart),
            [`RSS after ${MIXED_REQUESTS} requests MB`]: mb(memory.afterTraffic),
            load: memory.load,
          });
          if (checkout.label === 'now')
            verdicts.push(
              verdict(
                `resident memory after start and ${MIXED_REQUESTS} requests of the ${traffic.name}, ${flags.length === 0 ? "npm start's command" : `with ${flags.join(' ')} (informational: docs/performance.md)`} (${memory.load})`,
                flags.length > 0 || memory.afterTraffic < 120 * 1024 * 1024,
                `${mb(memory.afterTraffic)} MB`,
                flags.length === 0 ? '< 120 MB' : 'none set',
              ),
            );
        }
      }
      const perPage = await memoryPerPage(checkout, large, join(dir, `${checkout.label}-large-index.json`), sampleRss, dir);
      largeRows.push({
        checkout: checkout.label,
        [`${CORPUS_PAGES} pages: cold start ms`]: Math.round(corpusStart),
        [`${LARGE_PAGES} pages: RSS after start MB`]: mb(perPage.afterStart),
        'after 1,000 searches MB': mb(perPage.afterSearches),
        'KB per page': Math.round(perPage.perPage / 102.4) / 10,
        'index file MB': Math.round(perPage.fileBytes / 1e5) / 10,
      });
      if (checkout.label === 'now') {
        verdicts.push(
          verdict(`cold start, ${CORPUS_PAGES} pages (${load()})`, corpusStart < 1000, `${Math.round(corpusStart)} ms`, '< 1 s'),
          verdict(
            `memory per page, ${LARGE_PAGES} pages (informational)`,
            true,
            `${(perPage.perPage / 1024).toFixed(1)} KB (${mb(perPage.afterSearches)} MB in all)`,
            'none set',
          ),
        );
      }
    }
    printTable(
      `Cold start: spawn → first 200 from /healthz, migrated SQLite, ${COLD_STARTS} starts, against a bare node:http file started the same way (${load()} at the end)`,
      startRows,
    );
    printTable(`Resident memory: after the start and after ${MIXED_REQUESTS} requests of each traffic (sample)`, memoryRows);
    printTable(`Larger sites: ${CORPUS_PAGES} generated pages' cold start (median of 3); ${LARGE_PAGES} pages' memory`, largeRows);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return verdicts;
}

/** The checkout's own build of a content directory's index (its scripts/build-search-index.ts), and the environment that uses it. */
function buildIndex(checkout: Checkout, contentDir: string, indexPath: string): { CONTENT_DIR: string; SEARCH_INDEX_PATH: string } {
  execFileSync(process.execPath, ['scripts/build-search-index.ts'], {
    cwd: checkout.root ?? process.cwd(),
    env: { PATH: process.env.PATH, CONTENT_DIR: contentDir, SEARCH_INDEX_PATH: indexPath },
    stdio: 'ignore',
  });
  return { CONTENT_DIR: contentDir, SEARCH_INDEX_PATH: indexPath };
}

async function memoryAfterTraffic(checkout: Checkout, store: string, traffic: (typeof TRAFFICS)[number], extraFlags: string[]) {
  const tenpo = await startTenpo(
    { DATABASE_URL: store, RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'warn' },
    { port: PORTS.sample, root: checkout.root, extraFlags },
  );
  try {
    await settle();
    const afterStart = rss(tenpo);
    const random = seededRandom(20260307);
    const load = `load ${loadavg()[0]!.toFixed(2)}`;
    const result = await runMixedLoad({
      url: tenpo.url,
      endpoints: traffic.endpoints(random, TOKEN),
      connections: traffic.connections,
      seconds: 600,
      requests: MIXED_REQUESTS,
      random,
    });
    if (result.errors > 0) throw new Error(`${traffic.name}: ${result.errors} errors, first: ${result.failures[0]}`);
    await settle();
    return { afterStart, afterTraffic: rss(tenpo), load };
  } finally {
    await tenpo.stop();
  }
}

async function memoryPerPage(checkout: Checkout, contentDir: string, indexPath: string, sampleRss: number, dir: string) {
  const env = buildIndex(checkout, contentDir, indexPath);
  const tenpo = await startTenpo(
    { DATABASE_URL: `sqlite:${join(dir, `${checkout.label}-large.db`)}`, ...env },
    { port: PORTS.large, root: checkout.root, readyWithinMs: 300_000 },
  );
  try {
    await settle();
    const afterStart = rss(tenpo);
    const words = ['シンセ', 'モジュール', 'filter', 'オシレーター', 'ケース', 'ディレイ', 'sequencer', '電源', 'パッチ', 'vco'];
    for (let i = 0; i < 1000; i++)
      await get(
        `${tenpo.url}/api/search?q=${encodeURIComponent(`${words[i % 10]} ${words[(i * 7) % 10]}`)}&excerpt_length=${50 + (i % 400)}`,
      );
    await settle();
    const afterSearches = rss(tenpo);
    return { afterStart, afterSearches, perPage: (afterSearches - sampleRss) / LARGE_PAGES, fileBytes: readFileSync(indexPath).length };
  } finally {
    await tenpo.stop();
  }
}

/**
 * A bare node:http server in a JavaScript file of its own (no TypeScript to strip), started `way`
 * (npm start's flags, none, or through an npm script of its own) and with an empty compile cache
 * when tenpo's is: spawn to its first answer, and the CPU it took.
 */
async function bareColdStart(dir: string, way: StartWay, emptyCache = false): Promise<{ ms: number; cpu: { main: number; all: number } }> {
  const script = join(dir, 'bare-healthz.mjs');
  writeFileSync(
    script,
    `import { createServer } from 'node:http';\ncreateServer((req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}')).listen(${PORTS.bare}, '127.0.0.1');\n`,
  );
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ private: true, scripts: { start: 'node bare-healthz.mjs' } }));
  const env = { ...process.env, ...(emptyCache ? { NODE_COMPILE_CACHE: mkdtempSync(join(dir, 'compile-cache-')) } : {}) };
  const started = performance.now();
  const child =
    way === 'npm'
      ? spawn('npm', ['start'], { cwd: dir, stdio: 'ignore', env, detached: true })
      : spawn(process.execPath, [...(way === 'command' ? startCommand().flags : []), script], { stdio: 'ignore', env, detached: true });
  try {
    while ((await status(`http://127.0.0.1:${PORTS.bare}/healthz`)) !== 200) await new Promise((resolve) => setTimeout(resolve, 2));
    const ms = performance.now() - started;
    return { ms, cpu: { main: preciseCpuMilliseconds(child.pid!, true), all: preciseCpuMilliseconds(child.pid!) } };
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-child.pid!, 'SIGTERM'); // npm and the server it spawned
    await exited;
  }
}

function status(url: string): Promise<number> {
  return new Promise((resolve) => {
    request(url, { agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    })
      .on('error', () => resolve(0))
      .end();
  });
}

async function get(url: string): Promise<void> {
  await (await fetch(url)).arrayBuffer();
}

/** Lets what the last requests left (timers, the keyword log's write) run, so memory is read at rest. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 1_500));

const rss = (tenpo: TenpoProcess) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${tenpo.child.pid}/status`, 'utf8'))![1]) * 1024;
const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

async function repeat(times: number, measure: () => Promise<number>): Promise<number[]> {
  const values: number[] = [];
  for (let i = 0; i < times; i++) values.push(await measure());
  return values;
}
