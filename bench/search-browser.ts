import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync, constants } from 'node:zlib';
import { readContentSources } from '../src/search/content-sources.ts';
import { parseContent } from '../src/search/content.ts';
import { launchBrowser } from '../test/helpers/browser.ts';
import { bundleSiteSearch } from '../test/helpers/search-browser-bundle.ts';
import { printTable, verdict } from './lib/report.ts';
import { makeQueries } from './lib/search-corpus.ts';
import { startTenpo } from './lib/tenpo-process.ts';

// tenpo/search-browser in Chromium, on the sample content (SPEC §8, issue 15's budgets):
// 1. the index file GET /api/search-index sends: raw and gzipped (as served) size;
// 2. load: a fresh browser context (empty cache) fetches the index and makes it searchable, 5 times;
// 3. each of 200 distinct queries in the page, timed one by one (the first answers, nothing cached).

const PORT = 18861;
const LOADS = 5;
const INDEX_PATH = 'build/search-index.json';

export async function run(): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tenpo-bench-search-browser-'));
  const tenpo = await startTenpo({ DATABASE_URL: `sqlite:${join(dir, 'bench.db')}` }, { port: PORT });
  const browser = await launchBrowser();
  try {
    const file = readFileSync(INDEX_PATH);
    const gzipped = gzipSync(file, { level: constants.Z_BEST_COMPRESSION }).length;
    const bundle = await bundleSiteSearch();
    const queries = makeQueries(parseContent(readContentSources('content')), 200);

    const loads: number[] = [];
    let queryTimes: number[] = [];
    for (let round = 0; round < LOADS; round++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${tenpo.url}/healthz`);
      await page.addScriptTag({ content: bundle });
      const measured = await page.evaluate(
        async ({ url, queries }) => {
          const started = performance.now();
          const search = await (window as unknown as { loadSiteSearch(url: string): Promise<{ search(q: string): unknown }> }).loadSiteSearch(url);
          const loadMs = performance.now() - started;
          const times = queries.map((q) => {
            const at = performance.now();
            search.search(q);
            return performance.now() - at;
          });
          return { loadMs, times };
        },
        { url: `${tenpo.url}/api/search-index`, queries },
      );
      loads.push(measured.loadMs);
      // Every round's page is new, so every round's queries are first answers: keep the first round's.
      if (round === 0) queryTimes = measured.times;
      await context.close();
    }

    const loadMedian = percentile(loads, 0.5);
    const loadMax = Math.max(...loads);
    const queryP50 = percentile(queryTimes, 0.5);
    const queryP99 = percentile(queryTimes, 0.99);
    printTable(`tenpo/search-browser in Chromium, sample content (${LOADS} loads in fresh contexts; ${queries.length} distinct queries)`, [
      {
        'index KB': file.length / 1024,
        'gzipped KB': gzipped / 1024,
        'load median ms': loadMedian,
        'load max ms': loadMax,
        'query p50 ms': queryP50,
        'query p99 ms': queryP99,
        'query max ms': Math.max(...queryTimes),
      },
    ]);
    return [
      verdict('search index of the sample content, gzipped', gzipped <= 150 * 1024, `${(gzipped / 1024).toFixed(1)} KB`, '≤ 150 KB'),
      verdict('search index loaded and ready in Chromium (slowest of 5, empty cache)', loadMax < 200, `${loadMax.toFixed(1)} ms`, '< 200 ms'),
      verdict(`query in Chromium, p99 of ${queries.length} distinct queries`, queryP99 < 5, `${queryP99.toFixed(2)} ms`, '< 5 ms'),
    ];
  } finally {
    await browser.close();
    await tenpo.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}
