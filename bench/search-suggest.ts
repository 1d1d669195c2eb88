import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/log.ts';
import { startServer } from '../src/server.ts';
import { printTable, verdict } from './lib/report.ts';
import { seededRandom } from './lib/search-corpus.ts';

// GET /api/search/suggest in process (< 2 ms a request): the app's own fetch handler, no network,
// on the sample content with 5,000 distinct keywords searched with results by three clients each in
// the last 30 days (the suggester keeps the 1,000 most searched). Each of 2,000 requests completes
// another prefix (1 to 4 characters of a title, a tag or a keyword), after 200 not measured.

const KEYWORDS = 5_000;
const REQUESTS = 2_000;
const WARM_UP = 200;

export async function run(): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tenpo-bench-suggest-'));
  const config = loadConfig({
    DATABASE_URL: `sqlite:${join(dir, 'bench.db')}`,
    HOST: '127.0.0.1',
    PORT: '0',
    PREORDER_API_TOKEN: 'bench-admin-token',
    LOG_LEVEL: 'silent',
  });
  const server = await startServer(config, createLogger('silent'));
  try {
    const random = seededRandom(11);
    const documents = JSON.parse(new TextDecoder().decode(server.services.search.indexFile)) as {
      documents: { title: string; tags: string[] }[];
    };
    const words = [
      ...new Set(documents.documents.flatMap((d) => [d.title, ...d.tags]).flatMap((text) => text.split(/[\s：・、（）]+/))),
    ].filter((w) => w.length >= 2);
    const now = Date.now();
    // Each keyword (one or two of the site's words) searched by three clients: a suggestion's minimum.
    const entries = Array.from({ length: KEYWORDS }, (_, i) => {
      const keyword = i < words.length ? words[i]! : `${words[i % words.length]} ${words[Math.floor(i / words.length) % words.length]}`;
      const timestamp = new Date(now - Math.floor(random() * 29 * 24 * 3600 * 1000)).toISOString();
      return ['a', 'b', 'c'].map((client) => ({ keyword, timestamp, resultCount: 1 + (i % 7), client: `192.0.2.${client.charCodeAt(0)}` }));
    }).flat();
    for (let i = 0; i < entries.length; i += 1000) await server.services.keywordLogStore.append(entries.slice(i, i + 1000));

    const { app } = createApp(server.services);
    const prefixes = Array.from({ length: REQUESTS + WARM_UP }, () => {
      const word = words[Math.floor(random() * words.length)]!;
      return Array.from(word)
        .slice(0, 1 + Math.floor(random() * 4))
        .join('');
    });
    const times: number[] = [];
    let offered = 0;
    for (const [i, prefix] of prefixes.entries()) {
      const started = performance.now();
      const response = await app.fetch(new Request(`http://localhost/api/search/suggest?q=${encodeURIComponent(prefix)}`));
      const body = (await response.json()) as { suggestions: unknown[] };
      if (i >= WARM_UP) {
        times.push(performance.now() - started);
        offered += body.suggestions.length;
      }
    }
    times.sort((a, b) => a - b);
    const mean = times.reduce((sum, t) => sum + t, 0) / times.length;
    const p99 = times[Math.floor(times.length * 0.99)]!;
    printTable(`GET /api/search/suggest in process (app.fetch), ${REQUESTS} distinct prefixes, ${KEYWORDS} keywords in the log`, [
      {
        'mean ms': mean,
        'p50 ms': times[Math.floor(times.length / 2)]!,
        'p99 ms': p99,
        'max ms': times.at(-1)!,
        'mean suggestions': offered / REQUESTS,
      },
    ]);
    // Per request is the cost of a request on average; the p99 in the table also shows this shared
    // machine's scheduling and the collector.
    return [verdict('suggest per request in process (mean)', mean < 2, `${mean.toFixed(3)} ms`, '< 2 ms')];
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
