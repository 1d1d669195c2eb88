import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { allRoutes } from '../src/app.ts';
import { ADMIN_TOKEN, DIALECTS, startTestApp, type TestApp } from './helpers/app.ts';
import { rawClient, type RawClient } from './helpers/raw-http.ts';

// The admin bearer check over HTTP, on every admin route: near misses of every
// kind are refused with 401 before the body is validated or even read. That the comparison is
// constant-time is shown beside the code (src/http/admin-auth.test.ts).

const T = ADMIN_TOKEN;
const UNAUTHORIZED = { success: false, error: 'Unauthorized', code: 'unauthorized' };

/** [what, headers, query string] */
const REFUSED: [string, [string, string][], string?][] = [
  ['no Authorization', []],
  ['an empty Authorization', [['Authorization', '']]],
  ['the scheme alone', [['Authorization', 'Bearer']]],
  ['the scheme and spaces', [['Authorization', 'Bearer     ']]],
  ['whitespace for a token', [['Authorization', 'Bearer \t \t']]],
  ['the token less its last character', [['Authorization', `Bearer ${T.slice(0, -1)}`]]],
  ['the first half of the token', [['Authorization', `Bearer ${T.slice(0, T.length / 2)}`]]],
  ['its first character', [['Authorization', `Bearer ${T[0]}`]]],
  ['the token and one more character', [['Authorization', `Bearer ${T}x`]]],
  ['the token and another word', [['Authorization', `Bearer ${T} ${T}`]]],
  ['the token and a comma', [['Authorization', `Bearer ${T},`]]],
  ['the token upper-cased', [['Authorization', `Bearer ${T.toUpperCase()}`]]],
  ['the token with one letter upper-cased', [['Authorization', `Bearer ${T.replace('admin', 'Admin')}`]]],
  ['the token quoted', [['Authorization', `Bearer "${T}"`]]],
  ['the token without a scheme', [['Authorization', T]]],
  ['the token as Basic', [['Authorization', `Basic ${T}`]]],
  ['the token as Basic credentials', [['Authorization', `Basic ${Buffer.from(`admin:${T}`).toString('base64')}`]]],
  ['another scheme name', [['Authorization', `Token ${T}`]]],
  ['a colon after the scheme', [['Authorization', `Bearer:${T}`]]],
  ['no space after the scheme', [['Authorization', `Bearer${T}`]]],
  ['a tab after the scheme', [['Authorization', `Bearer\t${T}`]]],
  [
    'a second Authorization after the right one',
    [
      ['Authorization', `Bearer ${T}`],
      ['Authorization', 'Bearer wrong'],
    ],
  ],
  [
    'a second Authorization before the right one',
    [
      ['Authorization', 'Bearer wrong'],
      ['Authorization', `Bearer ${T}`],
    ],
  ],
  [
    'the right one twice',
    [
      ['Authorization', `Bearer ${T}`],
      ['authorization', `Bearer ${T}`],
    ],
  ],
  ['the token in the query string', [], `token=${T}`],
  ['the token as access_token', [], `access_token=${T}`],
  ['the header in the query string', [], `authorization=${encodeURIComponent(`Bearer ${T}`)}`],
  ['the token in a cookie', [['Cookie', `token=${T}; authorization=Bearer ${T}; adminToken=${T}`]]],
  [
    'the token in other headers',
    [
      ['X-Api-Key', T],
      ['X-Admin-Token', T],
      ['Proxy-Authorization', `Bearer ${T}`],
      ['X-Authorization', `Bearer ${T}`],
    ],
  ],
];

const ACCEPTED: [string, string][] = [
  ['the token', `Bearer ${T}`],
  ['the scheme in lower case (schemes are case-insensitive, RFC 9110 §11.1)', `bearer ${T}`],
  ['the scheme in upper case', `BEARER ${T}`],
  ['more spaces around the token', `Bearer   ${T}   `],
];

