import fc from 'fast-check';

// Generators of what a hostile or broken client sends (fast-check arbitraries): strings with the
// characters that break naive code, JSON of any shape written by hand (so `__proto__` and repeated
// keys reach the parser as text), bytes that are not UTF-8, broken percent-escapes, odd methods and
// headers. Each is a mix of random values and fixed worst cases.

/** Characters and fragments that have broken text handling somewhere. */
const NASTY_FRAGMENTS = [
  '\u0000', // NUL: PostgreSQL text cannot hold it
  '\ud800', // lone surrogates: not valid UTF-16, not encodable as UTF-8
  '\udfff',
  '\udc00\ud800', // a pair in the wrong order
  '\u202e', // right-to-left override
  '\u200f\u0627\u0644\u0639\u0631\u0628\u064a\u0629', // RTL mark, Arabic
  '\ufeff', // byte order mark
  '\u2028\u2029', // JavaScript line terminators
  '\r\n', // header injection
  '\t',
  '🎛️', // emoji with a variation selector
  '👨‍👩‍👧', // zero-width joiner sequence
  'ｼﾝｾ', // half-width katakana
  'ア\u3099', // a combining mark (NFKC changes it)
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  '&amp;&lt;',
  "'",
  '"',
  ';',
  '--',
  '/* */',
  '%',
  '_',
  '\\',
  '${{}}',
  '__proto__',
  'constructor',
  '../../etc/passwd',
];

/** Strings a form field should survive: random Unicode mixed with the fragments above. */
export const nastyString: fc.Arbitrary<string> = fc
  .array(fc.oneof(fc.string({ unit: 'binary', maxLength: 8 }), fc.constantFrom(...NASTY_FRAGMENTS), fc.string({ maxLength: 12 })), {
    maxLength: 6,
  })
  .map((parts) => parts.join(''));

/** Keys that reach prototype machinery when code treats parsed JSON naively. */
export const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'];

/** A JSON value kept as a tree of entries, so it can be written with keys JSON.stringify would never write. */
export type JsonTree = null | boolean | number | string | JsonTree[] | { entries: [string, JsonTree][] };

/** JSON text of a tree; keys are written in order and repeats are kept. */
export function jsonText(tree: JsonTree): string {
  if (tree === null || typeof tree !== 'object') return JSON.stringify(tree) ?? 'null';
  if (Array.isArray(tree)) return `[${tree.map(jsonText).join(',')}]`;
  return `{${tree.entries.map(([key, value]) => `${JSON.stringify(key)}:${jsonText(value)}`).join(',')}}`;
}

const NUMBERS = [0, -0, 1, -1, 1.5, 2 ** 31, 2 ** 53 + 2, -(2 ** 63), 1e308, -1e308, 5e-324, 1e21];

/** Any JSON value; `keys` are the names most likely to matter (a route's fields), mixed with others. */
export function jsonTree(keys: readonly string[], plausible: fc.Arbitrary<JsonTree>): fc.Arbitrary<JsonTree> {
  const key = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...(keys.length > 0 ? keys : ['x'])) },
    { weight: 1, arbitrary: fc.constantFrom(...PROTOTYPE_KEYS) },
    { weight: 1, arbitrary: nastyString },
  );
  const leaf: fc.Arbitrary<JsonTree> = fc.oneof(
    { weight: 3, arbitrary: plausible },
    { weight: 3, arbitrary: nastyString },
    { weight: 1, arbitrary: fc.constantFrom<JsonTree>(...NUMBERS, true, false, null, '', ' ', '0', 'null', 'true', '[]', '{}') },
    { weight: 1, arbitrary: fc.double() },
    { weight: 1, arbitrary: fc.integer() },
  );
  const { tree } = fc.letrec<{ tree: JsonTree }>((tie) => ({
    tree: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      { weight: 4, arbitrary: leaf },
      { weight: 1, arbitrary: fc.array(tie('tree'), { maxLength: 4 }) },
      { weight: 1, arbitrary: fc.array(fc.tuple(key, tie('tree')), { maxLength: 5 }).map((entries) => ({ entries })) },
    ),
  }));
  return tree;
}

/** An object with some of `keys` (and others), each holding any value: the usual shape of an attack on a route's body. */
export function jsonObjectTree(keys: readonly string[], plausible: fc.Arbitrary<JsonTree>): fc.Arbitrary<JsonTree> {
  const value = fc.oneof({ weight: 2, arbitrary: plausible }, { weight: 3, arbitrary: jsonTree(keys, plausible) });
  const key = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...(keys.length > 0 ? keys : ['x'])) },
    { weight: 1, arbitrary: fc.constantFrom(...PROTOTYPE_KEYS) },
  );
  return fc.array(fc.tuple(key, value), { maxLength: 6 }).map((entries) => ({ entries }));
}

/** The body limit, to make bodies just within and just beyond it. */
const LIMIT = 64 * 1024;

