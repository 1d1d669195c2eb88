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
  assert.deepEqual(await response.json(), { status: 'ok', environment: 'preview', version: packageJson.version, checks: { database: 'ok' } });
});

test('PostgreSQL stopped: 503 while it is down, 200 again once it is back, without a restart', async () => {
  const cluster = await startPostgres();
  after(() => cluster.stop());
  const app = await startTestApp({ env: { DATABASE_URL: cluster.url } });
  after(() => app.close());
  assert.equal((await app.request('/healthz')).status, 200);

  cluster.stop({ keepData: true });
  const down = await app.request('/healthz');
  assert.equal(down.status, 503);
  assert.deepEqual(await down.json(), { status: 'error', environment: 'development', version: packageJson.version, checks: { database: 'error' } });

  cluster.start();
  assert.equal((await app.request('/healthz')).status, 200);
});