describe('the admin bearer check', () => {
  let app: TestApp;
  let client: RawClient;
  let adminRoutes: { path: string; method: 'GET' | 'POST' }[];
  before(async () => {
    app = await startTestApp();
    client = rawClient(app.url);
    adminRoutes = allRoutes(app.services)
      .filter((route) => route.admin)
      .map(({ path, method }) => ({ path, method }));
  });
  after(async () => {
    client.close();
    await app.close();
  });

  test('every admin route is covered', () => {
    assert.ok(adminRoutes.length >= 12, adminRoutes.map((route) => route.path).join(', '));
    assert.ok(
      allRoutes(app.services).every(
        (route) =>
          route.admin === ((route.path.startsWith('/api/admin') && route.path !== '/api/admin/session') || route.path === '/metrics'),
      ),
      'every /api/admin… route but the sign-in is an admin route, and GET /metrics',
    );
  });

  test('refuses every near miss with 401, before the body is validated', async () => {
    for (const { path, method } of adminRoutes) {
      for (const [what, headers, query] of REFUSED) {
        const response = await client.send({
          method,
          target: query ? `${path}?${query}` : path,
          headers: [...headers, ['Content-Type', 'application/json']],
          body: Buffer.from('{"this is": not JSON'),
        });
        assert.equal(response.status, 401, `${what} on ${path}`);
        assert.deepEqual(JSON.parse(response.body.toString()), UNAUTHORIZED, `${what} on ${path}`);
        assert.equal(response.headers['access-control-allow-origin'], '*');
      }
    }
  });

  test('lets the token in, in the forms HTTP allows', async () => {
    for (const [what, authorization] of ACCEPTED) {
      const response = await client.send({
        method: 'POST',
        target: '/api/admin-reservations-list',
        headers: [['Authorization', authorization]],
        body: Buffer.from('{}'),
      });
      assert.equal(response.status, 200, what);
    }
    // And a bad body with the right token is then judged on its merits.
    const invalid = await client.send({
      method: 'POST',
      target: '/api/admin-reservations-list',
      headers: [['Authorization', `Bearer ${T}`]],
      body: Buffer.from('['),
    });
    assert.equal(invalid.status, 400);
  });

  test('answers 401 before reading the body: a body declared but never sent, or far over 64 KiB', async () => {
    for (const { path, method } of adminRoutes) {
      for (const length of [100, 10_000_000]) {
        const status = await new Promise<number>((resolve, reject) => {
          const req = request(
            `${app.url}${path}`,
            { method, headers: { authorization: 'Bearer wrong', 'content-length': String(length) } },
            (res) => {
              resolve(res.statusCode ?? 0);
              req.destroy();
            },
          );
          req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' ? undefined : reject(error)));
          req.flushHeaders();
        });
        assert.equal(status, 401, `${path} with ${length} bytes declared and none sent`);
      }
    }
  });

  test('no presented token, right or wrong, is written to the log', () => {
    const logged = JSON.stringify(app.logs);
    assert.ok(
      app.logs.some((line) => line.status === 401),
      'the refusals were logged',
    );
    for (const secret of [T, T.slice(0, -1), T.toUpperCase(), Buffer.from(`admin:${T}`).toString('base64')])
      assert.ok(!logged.includes(secret), secret);
  });
});

// Failed admin authentications are throttled per client: past ADMIN_AUTH_FAILURES_PER_MINUTE
// in a minute, every admin request of that client gets 429 until the minute ends, the right token
// included; other clients are untouched. Clients are told apart by X-Forwarded-For behind one proxy.
for (const dialect of DIALECTS) {
  test(`after 3 failed authentications a client gets 429 with Retry-After, the right token included (${dialect})`, async () => {
    const app = await startTestApp({ dialect, env: { ADMIN_AUTH_FAILURES_PER_MINUTE: '3', TRUST_PROXY: 'true' } });
    const client = rawClient(app.url);
    try {
      const send = (from: string, token: string, target = '/api/admin-reservations-list') =>
        client.send({
          method: target === '/metrics' ? 'GET' : 'POST',
          target,
          headers: [
            ['X-Forwarded-For', from],
            ['Authorization', `Bearer ${token}`],
          ],
          body: target === '/metrics' ? undefined : Buffer.from('{}'),
        });
      // Right tokens count for nothing.
      for (let i = 0; i < 5; i++) assert.equal((await send('203.0.113.1', T)).status, 200);
      for (let i = 0; i < 3; i++) assert.equal((await send('203.0.113.1', 'wrong')).status, 401, `failure ${i + 1}`);
      for (const [token, target] of [
        [T, '/api/admin-reservations-list'],
        ['wrong', '/api/admin-reservations-list'],
        [T, '/api/admin-notify-list'],
        [T, '/metrics'],
      ]) {
        const refused = await send('203.0.113.1', token!, target);
        assert.equal(refused.status, 429, `${token === T ? 'the right' : 'a wrong'} token on ${target}`);
        assert.deepEqual(JSON.parse(refused.body.toString()), {
          success: false,
          error: 'Too many failed authentications',
          code: 'too_many_failed_authentications',
        });
        const retryAfter = Number(refused.headers['retry-after']);
        assert.ok(retryAfter >= 1 && retryAfter <= 60, String(refused.headers['retry-after']));
      }
      assert.equal((await send('203.0.113.2', T)).status, 200, 'another client is let in');
      assert.equal((await send('203.0.113.2', 'wrong')).status, 401, 'and has its own count');
      assert.equal(
        (await client.send({ method: 'GET', target: '/api/products', headers: [['X-Forwarded-For', '203.0.113.1']] })).status,
        200,
        'public routes are not throttled',
      );
    } finally {
      client.close();
      await app.close();
    }
  });
}
