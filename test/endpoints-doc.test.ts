import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { after, before, test } from 'node:test';
import { withRouteTables } from '../src/api-reference/endpoints-doc.ts';
import { allRoutes } from '../src/app.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';

// docs/endpoints.md is the one page a reader finds every route on: each method and path the
// service serves (development's included) is named there as `METHOD /path` (a query shown after it,
// a sibling written `…/name` after the route it shares a parent with), and nothing it names is gone.
// A route added without its line, or removed with its line left, fails here.

/** Every `METHOD /path` the page names, in the page's shorthand expanded. */
function namedRoutes(doc: string): string[] {
  const named: string[] = [];
  let last: { method: string; path: string } | undefined;
  for (const [, span] of doc.matchAll(/`([^`]+)`/g)) {
    const full = /^(GET|POST) (\/[^\s?]*)/.exec(span!);
    const sibling = /^…(\/[^\s?]+)$/.exec(span!);
    if (full) last = { method: full[1]!, path: full[2]! };
    else if (sibling && last) last = { method: last.method, path: `${posix.dirname(last.path)}${sibling[1]}` };
    else continue;
    named.push(`${last.method} ${last.path}`);
  }
  return named;
}

let app: TestApp;
before(async () => {
  app = await startTestApp({ env: { APP_ENV: 'development' } });
});
after(() => app?.close());

test('docs/endpoints.md names every route the service serves, and only those', () => {
  const named = new Set(namedRoutes(readFileSync(new URL('../docs/endpoints.md', import.meta.url), 'utf8')));
  const served = allRoutes(app.services).map((route) => `${route.method} ${route.path}`);
  assert.deepEqual(
    served.filter((route) => !named.has(route)),
    [],
    'routes the page does not name',
  );
  assert.deepEqual(
    [...named].filter((route) => !served.includes(route)),
    [],
    'routes the page names that the service does not serve',
  );
});

test('docs/endpoints.md is current: its route tables are what npm run docs:endpoints writes from the routes', () => {
  const page = readFileSync(new URL('../docs/endpoints.md', import.meta.url), 'utf8');
  assert.equal(page, withRouteTables(page, allRoutes(app.services)));
});
