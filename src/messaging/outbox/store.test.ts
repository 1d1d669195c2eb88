import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { DIALECTS, freshTarget } from '../../../test/helpers/dialects.ts';
import { outboxStatusCounts, storedMessage } from '../../../test/helpers/outbox.ts';
import { openDatabase, type Database } from '../../db/database.ts';
import { createLogger } from '../../log.ts';
import type { OutboxEntry } from './message.ts';
import { eraseMessagesAbout } from '../about-records.ts';
import { countUndelivered } from '../figures.ts';
import { deleteExpiredMessages } from './retention.ts';
import { claimDueMessages, enqueueMessages, markSettled, markFailed } from './store.ts';

// The outbox's claims, leases and settlements on both dialects, with the clock passed in.

const at = (ms: number) => new Date(Date.UTC(2030, 0, 1) + ms).toISOString();

const notice = (key: string) => ({
  productName: key,
  price: null,
  productUrl: `https://shop.example/${key}`,
  unsubscribeUrl: `https://shop.example/u/${key}`,
});

function email(key: string, queuedAt: string, recordId?: string): OutboxEntry {
  return {
    idempotencyKey: key,
    recordId,
    queuedAt,
    message: { channel: 'email', to: `${key}@example.com`, email: { template: 'restock-available', facts: notice(key) } },
  };
}

