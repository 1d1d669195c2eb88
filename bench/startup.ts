import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readContentSources } from '../src/search/content-sources.ts';
import { parseContent } from '../src/search/content.ts';
import { checkouts, type Checkout } from './lib/checkouts.ts';
import { runMixedLoad } from './lib/mixed-load.ts';
import { printTable, verdict } from './lib/report.ts';
import { seededRandom, writeCorpus } from './lib/search-corpus.ts';
import { shopTraffic } from './lib/shop-traffic.ts';
import { startTenpo, type TenpoProcess } from './lib/tenpo-process.ts';
import { median } from './lib/stats.ts';
import { preciseCpuMilliseconds } from './lib/process-cpu.ts';

// The first request after a deploy, and what the service holds, for this checkout and the one
// TENPO_BENCH_BEFORE names (bench/lib/checkouts.ts), in the same run: 1. cold start (spawn to the
// first /healthz 200 of what `npm start` runs, median of 5) against a bare node:http file, with the
// CPU each took, also with a generated site of 5,000 pages; 2. resident memory after the start and
// after 10,000 requests of shop traffic (bench/lib/shop-traffic.ts), for this checkout also with
// V8's defaults (DEFAULT_V8_FLAGS); 3. with 50,000 generated pages, memory after the start and after
// 1,000 searches, less the sample's, per page. Ports 18901-18904.

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

