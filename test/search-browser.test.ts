import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { buildIndexFile } from '../src/search/prebuilt-index.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { launchBrowser, recordPage, type PageRecord } from './helpers/browser.ts';
import { bundleSiteSearch } from './helpers/search-browser-bundle.ts';

// tenpo/search-browser in Chromium against GET /api/search on the same content: the
// same queries through both must give the same bodies, byte for byte once serialized.

interface SearchCase {
  q: string;
  /** As the query string carries it; the browser module gets Number() of it. */
  excerptLength?: string;
}

declare global {
  interface Window {
    loadSiteSearch(
      source: string | ArrayBuffer | Uint8Array,
    ): Promise<{ search(q: string, options?: { excerptLength?: number }): unknown }>;
    siteSearch: Awaited<ReturnType<Window['loadSiteSearch']>>;
  }
}

let app: TestApp;
let browser: Browser;
let page: Page;
let record: PageRecord;

before(async () => {
  // Every case is asked at once, each on a connection of its own, all from this machine's one address.
  app = await startTestApp({ env: { MAX_CONNECTIONS_PER_CLIENT: '0', TRUST_PROXY: 'true' } });
  browser = await launchBrowser();
  page = await browser.newPage();
  record = recordPage(page);
  // A page of the app's origin, as a storefront served beside the API in development.
  await page.goto(`${app.url}/healthz`);
  await page.addScriptTag({ content: await bundleSiteSearch() });
  await page.evaluate(async (url) => {
    window.siteSearch = await window.loadSiteSearch(url);
  }, `${app.url}/api/search-index`);
});
after(async () => {
  await browser?.close();
  await app?.close();
});

async function serverBodies(cases: SearchCase[]): Promise<string[]> {
  return Promise.all(
    cases.map(async ({ q, excerptLength }) => {
      const params = new URLSearchParams({ q, ...(excerptLength === undefined ? {} : { excerpt_length: excerptLength }) });
      const response = await app.request(`/api/search?${params}`);
      assert.equal(response.status, 200);
      return response.text();
    }),
  );
}

function browserBodies(cases: SearchCase[]): Promise<string[]> {
  return page.evaluate(
    (cases) =>
      cases.map(({ q, excerptLength }) =>
        JSON.stringify(window.siteSearch.search(q, excerptLength === undefined ? {} : { excerptLength: Number(excerptLength) })),
      ),
    cases,
  );
}

const relevanceQueries = (
  JSON.parse(readFileSync('test/fixtures/search-relevance.json', 'utf8')) as { queries: { q: string }[] }
).queries.map((c) => c.q);

test('the browser module answers every query exactly as GET /api/search', async () => {
  const { documents } = JSON.parse(await (await app.request('/api/search-index')).text()) as {
    documents: { title: string; tags: string[] }[];
  };
  const queries = [
    ...relevanceQueries,
    ...documents.map((d) => d.title),
    ...new Set(documents.flatMap((d) => d.tags)),
    '',
    '   ',
    'ｼﾝｾｻｲｻﾞｰ',
    'しんせ',
    'ＶＣＯ　フィルター',
    '<script>alert(1)</script>',
    '"quotes" & ampersands',
    '音',
    '𠮷野家',
    'x'.repeat(250),
    'wavefoldng',
    'eurorackケース',
    'a b c d e f g h i j k l m n',
    // Words with synonyms (content/synonyms.yaml), alone and with others.
    'filter',
    'VCF',
    'ADSR',
    'eg',
    'えんべろーぷ',
    'シーケンサー clock',
    'echo ディレイ',
  ];
  const cases: SearchCase[] = queries.flatMap((q, i) => [
    { q },
    { q, excerptLength: ['50', '120', '500', '9999', '12', '77.9', 'abc'][i % 7] },
  ]);
  const [server, inBrowser] = await Promise.all([serverBodies(cases), browserBodies(cases)]);
  assert.ok(cases.length > 200);
  let withResults = 0;
  for (let i = 0; i < cases.length; i++) {
    assert.equal(inBrowser[i], server[i], `q=${JSON.stringify(cases[i]!.q)} excerpt_length=${cases[i]!.excerptLength}`);
    if ((JSON.parse(server[i]!) as { totalResults: number }).totalResults > 0) withResults++;
  }
  assert.ok(withResults > cases.length / 2, `${withResults} of ${cases.length} cases found something`);
});

