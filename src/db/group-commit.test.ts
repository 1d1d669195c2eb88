import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { sql, type Kysely } from 'kysely';
import { DIALECTS, freshTarget, type Dialect } from '../../test/helpers/dialects.ts';
import { createLogger } from '../log.ts';
import { openDatabase, type Database } from './database.ts';
import { groupCommit, type Work } from './group-commit.ts';
import type { Tables } from './schema.ts';

// Group commit on real stores. Each unit of work is the test's own: it inserts its value into a
// table that refuses 'bad', so a transaction holding it really fails and really rolls back, and it
// notes the transaction it ran in, so which works shared one is seen, not assumed.

/** Works that insert their value and answer it with their place in their transaction. */
function recorder() {
  const transactions: string[][] = [];
  const seen = new Map<Kysely<Tables>, string[]>();
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const work =
    (value: string): Work<string> =>
    async (trx) => {
      let values = seen.get(trx);
      if (!values) {
        seen.set(trx, (values = []));
        transactions.push(values);
      }
      values.push(value);
      // 'slow' keeps its transaction open until release() is called.
      if (value === 'slow') await released;
      await sql`insert into items (value) values (${value})`.execute(trx);
      return `${value}@${values.length - 1}`;
    };
  return { work, transactions, release };
}

for (const dialect of DIALECTS) {
  describe(`group commit (${dialect})`, () => {
    const opened: Database[] = [];
    after(() => Promise.all(opened.map((database) => database.close())));

    async function open(on: Dialect = dialect, target?: Awaited<ReturnType<typeof freshTarget>>) {
      const database = await openDatabase(target ?? (await freshTarget(on)), createLogger('silent'));
      opened.push(database);
      if (!target) await sql`create table items (value text not null check (value <> 'bad'))`.execute(database.db);
      return database;
    }
    const stored = async (database: Database) =>
      (await sql<{ value: string }>`select value from items`.execute(database.db)).rows.map((row) => row.value).sort();

    test('works asked for in the same turn share one transaction, in arrival order, each caller getting its own result', async () => {
      const database = await open();
      const r = recorder();
      const run = groupCommit(database);
      const results = await Promise.all(['a', 'b', 'c'].map((value) => run(r.work(value))));
      assert.deepEqual(r.transactions, [['a', 'b', 'c']]);
      assert.deepEqual(results, ['a@0', 'b@1', 'c@2']);
      assert.deepEqual(await stored(database), ['a', 'b', 'c']);
    });

    test('a transaction holds at most maxBatch works; the rest follow in further ones, in arrival order', async () => {
      const database = await open();
      const r = recorder();
      const run = groupCommit(database, { maxBatch: 4 });
      const values = Array.from({ length: 10 }, (_, i) => `i${i}`);
      const results = await Promise.all(values.map((value) => run(r.work(value))));
      assert.deepEqual(
        r.transactions.map((t) => t.length),
        [4, 4, 2],
      );
      assert.deepEqual(r.transactions.flat(), values);
      assert.deepEqual(
        results,
        values.map((value, i) => `${value}@${i % 4}`),
      );
    });

    test('a failed transaction is tried again work by work: a bad work fails only its own caller, and nothing of the failed one stays', async () => {
      const database = await open();
      const r = recorder();
      const run = groupCommit(database);
      const outcomes = await Promise.allSettled(['a', 'bad', 'c'].map((value) => run(r.work(value))));
      assert.deepEqual(r.transactions, [['a', 'bad'], ['a'], ['bad'], ['c']]);
      assert.deepEqual(
        outcomes.map((o) => (o.status === 'fulfilled' ? o.value : 'rejected')),
        ['a@0', 'rejected', 'c@0'],
      );
      const failure = outcomes[1];
      assert.ok(failure?.status === 'rejected' && /check/i.test(String(failure.reason)), 'the caller gets the database’s own error');
      assert.deepEqual(await stored(database), ['a', 'c'], 'each good work once: the failed transaction was rolled back');
    });

    test('a lone work that fails is not tried again', async () => {
      const database = await open();
      const r = recorder();
      await assert.rejects(groupCommit(database)(r.work('bad')), /check/i);
      assert.deepEqual(r.transactions, [['bad']]);
    });

    test('one transaction at a time: works arriving while one commits wait, over several turns, and go together in the next', async () => {
      const database = await open();
      const r = recorder();
      const run = groupCommit(database);
      const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
      const pending = [run(r.work('slow'))];
      while (r.transactions.length === 0) await nextTurn();
      try {
        for (const value of ['x', 'y', 'z']) {
          await nextTurn();
          pending.push(run(r.work(value)));
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
        assert.deepEqual(r.transactions, [['slow']], 'nothing else starts while the first transaction is open');
      } finally {
        r.release();
      }
      await Promise.all(pending);
      assert.deepEqual(r.transactions, [['slow'], ['x', 'y', 'z']]);
    });

    test('with gatherMs, a steady stream is written a few works a transaction, at least gatherMs apart, in arrival order', async () => {
      const database = await open();
      const r = recorder();
      const run = groupCommit(database, { gatherMs: 40 });
      const started = performance.now();
      const values = Array.from({ length: 40 }, (_, i) => `s${i}`);
      const pending: Promise<string>[] = [];
      // One every 2 ms, each read in its own turn, as a drop's requests are.
      for (const value of values) {
        pending.push(run(r.work(value)));
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      await Promise.all(pending);
      const rounds = Math.ceil((performance.now() - started) / 40) + 1;
      assert.ok(r.transactions.length <= rounds, `${r.transactions.length} transactions in ${rounds} rounds of 40 ms`);
      assert.deepEqual(r.transactions.flat(), values);
    });

    test('with gatherMs, a work after a quiet moment is written at once, not a gathering later', async () => {
      const database = await open();
      const r = recorder();
      // A gathering of 5 s: a work that waited for it would take that long; one commit takes milliseconds.
      const run = groupCommit(database, { gatherMs: 5_000 });
      const started = performance.now();
      assert.equal(await run(r.work('alone')), 'alone@0');
      assert.ok(performance.now() - started < 2_500, `written after ${Math.round(performance.now() - started)} ms`);
    });

    if (dialect === 'postgres')
      test('with a lock, two instances’ transactions never overlap: the second waits for the first to commit', async () => {
        const target = await freshTarget('postgres');
        const one = await open('postgres', target);
        const two = await open('postgres', target);
        await sql`create table items (value text not null check (value <> 'bad'))`.execute(one.db);
        const r = recorder();
        const [runOne, runTwo] = [groupCommit(one, { lock: 'tenpo.test' }), groupCommit(two, { lock: 'tenpo.test' })];
        const first = runOne(r.work('slow'));
        await new Promise((resolve) => setTimeout(resolve, 100));
        let secondDone = false;
        const second = runTwo(async (trx) => {
          await sql`insert into items (value) values ('second')`.execute(trx);
          return (await sql<{ n: number }>`select count(*)::int as n from items`.execute(trx)).rows[0]!.n;
        }).then((seen) => ((secondDone = true), seen));
        try {
          await new Promise((resolve) => setTimeout(resolve, 300));
          assert.equal(secondDone, false, 'the second instance’s transaction waits for the lock');
        } finally {
          r.release();
        }
        assert.equal(await first, 'slow@0');
        assert.equal(await second, 2, 'and then sees the first one’s row, committed');
      });
  });
}
