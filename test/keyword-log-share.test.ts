import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestApp, type TestApp } from './helpers/app.ts';

// With TRUST_PROXY=true every hop from a loopback or private address is believed, so a local
// process can name a new client in each X-Forwarded-For; the keyword log's share is then counted
// for the loopback peer that passed the searches on too (1,200 a minute), not only per client (120),
// so it cannot fill the public log at the rate it sends requests. Over real HTTP.

let app: TestApp;
before(async () => {
  app = await startTestApp({ env: { TRUST_PROXY: 'true' } });
});
after(() => app.close());

test('1,500 searches from this host, each naming a client of its own: 1,200 are logged', async () => {
  for (let sent = 0; sent < 1500; sent += 100)
    await Promise.all(
      Array.from({ length: 100 }, async (_, i) => {
        const n = sent + i;
        const response = await app.request('/api/search?q=VCO', { headers: { 'x-forwarded-for': `198.51.${n >> 8}.${n & 255}` } });
        assert.equal(response.status, 200);
        await response.arrayBuffer();
      }),
    );
  const { total } = (await (await app.request('/api/keyword-logs?limit=1')).json()) as { total: number };
  assert.equal(total, 1200);
});