/** Bodies nobody should have to think of twice, computed once: they are large. */
export const WORST_BODIES: Record<string, Buffer> = {
  empty: Buffer.alloc(0),
  'not JSON': Buffer.from('name=a&email=b'),
  'truncated JSON': Buffer.from('{"name": "a'),
  'a JSON array': Buffer.from('[{"name":"a"}]'),
  'a JSON string': Buffer.from('"{}"'),
  'JSON null': Buffer.from('null'),
  'a byte order mark': Buffer.from('\ufeff{}'),
  'UTF-16': Buffer.from('{"name":"a"}', 'utf16le'),
  'bytes that are not UTF-8': Buffer.concat([
    Buffer.from('{"name":"'),
    Buffer.from([0xff, 0xfe, 0xc0, 0x80, 0xed, 0xa0, 0x80, 0xe3, 0x81]),
    Buffer.from('","email":"a@example.com","productSlug":"kumo-vco-2"}'),
  ]),
  'escaped lone surrogates': Buffer.from('{"name":"\\ud800x\\udfff","notes":"\\udc00","email":"a@example.com","productSlug":"kumo-vco-2"}'),
  'escaped NUL': Buffer.from(
    '{"name":"a\\u0000b","notes":"\\u0000","id":"\\u0000","productSlug":"\\u0000","status":"\\u0000","email":"a\\u0000@example.com"}',
  ),
  'NUL in ids': Buffer.from('{"ids":[{"id":"res_\\u0000","productSlug":"kumo-vco-2"},{"id":"x","productSlug":"\\u0000"}]}'),
  '__proto__ and constructor keys': Buffer.from(
    '{"__proto__":{"admin":true,"status":"confirmed"},"constructor":{"prototype":{"polluted":true}},"prototype":1,"ids":{"__proto__":[]}}',
  ),
  'repeated keys': Buffer.from('{"status":"pending","status":{"$ne":null},"productSlug":"a","productSlug":["b"]}'),
  'nested 20,000 arrays deep': Buffer.from(`${'['.repeat(20_000)}${']'.repeat(20_000)}`),
  'nested 5,000 objects deep': Buffer.from(`${'{"ids":'.repeat(5_000)}1${'}'.repeat(5_000)}`),
  'ids nested 20,000 deep': Buffer.from(`{"ids":${'['.repeat(20_000)}${']'.repeat(20_000)}}`),
  'huge string within the limit': Buffer.from(
    JSON.stringify({
      name: 'あ'.repeat(20_000),
      notes: 'x'.repeat(1000),
      email: `${'a'.repeat(100)}@example.com`,
      id: 'x'.repeat(500),
      productSlug: 'kumo-vco-2',
    }),
  ),
  'a body of exactly the limit': Buffer.from(`{"name":"${'x'.repeat(LIMIT - 11)}"}`),
  'a body one byte over the limit': Buffer.from(`{"name":"${'x'.repeat(LIMIT - 10)}"}`),
  'huge string beyond the limit': Buffer.from(JSON.stringify({ name: 'x'.repeat(LIMIT + 5000) })),
  'ten thousand keys': Buffer.from(`{${Array.from({ length: 10_000 }, (_, i) => `"k${i}":0`).join(',')}}`),
  'five hundred and one ids': Buffer.from(
    JSON.stringify({ ids: Array.from({ length: 501 }, (_, i) => ({ id: `res_${i}`, productSlug: 'kumo-vco-2' })) }),
  ),
};

/** A body: mostly an object shaped like the route's own, sometimes any JSON text, sometimes a worst case. */
export function hostileBody(keys: readonly string[], plausible: fc.Arbitrary<JsonTree>): fc.Arbitrary<Buffer> {
  return fc.oneof(
    { weight: 6, arbitrary: jsonObjectTree(keys, plausible).map((tree) => Buffer.from(jsonText(tree))) },
    { weight: 1, arbitrary: jsonTree(keys, plausible).map((tree) => Buffer.from(jsonText(tree))) },
    { weight: 1, arbitrary: fc.json().map((text) => Buffer.from(text)) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)) },
    { weight: 1, arbitrary: fc.constantFrom(...Object.values(WORST_BODIES)) },
  );
}

/** Percent-encoded as a browser would, lone surrogates (which have no UTF-8) replaced. */
export const encode = (text: string) => encodeURIComponent(text.toWellFormed());

/** Percent-escapes that do not decode to UTF-8, or decode to something awkward. */
const BROKEN_ESCAPES = [
  '%',
  '%%',
  '%zz',
  '%e3%81',
  '%ff%fe',
  '%c0%80',
  '%ed%a0%80',
  '%00',
  '%0d%0a',
  '%u3042',
  '%2',
  '+%20+',
  '%25',
  '%26%3d',
];

/** A query value as written in the URL (so possibly malformed). */
export const rawQueryValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: nastyString.map(encode) },
  {
    weight: 2,
    arbitrary: fc
      .array(fc.oneof(fc.constantFrom(...BROKEN_ESCAPES), fc.string({ maxLength: 6 }).map(encode)), { maxLength: 4 })
      .map((parts) => parts.join('')),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '',
      '0',
      '-1',
      '1.5',
      '1e3',
      '0x10',
      '9'.repeat(400),
      'NaN',
      'Infinity',
      '[]',
      '2026-13-45',
      '2026-01-01T00:00:00+99:99',
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom('a'.repeat(6000), encodeURIComponent('あ'.repeat(600))) },
);