export async function run(): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tenpo-bench-startup-'));
  const verdicts: string[] = [];
  try {
    const sample = parseContent(readContentSources('content'));
    const bareStarts: { ms: number; cpu: { main: number; all: number } }[] = [];
    for (let i = 0; i < COLD_STARTS; i++) bareStarts.push(await bareColdStart(dir));
    const bare = median(bareStarts.map((start) => start.ms));
    const bareCpu = { main: median(bareStarts.map((start) => start.cpu.main)), all: median(bareStarts.map((start) => start.cpu.all)) };
    const corpus = writeCorpus(join(dir, 'corpus'), sample, CORPUS_PAGES);
    const large = writeCorpus(join(dir, 'large'), sample, LARGE_PAGES);
    const startRows = [];
    const memoryRows = [];
    for (const checkout of checkouts()) {
      const store = `sqlite:${join(dir, `${checkout.label}.db`)}`;
      await (await startTenpo({ DATABASE_URL: store }, { port: PORTS.sample, root: checkout.root })).stop(); // migrates
      const cpu: { main: number; all: number }[] = [];
      const starts = await repeat(COLD_STARTS, async () => {
        const tenpo = await startTenpo({ DATABASE_URL: store }, { port: PORTS.sample, root: checkout.root });
        await tenpo.stop();
        cpu.push(tenpo.coldStartCpuMs);
        return tenpo.coldStartMs;
      });
      const corpusIndex = buildIndex(checkout, corpus, join(dir, `${checkout.label}-corpus-index.json`));
      const corpusStarts = await repeat(3, async () => {
        const tenpo = await startTenpo({ DATABASE_URL: store, ...corpusIndex }, { port: PORTS.corpus, root: checkout.root });
        await tenpo.stop();
        return tenpo.coldStartMs;
      });
      const coldStart = median(starts);
      const corpusStart = median(corpusStarts);
      startRows.push({
        checkout: checkout.label,
        'sample ms (median)': Math.round(coldStart),
        'every start ms': starts.map(Math.round).join(' '),
        'bare node:http ms': Math.round(bare),
        '× bare': (coldStart / bare).toFixed(2),
        'CPU ms: main thread / all': `${Math.round(median(cpu.map((c) => c.main)))} / ${Math.round(median(cpu.map((c) => c.all)))}`,
        'bare CPU ms': `${Math.round(bareCpu.main)} / ${Math.round(bareCpu.all)}`,
        [`${CORPUS_PAGES} pages ms`]: Math.round(corpusStart),
      });

      const memory = await memoryAfterTraffic(checkout, `sqlite:${join(dir, `${checkout.label}-traffic.db`)}`);
      const uncapped =
        checkout.label === 'now'
          ? await memoryAfterTraffic(checkout, `sqlite:${join(dir, 'uncapped-traffic.db')}`, DEFAULT_V8_FLAGS)
          : undefined;
      const perPage = await memoryPerPage(checkout, large, join(dir, `${checkout.label}-large-index.json`), memory.afterStart, dir);
      memoryRows.push({
        checkout: checkout.label,
        'RSS after start MB': mb(memory.afterStart),
        [`RSS after ${MIXED_REQUESTS} requests MB`]: mb(memory.afterTraffic),
        [`with ${DEFAULT_V8_FLAGS.join(' ')}: MB after start / after`]: uncapped
          ? `${mb(uncapped.afterStart)} / ${mb(uncapped.afterTraffic)}`
          : '',
        [`${LARGE_PAGES} pages: RSS after start MB`]: mb(perPage.afterStart),
        'after 1,000 searches MB': mb(perPage.afterSearches),
        'KB per page': Math.round(perPage.perPage / 102.4) / 10,
        'index file MB': Math.round(perPage.fileBytes / 1e5) / 10,
      });
      if (checkout.label === 'now') {
        verdicts.push(
          verdict('cold start, sample, migrated SQLite', coldStart < 150, `${Math.round(coldStart)} ms`, '< 150 ms'),
          verdict('cold start against a bare node:http file', coldStart < 3 * bare, `×${(coldStart / bare).toFixed(2)}`, '< ×3'),
          verdict(`cold start, ${CORPUS_PAGES} pages`, corpusStart < 1000, `${Math.round(corpusStart)} ms`, '< 1 s'),
          verdict(
            `resident memory after start and ${MIXED_REQUESTS} mixed requests, sample`,
            memory.afterTraffic < 120 * 1024 * 1024,
            `${mb(memory.afterTraffic)} MB`,
            '< 120 MB',
          ),
          verdict(
            `the same with ${DEFAULT_V8_FLAGS.join(' ')} (informational: docs/performance.md)`,
            true,
            `${mb(uncapped!.afterTraffic)} MB`,
            'none set',
          ),
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
      `Cold start: spawn of what npm start runs → first 200 from /healthz, migrated SQLite, ${COLD_STARTS} starts (${CORPUS_PAGES} pages: 3), against a bare node:http file`,
      startRows,
    );
    printTable(
      `Resident memory: after the start and after ${MIXED_REQUESTS} requests of shop traffic (sample); a site of ${LARGE_PAGES} generated pages, per page beyond the sample`,
      memoryRows,
    );
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

async function memoryAfterTraffic(checkout: Checkout, store: string, extraFlags: string[] = []) {
  const tenpo = await startTenpo(
    { DATABASE_URL: store, RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'warn' },
    { port: PORTS.sample, root: checkout.root, extraFlags },
  );
  try {
    await settle();
    const afterStart = rss(tenpo);
    const random = seededRandom(20260307);
    await runMixedLoad({
      url: tenpo.url,
      endpoints: shopTraffic(random, TOKEN),
      connections: 8,
      seconds: 600,
      requests: MIXED_REQUESTS,
      random,
    });
    await settle();
    return { afterStart, afterTraffic: rss(tenpo) };
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

/** A bare node:http server in a JavaScript file of its own (no TypeScript to strip), spawn to its first answer, and the CPU it took. */
async function bareColdStart(dir: string): Promise<{ ms: number; cpu: { main: number; all: number } }> {
  const script = join(dir, 'bare-healthz.mjs');
  writeFileSync(
    script,
    `import { createServer } from 'node:http';\ncreateServer((req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}')).listen(${PORTS.bare}, '127.0.0.1');\n`,
  );
  const started = performance.now();
  const child = spawn(process.execPath, [script], { stdio: 'ignore' });
  try {
    while ((await status(`http://127.0.0.1:${PORTS.bare}/healthz`)) !== 200) await new Promise((resolve) => setTimeout(resolve, 2));
    const ms = performance.now() - started;
    return { ms, cpu: { main: preciseCpuMilliseconds(child.pid!, true), all: preciseCpuMilliseconds(child.pid!) } };
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
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
