import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ENDPOINTS } from 'tenpo/client';
import { ADMIN_TOKEN, startTestApp, type TestApp } from './helpers/app.ts';
import { launchBrowser } from './helpers/browser.ts';

// The package a storefront installs, as a storefront gets it: built by the build script, packed by
// `npm pack`, installed from the tarball into a project of its own with the network forbidden
// (--offline), a TypeScript program there type-checked by tsc against the installed .d.ts files,
// compiled, and run by plain Node (no type stripping at all) against the running service; and a page
// bundled by esbuild from tenpo/search-browser, searching in Chromium.

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../', import.meta.url));
const TSC = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');
const MINISEARCH = join(ROOT, 'node_modules', 'minisearch');
const NPM = { env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' } };

/** The storefront's program, a user of every kind of call: its last line printed is what it saw. */
function storefrontProgram(baseUrl: string): string {
  return `import { ApiError, createTenpoClient, ENDPOINTS, type Output, type Product, type Reservation } from 'tenpo/client';

const shop = createTenpoClient({ baseUrl: ${JSON.stringify(baseUrl)} });
const staff = createTenpoClient({ baseUrl: ${JSON.stringify(baseUrl)}, token: () => ${JSON.stringify(ADMIN_TOKEN)} });

const page = await shop.send('/api/products', { tag: ['vco'], per_page: '2' });
if (!page.ok) throw new Error('products: ' + page.body.error);
const first: Product = page.body.products[0]!;
const search: Output<'/api/search'> = await shop.call('/api/search', { q: 'シンセ' });

let refused: { status: number; fields: string[] } | undefined;
try {
  await shop.call('/api/reservation', { name: '', email: 'not-an-address', productSlug: first.slug });
} catch (error) {
  if (!(error instanceof ApiError)) throw error;
  refused = { status: error.status, fields: error.details.map((detail) => detail.field).sort() };
}
const { reservationId } = await shop.call('/api/reservation', { name: '山田 太郎', email: 'taro@example.com', productSlug: first.slug });
const listed: Reservation[] = (await staff.call('/api/admin-reservations-list', { status: 'pending' })).reservations;

/** Never called: each line must fail to type-check, or tsc reports the unused @ts-expect-error. */
export function wrongUses(): void {
  // @ts-expect-error: no such endpoint
  void shop.call('/api/no-such-endpoint');
  // @ts-expect-error: a reservation needs an email
  void shop.call('/api/reservation', { name: 'x', productSlug: 'y' });
  // @ts-expect-error: a price is a number or null
  const price: string = first.price;
  // @ts-expect-error: a reservation's status is a string (one of four, or a legacy one kept as it is)
  const status: Reservation['status'] = 4;
  void [price, status];
}

console.log(JSON.stringify({
  etag: page.headers.get('etag'),
  slugs: page.body.products.map((product) => product.slug),
  searchQuery: search.query,
  searchTitles: search.results.map((result) => result.title),
  refused,
  reservationId,
  listed: listed.map((reservation) => reservation.id),
  endpoints: Object.keys(ENDPOINTS).length,
}));
`;
}

const TSCONFIG = {
  compilerOptions: {
    target: 'es2024',
    lib: ['es2024', 'dom'],
    module: 'nodenext',
    moduleResolution: 'nodenext',
    strict: true,
    // The installed declaration files are checked too: they must stand on their own.
    skipLibCheck: false,
    types: [],
    outDir: 'out',
  },
  include: ['storefront.ts'],
};

describe('the package a storefront installs', () => {
  let app: TestApp;
  let dir: string;
  let project: string;
  let files: string[];
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tenpo-storefront-'));
    app = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '0' } });
    const built = join(dir, 'package');
    await run(process.execPath, [join(ROOT, 'scripts', 'build-packages.ts'), built], { cwd: ROOT });
    const [packed] = JSON.parse((await run('npm', ['pack', built, '--json', '--pack-destination', dir], { cwd: dir, ...NPM })).stdout) as {
      filename: string;
      files: { path: string }[];
    }[];
    files = packed!.files.map((file) => file.path).sort();
    project = join(dir, 'storefront');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'storefront', private: true, type: 'module' }));
    // The one dependency (MiniSearch) is packed from this project's own node_modules and installed beside
    // it: npm's cache may be empty (a new machine), and the network is not asked either way.
    const [dependency] = JSON.parse(
      (await run('npm', ['pack', MINISEARCH, '--json', '--pack-destination', dir], { cwd: dir, ...NPM })).stdout,
    ) as { filename: string }[];
    await run('npm', ['install', '--offline', join(dir, packed!.filename), join(dir, dependency!.filename)], { cwd: project, ...NPM });
  });
  after(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('is packed by npm, installs offline, type-checks against its own .d.ts and calls the service from plain Node', async () => {
    assert.deepEqual(
      // search-browser's modules: the search, the text it normalises, the cache of its words' matches.
      files.filter((file) => !/^(search|text)\/|^serving\/recent-cache\./.test(file)),
      [
        'client/api-types.d.ts',
        'client/endpoints.d.ts',
        'client/endpoints.js',
        'client/tenpo-client.d.ts',
        'client/tenpo-client.js',
        'package.json',
      ],
      'the client and its types, nothing of the server',
    );
    assert.deepEqual(
      readdirSync(join(project, 'node_modules')).filter((name) => !name.startsWith('.')),
      ['minisearch', 'tenpo'],
      'it brings MiniSearch only',
    );
    const installed = join(project, 'node_modules', 'tenpo');
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
    assert.deepEqual(manifest.dependencies, {
      minisearch: (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies
        .minisearch,
    });
    for (const file of ['client/tenpo-client.d.ts', 'client/endpoints.d.ts', 'client/api-types.d.ts']) {
      const declarations = readFileSync(join(installed, file), 'utf8');
      // Every module a declaration names (`from`, `import()`, `/// <reference>`) is one of the package's own.
      for (const [, specifier] of declarations.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|<reference\s+\w+\s*=\s*)['"]([^'"]+)['"]/g)) {
        assert.match(specifier!, /^\.\/[\w-]+\.js$/, `${file} refers to ${specifier}`);
      }
    }

    writeFileSync(join(project, 'storefront.ts'), storefrontProgram(app.url));
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify(TSCONFIG));
    const compiled = await run(process.execPath, [TSC, '-p', project], { cwd: project }).catch((error: { stdout: string }) =>
      assert.fail(`tsc: ${error.stdout}`),
    );
    assert.equal(compiled.stdout, '');

    const { stdout } = await run(process.execPath, ['--no-experimental-strip-types', join(project, 'out', 'storefront.js')], {
      cwd: project,
    });
    const seen = JSON.parse(stdout.trim().split('\n').at(-1)!);

    const products = await app.request('/api/products?tag=vco&per_page=2');
    assert.equal(seen.etag, products.headers.get('etag'));
    assert.deepEqual(
      seen.slugs,
      ((await products.json()) as { products: { slug: string }[] }).products.map((product) => product.slug),
    );
    assert.equal(seen.slugs.length, 2);
    const search = (await (await app.request(`/api/search?q=${encodeURIComponent('シンセ')}`)).json()) as {
      query: string;
      results: { title: string }[];
    };
    assert.equal(seen.searchQuery, 'シンセ');
    assert.deepEqual(
      seen.searchTitles,
      search.results.map((result) => result.title),
    );
    assert.ok(seen.searchTitles.length > 0);
    assert.deepEqual(seen.refused, { status: 400, fields: ['email', 'name'] });
    assert.match(seen.reservationId, /^res_[0-9a-f-]{36}$/);
    assert.deepEqual(seen.listed, [seen.reservationId], 'the admin call carried the token');
    assert.equal(seen.endpoints, Object.keys(ENDPOINTS).length);
  });

  test('tenpo/search-browser: a page bundled with esbuild from the installed package searches in Chromium as the service does', async () => {
    assert.ok(files.includes('search/site-search.js') && files.includes('search/site-search.d.ts'));
    for (const file of files.filter((name) => name.endsWith('.js'))) {
      assert.doesNotMatch(
        readFileSync(join(project, 'node_modules', 'tenpo', file), 'utf8'),
        /\bfrom\s*['"]node:|\b(?:process|Buffer)\./,
        `${file} uses Node.js`,
      );
    }
    writeFileSync(
      join(project, 'search-page.ts'),
      `import { loadSiteSearch, type SearchResponse } from 'tenpo/search-browser';
const site = await loadSiteSearch('/api/search-index');
const answer: SearchResponse = site.search(document.title, { excerptLength: 80 });
document.body.textContent = JSON.stringify(answer);
document.body.dataset.done = 'yes';
`,
    );
    writeFileSync(
      join(project, 'tsconfig.search.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'es2024',
          lib: ['es2024', 'dom'],
          module: 'esnext',
          moduleResolution: 'bundler',
          strict: true,
          skipLibCheck: false,
          types: [],
          noEmit: true,
        },
        files: ['search-page.ts'],
      }),
    );
    await run(process.execPath, [TSC, '-p', join(project, 'tsconfig.search.json')], { cwd: project }).catch((error: { stdout: string }) =>
      assert.fail(`tsc: ${error.stdout}`),
    );
    const esbuild = join(ROOT, 'node_modules', '.bin', 'esbuild');
    await run(
      esbuild,
      [
        'search-page.ts',
        '--bundle',
        '--format=esm',
        '--platform=browser',
        '--target=chrome120',
        '--outfile=search-page.js',
        '--log-level=warning',
      ],
      { cwd: project },
    );
    const bundle = readFileSync(join(project, 'search-page.js'), 'utf8');

    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(String(error)));
      await page.goto(`${app.url}/healthz`);
      await page.evaluate(() => {
        document.title = 'パッチケーブル';
      });
      await page.addScriptTag({ content: bundle, type: 'module' });
      await page.waitForSelector('body[data-done="yes"]');
      const inBrowser = await page.evaluate(() => document.body.textContent);
      const served = await (await app.request(`/api/search?q=${encodeURIComponent('パッチケーブル')}&excerpt_length=80`)).text();
      assert.equal(inBrowser, served);
      assert.ok((JSON.parse(served) as { totalResults: number }).totalResults > 0);
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  });
});