/** Query values nobody should have to think of twice, each tried on every parameter of every GET route. */
export const WORST_QUERY_VALUES = [
  '',
  '%00',
  'a%00b',
  '%ff%fe',
  '%c0%80',
  '%ed%a0%80',
  '%e3%81',
  '%',
  '%zz',
  '%0d%0aSet-Cookie:%20x=1',
  '9'.repeat(400),
  `-${'9'.repeat(400)}`,
  '1e400',
  '0x1f',
  '-0',
  '+1',
  '%201%20',
  'a'.repeat(7000),
  encode('あ'.repeat(700)),
  encode("<script>alert(1)</script>' OR '1'='1 --"),
  encode('\u202e\u200f🎛️👨‍👩‍👧'),
  encode('__proto__'),
];

/**
 * A query string (without `?`): the route's parameters and others, repeated, empty, or broken; at
 * most 8 KiB, leaving room for headers within Node's 16 KiB (past it Node answers 431, tested apart).
 */
export function hostileQuery(names: readonly string[], plausible: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const name = fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...(names.length > 0 ? names : ['x'])) },
    { weight: 1, arbitrary: fc.constantFrom(...PROTOTYPE_KEYS, '', 'q[]', 'q[0]', 'token', 'access_token', ...BROKEN_ESCAPES) },
  );
  const pair = fc.oneof(
    { weight: 4, arbitrary: fc.tuple(name, fc.oneof(plausible.map(encode), rawQueryValue)).map(([n, v]) => `${n}=${v}`) },
    { weight: 1, arbitrary: name },
    { weight: 1, arbitrary: fc.constantFrom('&', '=', '==', '&&', '=&=', '#fragment', '?') },
  );
  return fc
    .array(pair, { maxLength: 6 })
    .map((pairs) => pairs.join('&'))
    .filter((query) => query.length <= 8 * 1024);
}

/** Methods Node's HTTP parser accepts (others it answers itself with 400, tested on their own). */
export const METHODS = [
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'DELETE',
  'PATCH',
  'OPTIONS',
  'PROPFIND',
  'PURGE',
  'SEARCH',
  'QUERY',
  'TRACE',
  'LOCK',
  'MKCOL',
  'REPORT',
  'M-SEARCH',
];

/** A header value Node's client will write: latin1 without control characters. */
const headerValue = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({
    unit: fc
      .integer({ min: 0x20, max: 0xff })
      .filter((c) => c !== 0x7f)
      .map((c) => String.fromCharCode(c)),
    maxLength: 40,
  }),
);

/** Headers, repeats and all; `authorizations` are the Authorization values worth trying (the right one among them). */
export function hostileHeaders(authorizations: readonly string[]): fc.Arbitrary<[string, string][]> {
  const header: fc.Arbitrary<[string, string]> = fc.oneof(
    fc.tuple(fc.constant('Authorization'), fc.oneof(fc.constantFrom(...authorizations), headerValue)),
    fc.tuple(
      fc.constantFrom('Content-Type', 'content-type'),
      fc.oneof(
        fc.constantFrom(
          'application/json',
          'application/json; charset=utf-16',
          'application/json; charset=ebcdic',
          'text/plain',
          'text/html',
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=----x',
          'application/xml',
          '*/*',
          ';;;',
          'application/json'.repeat(500),
        ),
        headerValue,
      ),
    ),
    fc.tuple(
      fc.constant('Origin'),
      fc.oneof(
        fc.constantFrom('null', 'http://localhost:34434', 'https://evil.example', 'http://localhost:34434.evil.example'),
        headerValue,
      ),
    ),
    fc.tuple(fc.constant('If-None-Match'), fc.oneof(fc.constantFrom('*', '"x"', 'W/"x"', ', ,'), headerValue)),
    fc.tuple(fc.constant('Accept-Encoding'), fc.constantFrom('gzip', 'br', 'gzip;q=0', 'identity;q=0, *;q=0', '*', 'x'.repeat(2000))),
    fc.tuple(fc.constant('Content-Encoding'), fc.constantFrom('gzip', 'br', 'deflate', 'x')),
    fc.tuple(
      fc.constantFrom(
        'X-Request-Id',
        'X-Forwarded-For',
        'Cookie',
        'Accept',
        'Accept-Language',
        'Referer',
        'User-Agent',
        'Range',
        'X-HTTP-Method-Override',
        'Expect',
      ),
      headerValue,
    ),
    fc.tuple(fc.constantFrom('Cookie', 'X-Admin-Token', 'X-Api-Key'), fc.constantFrom(...authorizations)),
    fc.tuple(fc.constant('Expect'), fc.constantFrom('100-continue', 'something-else')),
    fc.tuple(fc.constantFrom('X-Huge', 'User-Agent', 'Cookie'), fc.constantFrom('v'.repeat(8000), 'ü'.repeat(4000))),
    fc.tuple(fc.stringMatching(/^[A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]{0,20}$/), headerValue),
  );
  return fc.array(header, { maxLength: 6 });
}
