import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchBrowser } from '../test/helpers/browser.ts';
import { runLists } from './admin-console-lists.ts';
import { printTable, verdict } from './lib/report.ts';
import { startTenpo } from './lib/tenpo-process.ts';

// The admin console's cost: whether building it (type stripping at the first request) touches the
// service's cold start, how long the first /admin takes, what a browser downloads, and how fast
// Chromium shows the sign-in form with an empty cache and with a warm one; then its reservation
// lists at 3,000 and 50,000 reservations on both stores (admin-console-lists.ts).

const TOKEN = 'bench-admin-token';
const RUNS = 3;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function run(): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tenpo-bench-console-'));
  const env = { DATABASE_URL: `sqlite:${join(dir, 'bench.db')}`, LOG_LEVEL: 'warn', PREORDER_API_TOKEN: TOKEN };
  const coldStarts: number[] = [];
  const firstPage: number[] = [];
  const warmPage: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const tenpo = await startTenpo(env, { port: 18851 });
    coldStarts.push(tenpo.coldStartMs);
    firstPage.push(await timed(() => get(`${tenpo.url}/admin`)));
    warmPage.push(await timed(() => get(`${tenpo.url}/admin`)));
    await tenpo.stop();
  }

  const tenpo = await startTenpo(env, { port: 18851 });
  const html = (await get(`${tenpo.url}/admin`)).body;
  const assets = [...html.matchAll(/(?:modulepreload|stylesheet)" href="([^"]+)"/g)].map((m) => m[1]!);
  let rawBytes = 0;
  let gzipBytes = 0;
  for (const asset of assets) {
    rawBytes += (await get(tenpo.url + asset)).bytes;
    gzipBytes += (await get(tenpo.url + asset, { 'accept-encoding': 'gzip' })).bytes;
  }

  const browser = await launchBrowser();
  const coldLoads: number[] = [];
  const warmLoads: number[] = [];
  const signIns: number[] = [];
  let warmRequests = 0;
  for (let i = 0; i < RUNS; i++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    coldLoads.push(await timed(() => page.goto(`${tenpo.url}/admin`).then(() => page.waitForSelector('#token'))));
    // What reached the network, as Chromium itself reports it: answers from its caches do not count.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    const fromCache = new Set<string>();
    const answered: { id: string; fromDisk: boolean }[] = [];
    cdp.on('Network.requestServedFromCache', (event) => fromCache.add(event.requestId));
    cdp.on('Network.responseReceived', (event) => answered.push({ id: event.requestId, fromDisk: event.response.fromDiskCache ?? false }));
    warmLoads.push(await timed(() => page.goto(`${tenpo.url}/admin`).then(() => page.waitForSelector('#token'))));
    warmRequests = answered.filter((r) => !r.fromDisk && !fromCache.has(r.id)).length;
    await page.fill('#token', TOKEN);
    signIns.push(await timed(() => page.click('button[type=submit]').then(() => page.waitForSelector('.cards'))));
    await context.close();
  }
  await browser.close();
  await tenpo.stop();
  rmSync(dir, { recursive: true, force: true });

  printTable(`admin console, median of ${RUNS}`, [
    { measure: 'service cold start (spawn → /healthz 200)', value: `${Math.round(median(coldStarts))} ms` },
    { measure: 'first GET /admin (strips and hashes the modules)', value: `${median(firstPage).toFixed(1)} ms` },
    { measure: 'next GET /admin', value: `${median(warmPage).toFixed(1)} ms` },
    {
      measure: `assets (${assets.length} files: modules and stylesheet)`,
      value: `${(rawBytes / 1024).toFixed(1)} KiB, ${(gzipBytes / 1024).toFixed(1)} KiB gzipped`,
    },
    { measure: 'Chromium: sign-in form shown, empty cache', value: `${Math.round(median(coldLoads))} ms` },
    { measure: 'Chromium: sign-in form shown, warm cache', value: `${Math.round(median(warmLoads))} ms, ${warmRequests} request(s)` },
    { measure: 'Chromium: sign in → dashboard drawn', value: `${Math.round(median(signIns))} ms` },
  ]);
  return [
    ...(await runLists()),
    verdict('cold start with the console mounted', median(coldStarts) < 500, `${Math.round(median(coldStarts))} ms`, '< 500 ms'),
    verdict('first GET /admin, modules built', median(firstPage) < 150, `${median(firstPage).toFixed(1)} ms`, '< 150 ms'),
    verdict('console download, gzipped', gzipBytes < 60 * 1024, `${(gzipBytes / 1024).toFixed(1)} KiB`, '< 60 KiB'),
    verdict('sign-in form with an empty cache', median(coldLoads) < 1000, `${Math.round(median(coldLoads))} ms`, '< 1000 ms'),
    verdict('a return visit asks only for the page', warmRequests === 1, `${warmRequests} request(s)`, '1'),
  ];
}

async function timed(action: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await action();
  return performance.now() - started;
}

/** A GET with its body and the bytes that crossed the wire (compressed when asked for). */
function get(url: string, headers: Record<string, string> = {}): Promise<{ body: string; bytes: number }> {
  return new Promise((resolve, reject) => {
    request(url, { headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const bytes = Buffer.concat(chunks);
        resolve({ body: bytes.toString(), bytes: bytes.length });
      });
    })
      .on('error', reject)
      .end();
  });
}
