import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from './helpers/app.ts';

// GET /api/products over real HTTP against the started service and the sample catalog: paging,
// search, tags, their 400s, and the rules every route keeps.

const catalog = JSON.parse(readFileSync('data/products.json', 'utf8')) as { slug: string; tags: string[]; name: string }[];

let app: TestApp;
before(async () => {
  app = await startTestApp({
    env: { PRODUCTION_ORIGIN: 'https://shop.example.jp', PREVIEW_ORIGIN_PATTERN: 'https://[a-z0-9-]+\\.preview\\.shop\\.example\\.jp' },
  });
});
after(() => app.close());

async function products(query = '', init?: RequestInit) {
  return app.read('/api/products', await app.request(`/api/products${query}`, init));
}

describe('paging', () => {
  test('defaults to page 1 of 50 in the catalog order, with the full tag list', async () => {
    const body = (await products()).success();
    assert.equal(body.success, true);
    assert.equal(body.page, 1);
    assert.equal(body.total, catalog.length);
    assert.equal(body.totalPages, Math.ceil(catalog.length / 50));
    assert.deepEqual(
      body.products.map((p) => p.slug),
      catalog.slice(0, 50).map((p) => p.slug),
    );
    assert.deepEqual(body.availableTags, [...new Set(catalog.flatMap((p) => p.tags))].sort());
  });

  test('returns every product field, nullable ones as null', async () => {
    const body = (await products('?per_page=200')).success();
    for (const product of body.products) {
      assert.deepEqual(Object.keys(product), [
        'slug',
        'name',
        'subtitle',
        'brand',
        'description',
        'imgSrc',
        'detailHref',
        'tags',
        'price',
        'spec',
        'blurhash',
        'aspectRatio',
      ]);
      assert.ok('width' in product.spec);
    }
    assert.ok(body.products.some((p) => p.subtitle === null));
    assert.ok(body.products.some((p) => p.spec.width === null));
  });

  test('walks the pages without gaps or repeats', async () => {
    const seen: string[] = [];
    for (let page = 1; page <= Math.ceil(catalog.length / 7); page++) {
      const body = (await products(`?per_page=7&page=${page}`)).success();
      assert.equal(body.page, page);
      seen.push(...body.products.map((p) => p.slug));
    }
    assert.deepEqual(
      seen,
      catalog.map((p) => p.slug),
    );
  });

  test('a page below 1 reads as page 1', async () => {
    for (const page of ['0', '-3', '-0']) {
      const body = (await products(`?page=${page}&per_page=5`)).success();
      assert.equal(body.page, 1);
      assert.equal(body.products.length, 5);
    }
  });

  test('per_page above 200 reads as 200', async () => {
    const body = (await products('?per_page=100000')).success();
    assert.equal(body.products.length, Math.min(200, catalog.length));
    assert.equal(body.totalPages, 1);
  });

  test('a page past the end is empty but keeps the totals', async () => {
    const body = (await products('?page=999&per_page=10')).success();
    assert.deepEqual(body.products, []);
    assert.equal(body.total, catalog.length);
    assert.equal(body.totalPages, Math.ceil(catalog.length / 10));
    assert.equal(body.page, 999);
  });

  test('nothing matching gives total 0 and totalPages 0', async () => {
    const body = (await products('?q=zzzznotathing')).success();
    assert.deepEqual([body.products, body.total, body.totalPages, body.page], [[], 0, 0, 1]);
    assert.ok(body.availableTags.length > 0, 'availableTags does not depend on the filter');
  });
});

