import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CompiledQuery, sql, type Kysely, type KyselyPlugin } from 'kysely';
import { DIALECTS, freshTarget } from '../../../test/helpers/dialects.ts';
import { storedMessage } from '../../../test/helpers/outbox.ts';
import { openDatabase, type Database } from '../../db/database.ts';
import type { Tables } from '../../db/schema.ts';
import { createLogger } from '../../log.ts';
import { countDeliveredSince, countUndelivered } from '../figures.ts';
import { deleteExpiredMessages } from '../outbox/retention.ts';
import { standingsOf } from '../outbox/standing.ts';
import { claimDueMessages } from '../outbox/store.ts';
import { messageLogQueries, type MessageFilter } from './store.ts';

/** No address here is suppressed; the check reads the suppressions all the same. */
const SUPPRESSION = { secret: 'standing-test-secret', now: new Date() };

// The outbox's reads on a large table, by their query plans on both dialects (migrations 008, 014): a page
// of the message log is read in order from an index whatever the filter, the dashboard's counts and
// the retention's deletes read ranges of indexes, and the dispatcher's claim still reads its queue
// index. Plans, not timings: the machine is shared.

const ROWS = 20_000;
const STATUSES = ['sent', 'sent', 'sent', 'sent', 'sent', 'sent', 'skipped', 'superseded', 'pending', 'dead'];
const T0 = Date.UTC(2026, 0, 1);
const at = (i: number) => new Date(T0 + i * 60_000).toISOString();

/** Every statement `work` runs, compiled, without running them twice. */
async function statementsOf(db: Kysely<Tables>, work: (db: Kysely<Tables>) => Promise<unknown>): Promise<CompiledQuery[]> {
  const nodes: Parameters<KyselyPlugin['transformQuery']>[0][] = [];
  const recorder: KyselyPlugin = {
    transformQuery: (args) => (nodes.push(args), args.node),
    transformResult: async (args) => args.result,
  };
  // Inside a transaction rolled back, so a delete or a claim changes nothing for the next check.
  await db
    .transaction()
    .execute(async (trx) => {
      await work(trx.withPlugin(recorder));
      throw new RolledBack();
    })
    .catch((error: unknown) => {
      if (!(error instanceof RolledBack)) throw error;
    });
  return nodes.map(({ node, queryId }) => db.getExecutor().compileQuery(node, queryId));
}
class RolledBack extends Error {}

for (const dialect of DIALECTS) {
  describe(`outbox query plans (${dialect}, ${ROWS.toLocaleString('en-US')} messages)`, () => {
    let database: Database;
    before(async () => {
      database = await openDatabase(await freshTarget(dialect), createLogger('silent'));
      for (let start = 0; start < ROWS; start += 1_000) {
        const rows = Array.from({ length: 1_000 }, (_, k) => {
          const i = start + k;
          const status = STATUSES[i % STATUSES.length]!;
          const settled = status === 'sent' || status === 'skipped';
          return {
            ...storedMessage(
              `m${String(i).padStart(6, '0')}`,
              status,
              {
                createdAt: at(i),
                sentAt: settled ? at(i) : undefined,
                diedAt: status === 'dead' || status === 'superseded' ? at(i) : undefined,
              },
              i % 3 ? 'email' : 'chat',
            ),
            record_id: `res_${Math.floor(i / 2)}`,
          };
        });
        await database.db.insertInto('outbox').values(rows).execute();
      }
      if (dialect === 'postgres') await sql`vacuum analyze outbox`.execute(database.db);
    });
    after(() => database.close());

    async function plan(query: CompiledQuery): Promise<string> {
      const explained = await database.db.executeQuery<Record<string, string>>(
        CompiledQuery.raw(`${dialect === 'sqlite' ? 'explain query plan' : 'explain'} ${query.sql}`, [...query.parameters]),
      );
      return explained.rows.map((row) => row.detail ?? row['QUERY PLAN']).join('\n');
    }
    /** The plan reads the table only through an index, and never sorts (SQLite: a temp B-tree; PostgreSQL: a Sort node). */
    function assertIndexed(text: string, what: string, options: { sorts?: boolean } = {}): void {
      if (dialect === 'sqlite') {
        assert.doesNotMatch(text, /SCAN outbox(?! USING)/, `${what} scans the table:\n${text}`);
        if (!options.sorts) assert.doesNotMatch(text, /TEMP B-TREE/, `${what} sorts:\n${text}`);
      } else {
        assert.doesNotMatch(text, /Seq Scan/, `${what} scans the table:\n${text}`);
        if (!options.sorts) assert.doesNotMatch(text, /Sort/, `${what} sorts:\n${text}`);
      }
    }

    const filters: MessageFilter[] = [
      {},
      { status: 'sent' },
      { status: 'skipped' },
      { status: 'pending' },
      { status: 'dead' },
      { status: 'superseded' },
      { channel: 'chat' },
      { channel: 'email', status: 'dead' },
      { channel: 'chat', status: 'sent' },
    ];
    for (const filter of filters) {
      test(`a page of the log ${JSON.stringify(filter)} is read in order from an index`, async () => {
        const { page } = messageLogQueries(database.db, filter, { limit: 20, offset: 100 });
        assertIndexed(await plan(page.compile()), 'the page');
      });
    }

    test('one record’s messages are found by its index (and its few rows sorted)', async () => {
      const { page, count } = messageLogQueries(database.db, { recordId: 'res_77', status: 'sent' }, { limit: 20, offset: 0 });
      assertIndexed(await plan(page.compile()), 'the page', { sorts: true });
      assert.match(await plan(page.compile()), /outbox_record/);
      assertIndexed(await plan(count.compile()), 'the count');
    });

    test('the dashboard’s counts and the retention’s deletes read ranges of indexes', async () => {
      const since = at(ROWS - 500);
      const statements = [
        ...(await statementsOf(database.db, (db) => countUndelivered(db))),
        ...(await statementsOf(database.db, (db) => countDeliveredSince(db, since))),
        ...(await statementsOf(database.db, (db) => deleteExpiredMessages(db, dialect, at(500), 1_000))),
      ];
      assert.equal(statements.length, 9);
      for (const statement of statements) assertIndexed(await plan(statement), statement.sql);
    });

    test('the check before every attempt finds its messages and the later emails about their records by index', async () => {
      const claimed = ['m000003', 'm000301', 'm019998'].map((id) => ({ id, lease: at(1) }));
      const [check] = await statementsOf(database.db, (db) => standingsOf(db, claimed, SUPPRESSION));
      const text = await plan(check!);
      assertIndexed(text, 'the check');
      assert.match(text, /outbox_record/);
    });

    test('the dispatcher’s claim still reads its queue index, outbox_due', async () => {
      const [claim] = await statementsOf(database.db, (db) =>
        claimDueMessages(db, dialect, { now: at(ROWS), leaseUntil: at(ROWS + 1), limit: 16 }),
      );
      const text = await plan(claim!);
      assertIndexed(text, 'the claim');
      assert.match(text, /outbox_due/);
    });
  });
}