for (const dialect of DIALECTS) {
  describe(`outbox store (${dialect})`, () => {
    let database: Database;
    before(async () => {
      database = await openDatabase(await freshTarget(dialect), createLogger('silent'));
    });
    after(() => database.close());
    beforeEach(async () => {
      await database.db.deleteFrom('outbox').execute();
    });

    const claim = (now: number, limit = 10, leaseMs = 1_000) =>
      claimDueMessages(database.db, database.dialect, { now: at(now), leaseUntil: at(now + leaseMs), limit });

    test('queuing a key twice keeps the first message', async () => {
      await enqueueMessages(database.db, [email('a', at(0))]);
      await enqueueMessages(database.db, [email('a', at(1)), email('b', at(1))]);
      const rows = await database.db.selectFrom('outbox').select(['idempotency_key', 'created_at']).orderBy('idempotency_key').execute();
      assert.deepEqual(
        rows.map((row) => ({ ...row })),
        [
          { idempotency_key: 'a', created_at: at(0) },
          { idempotency_key: 'b', created_at: at(1) },
        ],
      );
    });

    test('a claim takes due messages oldest first, counts the attempt and holds them for the lease', async () => {
      await enqueueMessages(database.db, [email('late', at(500))]);
      await enqueueMessages(database.db, [email('early', at(100))]);
      assert.deepEqual(await claim(50), [], 'nothing is due yet');
      const claimed = await claim(600, 1);
      assert.deepEqual(
        claimed.map((m) => [m.idempotencyKey, m.attempts, m.lease]),
        [['early', 1, at(1_600)]],
      );
      assert.deepEqual(claimed[0]!.message, {
        channel: 'email',
        to: 'early@example.com',
        // Version 2: the default wording that names the shop (migration 017) follows the first.
        email: { template: 'restock-available', version: 1, facts: notice('early') },
      });
      assert.deepEqual(
        (await claim(700)).map((m) => m.idempotencyKey),
        ['late'],
        'a held message is not claimed again',
      );
      assert.deepEqual(await claim(1_599), []);
    });

    test('when a lease runs out the message is claimed again, and the old holder can no longer settle it', async () => {
      await enqueueMessages(database.db, [email('a', at(0))]);
      const [first] = await claim(0);
      const [second] = await claim(1_000);
      assert.equal(second!.attempts, 2);
      assert.equal(await markSettled(database.db, [{ id: first!.id, lease: first!.lease, status: 'sent' }], at(1_001)), 0);
      assert.equal(await markFailed(database.db, first!, { error: 'late', at: at(1_001), retryAt: at(5_000) }), false);
      assert.equal(await markSettled(database.db, [{ id: second!.id, lease: second!.lease, status: 'sent' }], at(1_002)), 1);
      const row = await database.db.selectFrom('outbox').selectAll().executeTakeFirstOrThrow();
      assert.deepEqual([row.status, row.sent_at, row.locked_until, row.attempts], ['sent', at(1_002), null, 2]);
      assert.deepEqual(await claim(100_000), [], 'a sent message is never claimed');
    });

    test('a failure waits for its retry time; a last failure is dead for good', async () => {
      await enqueueMessages(database.db, [email('a', at(0))]);
      const [first] = await claim(0);
      assert.equal(await markFailed(database.db, first!, { error: 'HTTP 503', at: at(1), retryAt: at(3_000) }), true);
      assert.deepEqual(await claim(2_999), []);
      const [again] = await claim(3_000);
      assert.equal(again!.attempts, 2);
      assert.equal(await markFailed(database.db, again!, { error: 'HTTP 500', at: at(3_001), retryAt: null }), true);
      assert.deepEqual(await claim(1_000_000), []);
      const row = await database.db.selectFrom('outbox').selectAll().executeTakeFirstOrThrow();
      assert.deepEqual(
        [row.status, row.last_error, row.locked_until, row.died_at, row.sent_at],
        ['dead', 'HTTP 500', null, at(3_001), null],
      );
    });

    test('counts by status, and erases the messages about a record', async () => {
      await enqueueMessages(database.db, [
        email('a', at(0), 'res_1'),
        email('b', at(0), 'res_1'),
        email('c', at(0), 'res_2'),
        email('d', at(1)),
      ]);
      // RETURNING gives no order: put the three claimed back in theirs.
      const [a, b, c] = (await claim(0, 3)).sort((x, y) => x.idempotencyKey.localeCompare(y.idempotencyKey));
      await markSettled(
        database.db,
        [
          { id: a!.id, lease: a!.lease, status: 'sent' },
          { id: b!.id, lease: b!.lease, status: 'skipped' },
        ],
        at(1),
      );
      await markFailed(database.db, c!, { error: 'x', at: at(1), retryAt: null });
      assert.deepEqual(await outboxStatusCounts(database.db), { pending: 1, sent: 1, skipped: 1, dead: 1, superseded: 0 });
      assert.deepEqual(await countUndelivered(database.db), { pending: 1, dead: 1 });
      assert.equal(await eraseMessagesAbout(database.db, ['res_1']), 2);
      assert.deepEqual(await outboxStatusCounts(database.db), { pending: 1, sent: 0, skipped: 0, dead: 1, superseded: 0 });
    });

    test('claimers running at once never get the same message', async () => {
      const entries = Array.from({ length: 300 }, (_, i) => email(`m${String(i).padStart(3, '0')}`, at(0)));
      await enqueueMessages(database.db, entries);
      const seen: string[] = [];
      await Promise.all(
        Array.from({ length: 6 }, async () => {
          for (;;) {
            const claimed = await claim(10, 7);
            if (claimed.length === 0) return;
            seen.push(...claimed.map((m) => m.idempotencyKey));
          }
        }),
      );
      assert.equal(seen.length, 300);
      assert.equal(new Set(seen).size, 300);
    });

    test('retention deletes sent and skipped messages sent before the cutoff, dead and superseded ones that ended before it, a batch at a time', async () => {
      const DAY = 86_400_000;
      const row = (key: string, status: string, times: { created: number; sent?: number; died?: number }) =>
        storedMessage(key, status, {
          createdAt: at(times.created),
          sentAt: times.sent === undefined ? undefined : at(times.sent),
          diedAt: times.died === undefined ? undefined : at(times.died),
        });
      const cutoff = at(40 * DAY);
      await database.db
        .insertInto('outbox')
        .values([
          ...Array.from({ length: 5 }, (_, i) => row(`old-sent-${i}`, 'sent', { created: i, sent: i + 1 })),
          row('old-skipped', 'skipped', { created: 0, sent: 0 }),
          row('old-dead', 'dead', { created: 0, died: 2 * DAY }),
          row('old-superseded', 'superseded', { created: 0, died: 3 * DAY }),
          row('recent-sent', 'sent', { created: 40 * DAY, sent: 40 * DAY }),
          // Queued before the cutoff, delivered (or given up) after it: kept.
          row('late-sent', 'sent', { created: 39 * DAY, sent: 40 * DAY + 1 }),
          row('late-dead', 'dead', { created: 0, died: 41 * DAY }),
          row('late-superseded', 'superseded', { created: 0, died: 40 * DAY + 1 }),
          // Pending is never deleted, however old: it is still to be delivered.
          row('old-pending', 'pending', { created: 0 }),
        ])
        .execute();
      assert.equal(await deleteExpiredMessages(database.db, database.dialect, cutoff, 3), 3);
      assert.equal(await deleteExpiredMessages(database.db, database.dialect, cutoff, 3), 3);
      assert.equal(await deleteExpiredMessages(database.db, database.dialect, cutoff, 3), 2);
      assert.equal(await deleteExpiredMessages(database.db, database.dialect, cutoff, 3), 0);
      const left = await database.db.selectFrom('outbox').select('id').orderBy('id').execute();
      assert.deepEqual(
        left.map((r) => r.id),
        ['late-dead', 'late-sent', 'late-superseded', 'old-pending', 'recent-sent'],
      );
    });

    test('purges running at once (several instances) delete every expired message once, and fail none', async () => {
      const rows = Array.from({ length: 3_000 }, (_, i) =>
        storedMessage(`m${i}`, ['sent', 'skipped', 'dead'][i % 3]!, {
          createdAt: at(i),
          sentAt: i % 3 === 2 ? undefined : at(i),
          diedAt: i % 3 === 2 ? at(i) : undefined,
        }),
      );
      for (let i = 0; i < rows.length; i += 500)
        await database.db
          .insertInto('outbox')
          .values(rows.slice(i, i + 500))
          .execute();
      const purger = async () => {
        let deleted = 0;
        for (;;) {
          const batch = await deleteExpiredMessages(database.db, database.dialect, at(10_000), 200);
          deleted += batch;
          if (batch === 0) return deleted;
        }
      };
      const counts = await Promise.all(Array.from({ length: 4 }, purger));
      assert.equal(
        counts.reduce((a, b) => a + b, 0),
        3_000,
      );
      assert.deepEqual(await outboxStatusCounts(database.db), { pending: 0, sent: 0, skipped: 0, dead: 0, superseded: 0 });
    });
  });
}