describe('invalid parameters', () => {
  const cases: [string, string[]][] = [
    ['?page=abc', ['page']],
    ['?page=1.5', ['page']],
    ['?page=', ['page']],
    ['?page=1e3', ['page']],
    ['?page=0x10', ['page']],
    ['?per_page=0', ['per_page']],
    ['?per_page=-1', ['per_page']],
    ['?per_page=2.5', ['per_page']],
    ['?per_page=', ['per_page']],
    ['?per_page=ten', ['per_page']],
    ['?page=1&page=2', ['page']],
    [`?q=${'あ'.repeat(201)}`, ['q']],
    [`?q=${'a'.repeat(201)}&page=x&per_page=0`, ['q', 'page', 'per_page']],
  ];
  for (const [query, fields] of cases) {
    test(`${query.slice(0, 40)} → 400 naming ${fields.join(', ')}`, async () => {
      const body = (await products(query)).failure(400);
      assert.equal(body.error, 'Invalid parameters');
      assert.deepEqual(body.details?.map((d) => d.field).sort(), [...fields].sort());
    });
  }

  test('the messages say what is expected', async () => {
    const body = (await products(`?page=x&per_page=0&q=${'b'.repeat(300)}`)).failure(400);
    const messages = Object.fromEntries(body.details?.map((d) => [d.field, d.message]) ?? []);
    assert.deepEqual(messages, {
      page: 'page must be a positive integer',
      per_page: 'per_page must be between 1 and 200',
      q: 'q must be at most 200 characters',
    });
  });

  test('q of exactly 200 characters (code points) is accepted, surrounding spaces trimmed first', async () => {
    assert.equal((await products(`?q=${encodeURIComponent(`  ${'𝄞'.repeat(200)}  `)}`)).status, 200);
  });

  test('hostile query strings are answered, never with a 500', async () => {
    const hostile = [
      '?q=%E0%A4%A',
      '?q=%',
      '?q=%ZZ&tag=%FF',
      '?__proto__=1&constructor=2&tag=__proto__',
      `?tag=${'x'.repeat(5000)}`,
      `?${Array.from({ length: 500 }, (_, i) => `tag=t${i}`).join('&')}`,
      '?q=%00%01%02',
      '?q=\u202e\u200b',
      '?page[]=1',
      '?per_page=99999999999999999999999',
    ];
    for (const query of hostile) {
      const response = await app.request(`/api/products${query}`);
      assert.ok([200, 400].includes(response.status), `${query.slice(0, 30)} → ${response.status}`);
      const answer = await app.read('/api/products', response);
      if (response.status === 200) answer.success();
      else answer.failure(400);
    }
  });
});

describe('filters', () => {
  test('several tags match any of them (OR)', async () => {
    const body = (await products('?tag=delay&tag=reverb&per_page=200')).success();
    const expected = catalog.filter((p) => p.tags.includes('delay') || p.tags.includes('reverb')).map((p) => p.slug);
    assert.ok(expected.length > 1);
    assert.deepEqual(
      body.products.map((p) => p.slug),
      expected,
    );
    assert.equal(body.total, expected.length);
  });

  test('an unknown tag matches nothing; empty tag values are ignored', async () => {
    assert.equal((await products('?tag=nope')).success().total, 0);
    assert.equal((await products('?tag=')).success().total, catalog.length);
  });

  test('q is case-insensitive and every word must match (AND)', async () => {
    const upper = (await products('?q=VCO&per_page=200')).success();
    const lower = (await products('?q=vco&per_page=200')).success();
    assert.ok(upper.total > 0);
    assert.deepEqual(upper.products, lower.products);
    const narrowed = (await products(`?q=${encodeURIComponent('vco kumo')}&per_page=200`)).success();
    assert.ok(narrowed.total > 0 && narrowed.total < upper.total);
    for (const product of narrowed.products) {
      const text = JSON.stringify([product.name, product.subtitle, product.brand, product.tags, product.description]).toLowerCase();
      assert.ok(text.includes('vco') && text.includes('kumo'), product.slug);
    }
  });

  test('width and kana forms match each other (NFKC, hiragana ≡ katakana)', async () => {
    const forms = ['シンセ', 'しんせ', 'ｼﾝｾ'];
    const results = await Promise.all(forms.map(async (q) => (await products(`?q=${encodeURIComponent(q)}&per_page=200`)).success()));
    assert.ok(results[0]!.total > 0);
    for (const result of results) assert.deepEqual(result.products, results[0]!.products);
    const fullWidth = (await products(`?q=${encodeURIComponent('ＶＣＯ')}&per_page=200`)).success();
    assert.deepEqual(fullWidth.products, (await products('?q=vco&per_page=200')).success().products);
  });

  test('a full-width space separates words too', async () => {
    const ideographic = await products(`?q=${encodeURIComponent('vco\u3000kumo')}`);
    const ascii = await products(`?q=${encodeURIComponent('vco kumo')}`);
    assert.deepEqual(ideographic.body, ascii.body);
  });

  test('tag and q combine with AND', async () => {
    const body = (await products('?tag=vco&q=kumo&per_page=200')).success();
    for (const product of body.products) assert.ok(product.tags.includes('vco'));
    assert.ok(body.total > 0);
  });
});

