import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openDatabase } from '../db/database.ts';
import { createLogger } from '../log.ts';
import { createKeywordLogStore } from './store.ts';

const entry = (keyword: string, timestamp: string) => ({ keyword, timestamp, resultCount: 1, client: '192.0.2.1' });

test('the hourly counts make totals exact at any window edge', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tenpo-keyword-log-'));
  const database = await openDatabase({ dialect: 'sqlite', path: join(dir, 'log.db') }, createLogger('silent'));
  t.after(() => database.close());
  const store = createKeywordLogStore(database, { clientSecret: 'test', suggestible: () => false });
  const times = [
    '2026-03-01T09:59:59.999Z',
    '2026-03-01T10:00:00.000Z',
    '2026-03-01T10:30:00.000Z',
    '2026-03-01T12:00:00.000Z',
    '2026-03-01T13:15:00.000Z',
    '2026-03-01T14:00:00.000Z',
  ];
  await store.append(times.slice(0, 3).map((time) => entry('x', time)));
  await store.append(times.slice(3).map((time) => entry('x', time)));
  const count = async (from: string, to: string) => (await store.read({ from, to, limit: 1 })).total;
  const expected = (from: string, to: string) => times.filter((time) => time >= from && time <= to).length;
  const edges = [
    ...times,
    '2026-03-01T00:00:00.000Z',
    '2026-03-01T10:00:00.001Z',
    '2026-03-01T11:00:00.000Z',
    '2026-03-01T13:59:59.999Z',
    '2026-03-02T00:00:00.000Z',
  ];
  for (const from of edges) {
    for (const to of edges) {
      if (from <= to) assert.equal(await count(from, to), expected(from, to), `${from} .. ${to}`);
    }
  }
});
