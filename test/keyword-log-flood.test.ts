import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, startTestApp, type TestApp } from './helpers/app.ts';
import { floodableStore } from './helpers/keyword-flood.ts';

// The public keyword log read while it holds 2,000,000 entries, over real HTTP on both databases:
// 16 reads of 5,000 entries each, up to a different time each, take turns a batch at a time with
// the other long reads, so a /healthz asked after them is answered before they are (before, on
// SQLite, which answers on the event loop's own thread, the reads held it until every one of them
// was done); and a read in batches still answers every entry of the window once, newest first,
// however many share a timestamp.

const ENTRIES = 2_000_000;

for (const dialect of DIALECTS) {
  describe(`the public keyword log with ${ENTRIES.toLocaleString('en-US')} entries (${dialect})`, () => {
    let app: TestApp;
    const now = Date.now();
    before(async () => {
      app = await startTestApp({ dialect });
      const store = await floodableStore(app.env.DATABASE_URL!);
      try {
        await store.flood(ENTRIES, 30, now - 60_000);
      } finally {
        await store.close();
      }
    });
    after(() => app.close());

    test('16 reads of 5,000 entries at once: /healthz, asked after them, is answered before all but a few of them', async () => {
      const order: string[] = [];
      const reads = Array.from({ length: 16 }, async (_, i) => {
        const response = await app.request(`/api/keyword-logs?limit=5000&to=${new Date(now - i * 61_000).toISOString()}`);
        const body = (await response.json()) as { logs: unknown[] };
        assert.equal(body.logs.length, 5000);
        order.push('read');
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
      const health = app.request('/healthz').then(async (response) => {
        assert.equal(response.status, 200);
        await response.arrayBuffer();
        order.push('healthz');
      });
      await Promise.all([...reads, health]);
      const readsFirst = order.indexOf('healthz');
      assert.ok(readsFirst <= 2, `${readsFirst} of 16 reads answered before /healthz`);
    });

    test('a read in batches answers each entry of the window once, newest first, 1,200 of one timestamp among them', async () => {
      const at = new Date(now - 30_000).toISOString();
      await app.services.keywordLogStore.append(
        Array.from({ length: 1200 }, (_, i) => ({ keyword: `same time ${i}`, timestamp: at, resultCount: 1, client: '192.0.2.1' })),
      );
      const from = new Date(now - 31 * 86_400_000).toISOString();
      const response = await app.request(`/api/keyword-logs?limit=5000&from=${from}&to=${new Date(now).toISOString()}`);
      const { logs, total } = (await response.json()) as { logs: { keyword: string; timestamp: string }[]; total: number };
      assert.equal(logs.length, 5000);
      assert.equal(total, ENTRIES + 1200);
      assert.deepEqual(new Set(logs.slice(0, 1200).map((entry) => entry.keyword)).size, 1200);
      assert.ok(logs.slice(0, 1200).every((entry) => entry.timestamp === at));
      assert.ok(logs.every((entry, i) => i === 0 || logs[i - 1]!.timestamp >= entry.timestamp));
      assert.equal(new Set(logs.map((entry) => `${entry.timestamp} ${entry.keyword}`)).size, 5000, 'none twice');
    });
  });
}
