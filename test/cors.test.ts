import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { allRoutes } from '../src/app.ts';
import type { Route } from '../src/http/route.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { rawClient, type RawClient, type RawResponse } from './helpers/raw-http.ts';

// CORS never echoes an origin it should not: a property over random origins and
// look-alikes of the allowed ones, on every route of each policy, preflights included. Whether an
// origin is allowed is decided here independently of src/http/cors.ts, from the parsed URL.

const SEED = Number(process.env.TENPO_FC_SEED ?? 20_261_122);
const PRODUCTION = 'https://shop.example.jp';
const PREVIEW_PATTERN = 'https://[a-z0-9-]+\\.shop-preview\\.pages\\.dev';

/** The allow-list, judged from the URL: only an origin in its canonical form can match. */
function isAllowed(origin: string): boolean {
  // No origin is longer than a host name may be, whatever pattern it would match.
  if (origin.length > 253 || !URL.canParse(origin)) return false;
  const url = new URL(origin);
  if (url.origin !== origin) return false;
  if (origin === PRODUCTION) return true;
  const labels = url.hostname.split('.');
  const plain = (label: string) => /^[a-z0-9-]+$/.test(label);
  if (
    url.protocol === 'https:' &&
    url.port === '' &&
    labels.length === 4 &&
    labels.slice(1).join('.') === 'shop-preview.pages.dev' &&
    plain(labels[0]!)
  )
    return true;
  return url.protocol === 'http:' && url.port === '34434' && labels.at(-1) === 'localhost' && labels.slice(0, -1).every(plain);
}

const ALLOWED_EXAMPLES = [
  PRODUCTION,
  'https://pr-42.shop-preview.pages.dev',
  'http://localhost:34434',
  'http://dev.localhost:34434',
  'http://a.b.localhost:34434',
];

/** An allowed origin bent out of shape the ways attackers and broken clients do. */
const lookAlike: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom(...ALLOWED_EXAMPLES),
    fc.constantFrom<(origin: string) => string>(
      (o) => o,
      (o) => `${o}.evil.example`,
      (o) => `${o}evil.example`,
      (o) => `${o}/`,
      (o) => `${o}/path`,
      (o) => `${o}#`,
      (o) => `${o}?`,
      (o) => `${o}:443`,
      (o) => `${o}.`,
      (o) => `${o} `,
      (o) => `${o}, https://evil.example`,
      (o) => `${o} https://evil.example`,
      (o) => `${o}\u0000`,
      (o) => `${o}%00`,
      (o) => o.replace('://', '://evil.'),
      (o) => o.replace('://', '://evil'),
      (o) => o.replace('://', `://${'a'.repeat(200)}`),
      (o) => o.replace('://', `://${'a'.repeat(230)}`),
      (o) => o.replace('://', '://evil.example@'),
      (o) => o.replace('://', '://user:pass@'),
      (o) => o.replace(/^https:/, 'http:'),
      (o) => o.replace(/^http:/, 'https:'),
      (o) => o.replace(/^https?:/, 'ws:'),
      (o) => o.replace(/^https?:/, 'HTTP:'),
      (o) => o.toUpperCase(),
      (o) => o.replace('shop', 'SHOP'),
      (o) => o.replace('shop', 'shоp'), // Cyrillic о
      (o) => o.replace('shop', 'ｓhop'), // full-width s
      (o) => o.replace('localhost', 'localhost.evil.example'),
      (o) => o.replace('localhost', 'evillocalhost'),
      (o) => o.replace('localhost', '127.0.0.1'),
      (o) => o.replace(':34434', ':34435'),
      (o) => o.replace(':34434', ':3443'),
      (o) => o.replace(':34434', ''),
      (o) => o.replace(':34434', ':034434'),
      (o) => `${o}:8443`,
      (o) => o.replace('pr-42', 'pr_42'),
      (o) => o.replace('pr-42', 'a.b'),
      (o) => o.replace('pr-42', ''),
      (o) => o.replace('.pages.dev', '.pages.dev.evil.example'),
      (o) => o.replace('.shop-preview', '-shop-preview'),
      (o) => o.replace('.shop-preview', 'xshop-preview'),
      (o) => o.replace('example.jp', 'example.jp.evil.example'),
      (o) => o.replace('https://', 'https://evil-'),
      (o) => o.replace('://', ':///'),
      (o) => o.replace('://', ':\\\\'),
    ),
  )
  .map(([origin, bend]) => bend(origin));

/** Any origin: look-alikes, the ones that are no origin at all, and random text. */
const anyOrigin: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: lookAlike },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'null',
      '',
      '*',
      'file://',
      'https://evil.example',
      'http://localhost',
      'http://localhost:34434.',
      'https://xn--shp-qdd.example.jp',
      'https://シ.localhost:34434',
    ),
  },
  { weight: 1, arbitrary: fc.webUrl().map((url) => new URL(url).origin) },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
);

