import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import packageJson from '../package.json' with { type: 'json' };
import { startTestApp } from './helpers/app.ts';
import { startPostgres } from './helpers/postgres.ts';

test('healthy: 200 with the environment, version and store check', async () => {
  const app = await startTestApp({ env: { APP_ENV: 'preview', PREORDER_API_TOKEN: 'x' } });
  after(() => app.close());
  const response = await app.request('/healthz');
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('cache-control'), 'no-store');
  assert.deepEqual(await response.json(), {
    status: 'ok',
    environment: 'preview',
    version: packageJson.version,
    checks: { database: 'ok' },
  });
});

test('PostgreSQL stopped: 503 while it is down, 200 again once it is back, without a restart', async () => {
  const cluster = await startPostgres();
  after(() => cluster.stop());
  const app = await startTestApp({ env: { DATABASE_URL: cluster.url } });
  after(() => app.close());
  assert.equal((await app.request('/healthz')).status, 200);

  await cluster.pause();
  const down = await app.request('/healthz');
  assert.equal(down.status, 503);
  assert.deepEqual(await down.json(), {
    status: 'error',
    environment: 'development',
    version: packageJson.version,
    checks: { database: 'error' },
  });

  for (const probe of ['/livez', '/readyz']) {
    const answer = await app.request(probe);
    assert.deepEqual(
      [probe, answer.status, await answer.json()],
      [probe, 200, { status: 'ok' }],
      'an outage is no reason to restart or to pull every instance',
    );
  }

  await cluster.resume();
  assert.equal((await app.request('/healthz')).status, 200);
});

test('/livez and /readyz answer 200 {status: ok}, uncached', async () => {
  const app = await startTestApp();
  after(() => app.close());
  for (const probe of ['/livez', '/readyz']) {
    const answer = await app.request(probe);
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get('cache-control'), 'no-store');
    assert.deepEqual(await answer.json(), { status: 'ok' });
  }
});

test('a stop turns /readyz to 503 first and keeps serving for the drain delay, then closes', async () => {
  const app = await startTestApp({ env: { SHUTDOWN_DRAIN_SECONDS: '1' } });
  const started = Date.now();
  const closed = app.close();
  const readyz = await app.request('/readyz');
  assert.deepEqual([readyz.status, await readyz.json()], [503, { status: 'draining' }]);
  assert.equal((await app.request('/livez')).status, 200, 'draining is not dead');
  assert.equal((await app.request('/healthz')).status, 200);
  assert.equal((await app.request('/api/products')).status, 200, 'requests are still served');
  await closed;
  assert.ok(Date.now() - started >= 1000, 'closed after the drain delay');
  await assert.rejects(app.request('/livez'), 'the listener is closed');
});
