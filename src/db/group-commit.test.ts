import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { sql, type Kysely } from 'kysely';
import { createLogger } from '../log.ts';
import { openDatabase, type Database } from './database.ts';
import { groupCommit } from './group-commit.ts';
import type { Tables } from './schema.ts';

// Group commit on a real SQLite file. The write is the test's own: it inserts each item into a
// table that refuses the value 'bad', so a batch holding it really fails and really rolls back.

async function open(t: TestContext): Promise<Database> {
  const dir = mkdtempSync(join(tmpdir(), 'tenpo-group-commit-'));
  const database = await openDatabase({ dialect: 'sqlite', path: join(dir, 'db.sqlite') }, createLogger('silent'));
  await sql`create table items (value text not null check (value <> 'bad'))`.execute(database.db);
  t.after(async () => {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return database;
}

/**
 * Inserts the batch one row at a time (so a bad item fails mid-batch) and answers each item's
 * position in it. The item 'slow' keeps its transaction open until release() is called.
 */
function recordingWrite() {
  const batches: string[][] = [];
  let open = 0;
  let maxOpen = 0;
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const write = async (trx: Kysely<Tables>, items: string[]) => {
    batches.push(items);
    open += 1;
    maxOpen = Math.max(maxOpen, open);
    try {
      if (items.includes('slow')) await released;
      for (const item of items) await sql`insert into items (value) values (${item})`.execute(trx);
      return items.map((item, i) => `${item}@${i}`);
    } finally {
      open -= 1;
    }
  };
  return {
    write,
    batches,
    release,
    get maxOpen() {
      return maxOpen;
    },
  };
}

const stored = async (database: Database) =>
  (await sql<{ value: string }>`select value from items order by rowid`.execute(database.db)).rows.map((row) => row.value);

test('items written in the same turn share one transaction, and each caller gets its own result', async (t) => {
  const database = await open(t);
  const recorder = recordingWrite();
  const commit = groupCommit(database, recorder.write);
  const results = await Promise.all(['a', 'b', 'c'].map((item) => commit(item)));
  assert.deepEqual(recorder.batches, [['a', 'b', 'c']]);
  assert.deepEqual(results, ['a@0', 'b@1', 'c@2']);
  assert.deepEqual(await stored(database), ['a', 'b', 'c']);
});

test('a batch holds at most maxBatch items; the rest follow in further batches', async (t) => {
  const database = await open(t);
  const recorder = recordingWrite();
  const commit = groupCommit(database, recorder.write, { maxBatch: 4 });
  const items = Array.from({ length: 10 }, (_, i) => `i${i}`);
  const results = await Promise.all(items.map((item) => commit(item)));
  assert.deepEqual(
    recorder.batches.map((batch) => batch.length),
    [4, 4, 2],
  );
  assert.deepEqual(recorder.batches.flat(), items, 'in arrival order');
  assert.deepEqual(
    results,
    items.map((item, i) => `${item}@${i % 4}`),
  );
});

test('a failed batch is tried again item by item: one bad item fails only its own caller, and nothing of the failed batch stays', async (t) => {
  const database = await open(t);
  const recorder = recordingWrite();
  const commit = groupCommit(database, recorder.write);
  const outcomes = await Promise.allSettled(['a', 'bad', 'c'].map((item) => commit(item)));
  assert.deepEqual(recorder.batches, [['a', 'bad', 'c'], ['a'], ['bad'], ['c']]);
  assert.deepEqual(
    outcomes.map((o) => (o.status === 'fulfilled' ? o.value : 'rejected')),
    ['a@0', 'rejected', 'c@0'],
  );
  const failure = outcomes[1];
  assert.ok(
    failure?.status === 'rejected' && /CHECK constraint failed/.test(String(failure.reason)),
    'the caller gets the database’s own error',
  );
  assert.deepEqual(await stored(database), ['a', 'c'], 'each good item once: the failed batch was rolled back');
});

test('a batch of one that fails is not tried again', async (t) => {
  const database = await open(t);
  const recorder = recordingWrite();
  const commit = groupCommit(database, recorder.write);
  await assert.rejects(commit('bad'), /CHECK constraint failed/);
  assert.deepEqual(recorder.batches, [['bad']]);
});

test('on SQLite one transaction at a time: items arriving while one commits wait, over several turns, and go together in the next', async (t) => {
  const database = await open(t);
  const recorder = recordingWrite();
  const commit = groupCommit(database, recorder.write);
  const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
  const pending = [commit('slow')];
  for (const item of ['x', 'y', 'z']) {
    await nextTurn();
    pending.push(commit(item));
  }
  await nextTurn();
  assert.deepEqual(recorder.batches, [['slow']], 'nothing else starts while the first transaction is open');
  recorder.release();
  await Promise.all(pending);
  assert.deepEqual(recorder.batches, [['slow'], ['x', 'y', 'z']]);
  assert.equal(recorder.maxOpen, 1);
});

test('a write that answers nothing resolves its callers with undefined', async (t) => {
  const database = await open(t);
  const commit = groupCommit<string>(database, async (trx, items) => {
    for (const item of items) await sql`insert into items (value) values (${item})`.execute(trx);
  });
  assert.deepEqual(await Promise.all([commit('a'), commit('b')]), [undefined, undefined]);
  assert.deepEqual(await stored(database), ['a', 'b']);
});

test('with gatherMs, a steady stream is written a few items a batch, batches at least gatherMs apart, in arrival order', async (t) => {
  const database = await open(t);
  const recorder = recordingWrite();
  const commit = groupCommit(database, recorder.write, { gatherMs: 40 });
  const started = performance.now();
  const items = Array.from({ length: 40 }, (_, i) => `s${i}`);
  const pending: Promise<string>[] = [];
  // One item every 2 ms, each read in its own turn, as a drop's requests are.
  for (const item of items) {
    pending.push(commit(item));
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  await Promise.all(pending);
  const rounds = Math.ceil((performance.now() - started) / 40) + 1;
  assert.ok(recorder.batches.length <= rounds, `${recorder.batches.length} batches in ${rounds} rounds of 40 ms`);
  assert.deepEqual(recorder.batches.flat(), items);
});

test('with gatherMs, an item after a quiet moment is written at once, not a gathering later', async (t) => {
  const database = await open(t);
  const recorder = recordingWrite();
  // A gathering of 5 s: an item that waited for it would take that long; one commit takes milliseconds.
  const commit = groupCommit(database, recorder.write, { gatherMs: 5_000 });
  const started = performance.now();
  assert.equal(await commit('alone'), 'alone@0');
  assert.ok(performance.now() - started < 2_500, `written after ${Math.round(performance.now() - started)} ms`);
  assert.deepEqual(recorder.batches, [['alone']]);
});
