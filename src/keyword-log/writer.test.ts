import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openDatabase, type Database } from '../db/database.ts';
import { createLogger } from '../log.ts';
import { createKeywordLogStore } from './store.ts';
import { createKeywordLogWriter } from './writer.ts';

async function openStore(): Promise<Database> {
  const dir = mkdtempSync(join(tmpdir(), 'tenpo-keyword-log-'));
  return openDatabase({ dialect: 'sqlite', path: join(dir, 'log.db') }, createLogger('silent'));
}

const entry = (keyword: string, client = '192.0.2.1') => ({ keyword, timestamp: new Date().toISOString(), resultCount: 1, client });
const EVERYTHING = { from: '2000-01-01T00:00:00.000Z', to: '2100-01-01T00:00:00.000Z', limit: 5000 };
// An interval no test lasts: every write here is caused by a full batch, flush() or close().
const NEVER = 3_600_000;

test('appending writes nothing until a batch fills, a flush or the close', async (t) => {
  const database = await openStore();
  t.after(() => database.close());
  const store = createKeywordLogStore(database, { clientSecret: 'test', suggestible: () => false });
  const writer = createKeywordLogWriter(store, createLogger('silent'), {
    batchSize: 3,
    intervalMs: NEVER,
    maxWaiting: 100,
    perClientPerMinute: 100,
    perLoopbackPeerPerMinute: 100,
  });
  writer.append(entry('a'));
  writer.append(entry('b'));
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal((await store.read(EVERYTHING)).total, 0);

  writer.append(entry('c'));
  await writer.flush();
  assert.deepEqual(writer.counts(), { queued: 3, written: 3, skipped: 0 });

  writer.append(entry('d'));
  await writer.close();
  const { logs, total } = await store.read(EVERYTHING);
  assert.equal(total, 4);
  assert.deepEqual(logs.map((l) => l.keyword).sort(), ['a', 'b', 'c', 'd']);
});

test('a failing store skips and counts entries, warns once, and recovers', async () => {
  const database = await openStore();
  const store = createKeywordLogStore(database, { clientSecret: 'test', suggestible: () => false });
  const lines: { level: number; msg: string; skipped?: number }[] = [];
  const log = createLogger('info', { write: (line: string) => lines.push(JSON.parse(line)) });
  const writer = createKeywordLogWriter(
    {
      append: (entries) => (failing ? Promise.reject(new Error('connection refused')) : store.append(entries)),
      read: store.read,
    },
    log,
    { batchSize: 10, intervalMs: NEVER, maxWaiting: 3, perClientPerMinute: 100, perLoopbackPeerPerMinute: 100 },
  );
  let failing = true;
  writer.append(entry('lost-1'));
  await writer.flush();
  writer.append(entry('lost-2'));
  await writer.flush();
  assert.deepEqual(writer.counts(), { queued: 2, written: 0, skipped: 2 });
  assert.equal(lines.filter((l) => l.level === 40).length, 1, 'one warning for the whole outage');

  // A queue that cannot drain stops growing.
  for (const keyword of ['q1', 'q2', 'q3', 'q4', 'q5']) writer.append(entry(keyword));
  assert.deepEqual(writer.counts(), { queued: 7, written: 0, skipped: 4 }, 'three wait');

  failing = false;
  await writer.flush();
  assert.deepEqual(writer.counts(), { queued: 7, written: 3, skipped: 4 });
  assert.ok(lines.some((l) => l.msg === 'keyword log writes resumed' && l.skipped === 4));
  await writer.close();
  await database.close();
});

test("one client's searches beyond its minute's share are answered but not logged; other clients are logged", async (t) => {
  const database = await openStore();
  t.after(() => database.close());
  const store = createKeywordLogStore(database, { clientSecret: 'test', suggestible: () => false });
  const writer = createKeywordLogWriter(store, createLogger('silent'), {
    batchSize: 100,
    intervalMs: NEVER,
    maxWaiting: 1000,
    perClientPerMinute: 5,
    perLoopbackPeerPerMinute: 8,
  });
  for (let i = 0; i < 50; i++) writer.append(entry(`flood-${i}`, '203.0.113.66'));
  writer.append(entry('vco', '198.51.100.1'));
  await writer.close();
  assert.deepEqual(writer.counts(), { queued: 51, written: 6, skipped: 45 });
  const { logs } = await store.read(EVERYTHING);
  assert.deepEqual(logs.map((l) => l.keyword).sort(), ['flood-0', 'flood-1', 'flood-2', 'flood-3', 'flood-4', 'vco']);
});
