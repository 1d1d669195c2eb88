import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readManifest, WEB_BUILD_ROOT } from '../src/web-assets/page-manifest.ts';
import { launchBrowser } from '../test/helpers/browser.ts';
import { runLists } from './admin-console-lists.ts';
import { printTable, verdict } from './lib/report.ts';
import { startTenpo } from './lib/tenpo-process.ts';

// The admin console's cost: how long the first /admin takes, what a browser downloads before the
// sign-in form can be used (the first visit: the page, the stylesheet and the entry's scripts, as
// `npm run build` bundled them) and what each screen's file adds when it is first shown, and how
// fast Chromium shows the sign-in form with an empty cache and with a warm one; then its
// reservation lists at 3,000 and 50,000 reservations on both stores (admin-console-lists.ts).

const TOKEN = 'bench-admin-token';
const RUNS = 3;
/** The first visit's budget, gzipped: the page and what it loads before the sign-in form is usable. */
const FIRST_VISIT_BUDGET = 60 * 1024;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

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
  /** A path's size as sent: as it is, and gzipped when asked for. */
  const sizes = async (path: string) => ({
    raw: (await get(tenpo.url + path)).bytes,
    gzip: (await get(tenpo.url + path, { 'accept-encoding': 'gzip' })).bytes,
  });

  const browser = await launchBrowser();
  const coldLoads: number[] = [];
  const warmLoads: number[] = [];
  const signIns: number[] = [];
  let warmRequests = 0;
  /** What Chromium asked this origin for before the sign-in form was usable, and then until the dashboard was drawn. */
  let firstVisit: string[] = [];
  let toDashboard: string[] = [];
  for (let i = 0; i < RUNS; i++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const asked: string[] = [];
    page.on('request', (request) => request.url().startsWith(tenpo.url) && asked.push(new URL(request.url()).pathname));
    coldLoads.push(await timed(() => page.goto(`${tenpo.url}/admin`).then(() => page.waitForSelector('#token'))));
    firstVisit = [...asked];
    // What reached the network, as Chromium itself reports it: answers from its caches do not count.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    const fromCache = new Set<string>();
    const answered: { id: string; fromDisk: boolean }[] = [];
    cdp.on('Network.requestServedFromCache', (event) => fromCache.add(event.requestId));
    cdp.on('Network.responseReceived', (event) => answered.push({ id: event.requestId, fromDisk: event.response.fromDiskCache ?? false }));
    warmLoads.push(await timed(() => page.goto(`${tenpo.url}/admin`).then(() => page.waitForSelector('#token'))));
    warmRequests = answered.filter((r) => !r.fromDisk && !fromCache.has(r.id)).length;
    asked.length = 0;
    await page.fill('#token', TOKEN);
    signIns.push(await timed(() => page.press('#token', 'Enter').then(() => page.waitForSelector('.cards'))));
    toDashboard = asked.filter((path) => path.startsWith('/admin/assets/'));
    await context.close();
  }
  await browser.close();

  const firstVisitFiles = await Promise.all(firstVisit.map(async (path) => ({ path, ...(await sizes(path)) })));
  const firstVisitGzip = firstVisitFiles.reduce((sum, file) => sum + file.gzip, 0);
  // Every file of the build, with the module it starts from: a screen's own code, or code screens share.
  const manifest = readManifest(join(WEB_BUILD_ROOT, 'admin'))!;
  const files = await Promise.all(
    manifest.files.map(async ({ name, holds }) => ({
      name,
      holds: holds ?? '(shared by several)',
      ...(await sizes(`/admin/assets/${name}`)),
    })),
  );
  await tenpo.stop();
  rmSync(dir, { recursive: true, force: true });

  printTable(`admin console, median of ${RUNS}`, [
    { measure: 'service cold start (spawn → /healthz 200)', value: `${Math.round(median(coldStarts))} ms` },
    { measure: 'first GET /admin', value: `${median(firstPage).toFixed(1)} ms` },
    { measure: 'next GET /admin', value: `${median(warmPage).toFixed(1)} ms` },
    {
      measure: `first visit: the page and what it loads before the sign-in form is usable (${firstVisitFiles.length} requests)`,
      value: `${kib(firstVisitFiles.reduce((sum, file) => sum + file.raw, 0))}, ${kib(firstVisitGzip)} gzipped`,
    },
    {
      measure: `signing in, then the dashboard: ${toDashboard.length} more files`,
      value: `${kib(files.filter((f) => toDashboard.includes(`/admin/assets/${f.name}`)).reduce((sum, f) => sum + f.gzip, 0))} gzipped`,
    },
    {
      measure: `the whole build (${files.length} files)`,
      value: `${kib(files.reduce((sum, f) => sum + f.raw, 0))}, ${kib(files.reduce((sum, f) => sum + f.gzip, 0))} gzipped`,
    },
    { measure: 'Chromium: sign-in form shown, empty cache', value: `${Math.round(median(coldLoads))} ms` },
    { measure: 'Chromium: sign-in form shown, warm cache', value: `${Math.round(median(warmLoads))} ms, ${warmRequests} request(s)` },
    { measure: 'Chromium: sign in → dashboard drawn', value: `${Math.round(median(signIns))} ms` },
  ]);
  printTable(
    'first visit, file by file',
    firstVisitFiles.map((file) => ({ request: file.path, bytes: file.raw, gzipped: file.gzip })),
  );
  printTable(
    'the build, file by file (what each holds: the module it starts from)',
    files
      .sort((a, b) => a.holds.localeCompare(b.holds) || b.gzip - a.gzip)
      .map((file) => ({ file: file.name, holds: file.holds, bytes: file.raw, gzipped: file.gzip })),
  );
  return [
    ...(await runLists()),
    verdict('cold start with the console mounted', median(coldStarts) < 500, `${Math.round(median(coldStarts))} ms`, '< 500 ms'),
    verdict('first GET /admin', median(firstPage) < 150, `${median(firstPage).toFixed(1)} ms`, '< 150 ms'),
    verdict('console first visit, gzipped', firstVisitGzip <= FIRST_VISIT_BUDGET, kib(firstVisitGzip), `≤ ${kib(FIRST_VISIT_BUDGET)}`),
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