describe('HTTP behaviour', () => {
  test('HEAD answers like GET without a body', async () => {
    const response = await app.request('/api/products', { method: 'HEAD' });
    assert.equal(response.status, 200);
    assert.equal(await response.text(), '');
    assert.match(response.headers.get('etag') ?? '', /^".+"$/);
  });

  test('other methods get 405 with Allow', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const response = await app.request('/api/products', { method });
      assert.equal(response.status, 405);
      assert.equal(response.headers.get('allow'), 'GET, HEAD, OPTIONS');
      assert.deepEqual(await response.json(), { success: false, error: 'Method not allowed', code: 'method_not_allowed' });
    }
  });

  test('a repeated query is answered 304 when the client holds the same ETag', async () => {
    const first = await app.request('/api/products?tag=vco');
    const etag = first.headers.get('etag')!;
    const again = await app.request('/api/products?tag=vco', { headers: { 'if-none-match': etag } });
    assert.equal(again.status, 304);
    assert.equal(again.headers.get('etag'), etag);
    const other = await app.request('/api/products?tag=vcf', { headers: { 'if-none-match': etag } });
    assert.equal(other.status, 200);
  });

  test('equivalent queries share one answer', async () => {
    const a = await app.request(`/api/products?tag=vco&tag=vcf&q=${encodeURIComponent(' ＫＵＭＯ ')}`);
    const b = await app.request('/api/products?tag=vcf&tag=vco&tag=vco&q=kumo');
    assert.equal(a.headers.get('etag'), b.headers.get('etag'));
  });
});

describe('CORS allow-list', () => {
  const allowed = [
    'https://shop.example.jp',
    'https://pr-12.preview.shop.example.jp',
    'http://localhost:34434',
    'http://tenpo.localhost:34434',
  ];
  const refused = [
    'https://evil.example',
    'https://shop.example.jp.evil.example',
    'https://x.preview.shop.example.jp.evil.example',
    'http://localhost:3000',
    'https://localhost:34434',
    'null',
  ];

  for (const origin of allowed) {
    test(`echoes ${origin}`, async () => {
      const response = await app.request('/api/products?per_page=1', { headers: { origin } });
      assert.equal(response.headers.get('access-control-allow-origin'), origin);
      assert.match(response.headers.get('vary') ?? '', /Origin/);
    });
  }
  for (const origin of refused) {
    test(`sends nothing to ${origin}`, async () => {
      const response = await app.request('/api/products?per_page=1', { headers: { origin } });
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('access-control-allow-origin'), null);
    });
  }

  test('preflight answers 204 with the methods and headers allowed', async () => {
    const response = await app.request('/api/products', {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:34434', 'access-control-request-method': 'GET' },
    });
    assert.equal(response.status, 204);
    assert.equal(response.headers.get('access-control-allow-origin'), 'http://localhost:34434');
    assert.match(response.headers.get('access-control-allow-methods') ?? '', /GET/);
    assert.match(response.headers.get('access-control-allow-methods') ?? '', /OPTIONS/);
    assert.match(response.headers.get('access-control-allow-headers') ?? '', /Content-Type/);
  });
});