/** Header values go out as latin1: a character above U+00FF is sent as its UTF-8 bytes, as a broken client would. */
// oxlint-disable-next-line no-control-regex -- a header value cannot carry CR, LF or NUL, so they are taken out
const asSent = (text: string) => Buffer.from(text.replace(/[\r\n\u0000]/g, ''), 'utf8').toString('latin1');

describe('CORS', () => {
  let app: TestApp;
  let client: RawClient;
  let byPolicy: Map<Route['cors'], Route[]>;
  before(async () => {
    app = await startTestApp({
      env: { PRODUCTION_ORIGIN: PRODUCTION, PREVIEW_ORIGIN_PATTERN: PREVIEW_PATTERN, RATE_LIMIT_PER_MINUTE: '0' },
    });
    client = rawClient(app.url);
    byPolicy = Map.groupBy(allRoutes(app.services), (route) => route.cors);
  });
  after(async () => {
    client.close();
    await app.close();
  });

  /** The route's request (with a body for POST) and its preflight, from `origin`, or from two Origin headers. */
  async function exchanges(route: Route, origins: string[]): Promise<RawResponse[]> {
    const target = route.path.replace(/:\w+/g, 'x');
    const headers = origins.map((origin): [string, string] => ['Origin', origin]);
    return Promise.all([
      client.send({ method: route.method, target, headers, body: route.method === 'POST' ? Buffer.from('{}') : undefined }),
      client.send({
        method: 'OPTIONS',
        target,
        headers: [...headers, ['Access-Control-Request-Method', route.method], ['Access-Control-Request-Headers', 'content-type']],
      }),
    ]);
  }

  test('the public storefront routes echo an allowed origin and nothing else, preflights included', async () => {
    const publicRoutes = byPolicy.get('allow-list') ?? [];
    assert.deepEqual(publicRoutes.map((r) => `${r.method} ${r.path}`).sort(), [
      'GET /api/preorders',
      'GET /api/products',
      'POST /api/notify',
      'POST /api/reservation',
    ]);
    const seen = { allowed: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...publicRoutes.keys()), anyOrigin, async (index, origin) => {
        const sent = asSent(origin);
        // What the service receives: HTTP drops the spaces and tabs around a header value.
        const received = sent.replace(/^[ \t]+|[ \t]+$/g, '');
        for (const response of await exchanges(publicRoutes[index]!, [sent])) {
          assert.match(String(response.headers.vary), /Origin/);
          const echoed = response.headers['access-control-allow-origin'];
          if (isAllowed(received)) {
            seen.allowed += 1;
            assert.equal(echoed, received, `${received} is allowed`);
          } else {
            seen.refused += 1;
            assert.equal(echoed, undefined, `${JSON.stringify(received)} must not be echoed`);
          }
        }
      }),
      { seed: SEED, numRuns: 400 },
    );
    assert.ok(seen.allowed > 20 && seen.refused > 200, JSON.stringify(seen));
  });

  test('two Origin headers, even two allowed ones, are never echoed', async () => {
    for (const route of byPolicy.get('allow-list') ?? []) {
      for (const response of await exchanges(route, [PRODUCTION, PRODUCTION]))
        assert.equal(response.headers['access-control-allow-origin'], undefined);
      for (const response of await exchanges(route, ['https://evil.example', PRODUCTION]))
        assert.equal(response.headers['access-control-allow-origin'], undefined);
    }
  });

  test('search, the keyword log, the admin routes and the API document send * and never echo the origin', async () => {
    const anyRoutes = byPolicy.get('any') ?? [];
    assert.ok(['/api/search', '/api/keyword-logs', '/openapi.json'].every((path) => anyRoutes.some((r) => r.path === path)));
    assert.ok(
      allRoutes(app.services)
        .filter((r) => r.admin)
        .every((r) => r.cors === 'any'),
      'every admin route',
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...anyRoutes.keys()), anyOrigin, async (index, origin) => {
        for (const response of await exchanges(anyRoutes[index]!, [asSent(origin)])) {
          assert.equal(response.headers['access-control-allow-origin'], '*', `${anyRoutes[index]!.path} from ${origin}`);
          assert.equal(response.headers['access-control-allow-credentials'], undefined);
        }
      }),
      { seed: SEED, numRuns: 150 },
    );
  });

  test('the pages (health, unsubscribe, console, reference) send no CORS headers at all', async () => {
    for (const route of byPolicy.get('none') ?? []) {
      for (const response of await exchanges(route, [PRODUCTION])) {
        assert.equal(response.headers['access-control-allow-origin'], undefined, route.path);
        assert.equal(response.headers['access-control-allow-methods'], undefined, route.path);
      }
    }
  });
});