test('words past the tenth are ignored, on the server and in the browser; the query shows them all', async () => {
  const { documents } = JSON.parse(await (await app.request('/api/search-index')).text()) as { documents: { body: string }[] };
  const words = [...new Set(documents[0]!.body.match(/[\u30a1-\u30fa\u30fc]{3,}/g))];
  assert.ok(words.length >= 10);
  const ten = words.slice(0, 10).join(' ');
  const cases: SearchCase[] = [{ q: ten }, { q: `${ten} zzzzqqqq xxxyyy` }, { q: `${ten}   存在しない言葉です` }];
  const [server, inBrowser] = await Promise.all([serverBodies(cases), browserBodies(cases)]);
  assert.deepEqual(inBrowser, server);
  const [first, second, third] = server.map((body) => JSON.parse(body) as { results: unknown[]; query: string; totalResults: number });
  assert.ok(first!.totalResults > 0, 'the ten words find something');
  assert.deepEqual(second!.results, first!.results);
  assert.deepEqual(third!.results, first!.results);
  assert.equal(second!.query, `${ten} zzzzqqqq xxxyyy`);
  assert.equal(third!.query, `${ten} 存在しない言葉です`);
});

test('the module loads from bytes already fetched, searches without the service, and refuses what is not an index', async () => {
  const result = await page.evaluate(async (url) => {
    const bytes = await (await fetch(url)).arrayBuffer();
    const fromBuffer = await window.loadSiteSearch(bytes);
    const fromView = await window.loadSiteSearch(new Uint8Array(bytes));
    const refused = await window.loadSiteSearch(new TextEncoder().encode('{"hello":1}')).then(
      () => 'loaded',
      (error: Error) => error.message,
    );
    fromBuffer.search('ブラウザだけの検索語');
    return { buffer: JSON.stringify(fromBuffer.search('シンセ')), view: JSON.stringify(fromView.search('シンセ')), refused };
  }, `${app.url}/api/search-index`);
  const [server] = await serverBodies([{ q: 'シンセ' }]);
  assert.equal(result.buffer, server);
  assert.equal(result.view, server);
  assert.match(result.refused, /not a tenpo search index/);

  // Only the index went over the network, and nothing was logged for the browser's searches.
  const requested = record.urls.filter((url) => url.startsWith(app.url)).map((url) => new URL(url).pathname);
  assert.deepEqual([...new Set(requested)], ['/healthz', '/api/search-index'], 'the page itself, and the index');
  // From a client of its own: this file's many searches from 127.0.0.1 used up that client's share of the log.
  await app.request(`/api/search?q=${encodeURIComponent('サーバーの検索語')}`, { headers: { 'x-forwarded-for': '198.51.100.7' } });
  await app.services.keywordLog.flush();
  const logged = new Set((await app.services.database.db.selectFrom('keyword_logs').select('keyword').execute()).map((row) => row.keyword));
  assert.ok(logged.has('サーバーの検索語'));
  assert.ok(!logged.has('ブラウザだけの検索語'));
  assert.equal(record.errors.length, 0, record.errors.join('\n'));
});

test('GET /api/search-index: the prebuilt file, strong ETag, gzip when accepted, cacheable by anyone', async () => {
  const plain = await app.request('/api/search-index', { headers: { 'accept-encoding': 'identity' } });
  assert.equal(plain.status, 200);
  assert.match(plain.headers.get('content-type')!, /^application\/json/);
  assert.equal(plain.headers.get('cache-control'), 'public, max-age=300');
  assert.equal(plain.headers.get('access-control-allow-origin'), '*');
  assert.equal(plain.headers.get('vary'), 'Accept-Encoding');
  assert.equal(plain.headers.get('content-encoding'), null);
  const etag = plain.headers.get('etag')!;
  assert.match(etag, /^"[^"]+"$/, 'a strong validator');
  const bytes = Buffer.from(await plain.arrayBuffer());
  assert.deepEqual(bytes, Buffer.from((await buildIndexFile('content')).file), 'the file npm run build writes for this content');

  // fetch() would undo the gzip itself: read the raw bytes.
  const { request } = await import('node:http');
  const gzipped = await new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
    request(`${app.url}/api/search-index`, { headers: { 'accept-encoding': 'gzip, deflate' } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
  assert.equal(gzipped.headers['content-encoding'], 'gzip');
  assert.match(String(gzipped.headers.etag), /^"[^"]+"$/);
  assert.notEqual(gzipped.headers.etag, etag, 'another representation, another validator');
  assert.deepEqual(gunzipSync(gzipped.body), bytes);

  const notModified = await app.request('/api/search-index', { headers: { 'if-none-match': etag, 'accept-encoding': 'identity' } });
  assert.equal(notModified.status, 304);
  assert.equal(await notModified.text(), '');
  const head = await app.request('/api/search-index', { method: 'HEAD' });
  assert.equal(head.status, 200);
  assert.equal(await head.text(), '');
  const post = await app.request('/api/search-index', { method: 'POST' });
  assert.equal(post.status, 405);
  assert.equal(post.headers.get('allow'), 'GET, HEAD, OPTIONS');
});
