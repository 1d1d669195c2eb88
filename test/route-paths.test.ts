import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { allRoutes } from '../src/app.ts';
import { DOCS_ASSETS_PREFIX } from '../src/api-reference/docs-page.ts';
import { manageUrl, unsubscribeUrl } from '../src/messaging/links.ts';
import { BROWSER_PAGES } from '../src/web-assets/pages.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';

// A URL leads to its handler: every route's path is written, whole, in the one file that declares
// the route with its handler, so a search for the path lands there. And the paths the service writes
// into what it sends (the links in emails, the reference page's assets) are ones a route serves.

let app: TestApp;
before(async () => {
  app = await startTestApp({ env: { APP_ENV: 'development' } });
});
after(() => app.close());

const SRC = join(import.meta.dirname, '..', 'src');

/** The server's source files (not tests), by their path under src/. */
function sources(): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(SRC, { recursive: true, encoding: 'utf8' }))
    if (entry.endsWith('.ts') && !entry.endsWith('.test.ts')) files.set(entry, readFileSync(join(SRC, entry), 'utf8'));
  return files;
}

test('every route’s path stands whole in the file that declares it with its handler', () => {
  const files = [...sources()];
  const astray: string[] = [];
  // A page served from the service's own browser code is declared by its definition (pages.ts),
  // where its path stands; its handler and its assets' route are the same for every page.
  const pages = Object.values(BROWSER_PAGES).flatMap((page) => [page.path, `${page.path}/assets/:file`]);
  for (const route of allRoutes(app.services)) {
    if (pages.includes(route.path)) continue;
    const declaring = files.filter(([, text]) => text.includes(`path: '${route.path}'`));
    if (declaring.length !== 1 || !/defineRoute\(|hashedFilesRoute\(/.test(declaring[0]![1]))
      astray.push(`${route.method} ${route.path}: ${declaring.map(([file]) => file).join(', ') || 'no file'}`);
  }
  assert.deepEqual(astray, []);
});

test('the links a message carries, and the reference page’s assets, are paths a route serves', () => {
  const served = new Set(allRoutes(app.services).map((route) => route.path));
  const pathOf = (url: string) => new URL(url).pathname;
  assert.ok(served.has(pathOf(manageUrl('https://shop.example', 'secret', 'res_x'))));
  assert.ok(served.has(pathOf(unsubscribeUrl('https://shop.example', 'ntf_x.mac'))));
  assert.ok(served.has(`${DOCS_ASSETS_PREFIX}:file`));
});
