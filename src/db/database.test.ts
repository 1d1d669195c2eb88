import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Writable } from 'node:stream';
import { after, describe, test } from 'node:test';
import { Kysely, PostgresDialect, SqliteDialect, sql, type ColumnType } from 'kysely';
import { Migrator } from 'kysely/migration';
import pg from 'pg';
import { DIALECTS, freshTarget, type Dialect } from '../../test/helpers/dialects.ts';
import type { DatabaseTarget } from '../config.ts';
import { createLogger } from '../log.ts';
import { openDatabase, type Database } from './database.ts';
import { migrateToLatest } from './migrate.ts';
import * as initial from './migrations/001-initial.ts';
import * as outboxRecord from './migrations/002-outbox-record.ts';
import * as keywordLogHours from './migrations/003-keyword-log-hours.ts';
import * as keywordHours from './migrations/004-keyword-hours.ts';
import { openSqlite } from './sqlite-adapter.ts';

// Migrations and the storage layer, the same cases on both dialects.

const log = createLogger('silent');

/** The record tables as migration 004 left them (the columns this test writes), and the column 005 adds. */
interface Before005 {
  reservations: {
    id: string;
    name: string;
    email: string;
    product_slug: string;
    status: string;
    created_at: string;
    responded_at: string | null;
    archived_at: string | null;
    updated_at: ColumnType<string, never, never>;
  };
  subscriptions: {
    id: string;
    email: string;
    product_slug: string;
    status: string;
    created_at: string;
    notified_at: string | null;
    archived_at: string | null;
    updated_at: ColumnType<string, never, never>;
  };
}

const open: Database[] = [];
after(() => Promise.all(open.map((d) => d.close())));
async function openFresh(dialect: Dialect, target?: DatabaseTarget) {
  const database = await openDatabase(target ?? (await freshTarget(dialect)), log);
  open.push(database);
  return database;
}

for (const dialect of DIALECTS) {
  describe(dialect, () => {
    test('migrations create every table the service needs, and running them again changes nothing', async () => {
      const target = await freshTarget(dialect);
      const database = await openFresh(dialect, target);
      const tables = (await database.db.introspection.getTables()).map((t) => t.name);
      for (const table of ['reservations', 'subscriptions', 'keyword_logs', 'outbox']) assert.ok(tables.includes(table), table);
      assert.deepEqual(await migrateToLatest(database.db as Kysely<unknown>), []);
      const reopened = await openFresh(dialect, target);
      assert.deepEqual(await migrateToLatest(reopened.db as Kysely<unknown>), []);
    });

    test('migration 005 gives existing records the latest time they are known to have changed', async () => {
      const target = await freshTarget(dialect);
      const db = new Kysely<Before005>({
        dialect:
          target.dialect === 'sqlite'
            ? new SqliteDialect({ database: openSqlite(target.path) })
            : new PostgresDialect({ pool: new pg.Pool({ connectionString: target.url }) }),
      });
      try {
        const before005 = {
          '001-initial': initial,
          '002-outbox-record': outboxRecord,
          '003-keyword-log-hours': keywordLogHours,
          '004-keyword-hours': keywordHours,
        };
        const { error } = await new Migrator({ db, provider: { getMigrations: async () => before005 } }).migrateToLatest();
        assert.equal(error, undefined);
        const t = (day: number) => `2025-01-0${day}T00:00:00.000Z`;
        const reservation = { name: 'n', email: 'e@example.com', product_slug: 'p', status: 'pending', created_at: t(1) };
        await db
          .insertInto('reservations')
          .values([
            { ...reservation, id: 'res_new', responded_at: null, archived_at: null },
            { ...reservation, id: 'res_responded', responded_at: t(3), archived_at: null },
            { ...reservation, id: 'res_archived', responded_at: t(2), archived_at: t(4) },
          ])
          .execute();
        const subscription = { email: 'e@example.com', product_slug: 'p', status: 'notified', created_at: t(1) };
        await db
          .insertInto('subscriptions')
          .values([
            { ...subscription, id: 'ntf_notified', notified_at: t(5), archived_at: null },
            { ...subscription, id: 'ntf_archived', notified_at: t(2), archived_at: t(6) },
          ])
          .execute();
        assert.equal((await migrateToLatest(db as Kysely<unknown>))[0], '005-record-updated-at', 'the migrations after 004 run, 005 first');
        const times = async (table: keyof Before005) =>
          Object.fromEntries((await db.selectFrom(table).select(['id', 'updated_at']).execute()).map((r) => [r.id, r.updated_at]));
        assert.deepEqual(await times('reservations'), { res_new: t(1), res_responded: t(3), res_archived: t(4) });
        assert.deepEqual(await times('subscriptions'), { ntf_notified: t(5), ntf_archived: t(6) });
      } finally {
        await db.destroy();
      }
    });

    test('several instances starting at once migrate once', async () => {
      const target = await freshTarget(dialect);
      const databases = await Promise.all([1, 2, 3].map(() => openFresh(dialect, target)));
      const applied = await databases[0]!.db
        .selectFrom('kysely_migration' as never)
        .select(sql<number>`count(*)`.as('n'))
        .executeTakeFirstOrThrow();
      const names = await migrateToLatest(databases[1]!.db as Kysely<unknown>);
      assert.deepEqual(names, []);
      assert.ok(Number((applied as { n: number }).n) >= 1);
    });

    test('every filter and sort column of the record tables is indexed', async () => {
      const database = await openFresh(dialect);
      const indexes = await indexNames(database);
      for (const table of ['reservations', 'subscriptions']) {
        for (const index of ['active_created', 'active_status', 'active_product', 'archived_at', 'archived_status', 'archived_product']) {
          assert.ok(indexes.includes(`${table}_${index}`), `${table}_${index}`);
        }
      }
      assert.ok(indexes.includes('keyword_logs_timestamp'));
      assert.ok(indexes.includes('outbox_due'));
    });

    test('rows round-trip exactly, including text that looks like SQL and non-BMP characters', async () => {
      const { db } = await openFresh(dialect);
      const row = {
        id: 'res_1',
        name: "Robert'); DROP TABLE reservations;-- 🎛️ 山田",
        email: 'a@example.jp',
        product_slug: 'kumo-vco-2',
        status: 'pending',
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
        responded_at: null,
        archived_at: null,
        name_fold: "robert');droptablereservations;--🎛️山田",
      };
      await db.insertInto('reservations').values(row).execute();
      const stored = await db.selectFrom('reservations').selectAll().where('id', '=', 'res_1').executeTakeFirstOrThrow();
      assert.deepEqual({ ...stored }, { ...row, notes: '', preorder_id: null, number: 1001 });
    });

    test('an outbox idempotency key is unique', async () => {
      const { db } = await openFresh(dialect);
      const message = (id: string) => ({
        id,
        channel: 'email',
        destination: 'a@example.jp',
        payload: '{}',
        idempotency_key: 'same-key',
        status: 'pending',
        next_attempt_at: new Date().toISOString(),
        locked_until: null,
        last_error: null,
        created_at: new Date().toISOString(),
        sent_at: null,
      });
      await db.insertInto('outbox').values(message('m1')).execute();
      await assert.rejects(db.insertInto('outbox').values(message('m2')).execute());
    });

    test('at most one active pending subscription per address and product', async () => {
      const { db } = await openFresh(dialect);
      const subscription = (id: string, status = 'pending', archived_at: string | null = null) => ({
        id,
        email: 'a@example.jp',
        product_slug: 'kumo-vco-2',
        status,
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
        notified_at: null,
        archived_at,
      });
      await db.insertInto('subscriptions').values(subscription('ntf_1')).execute();
      await assert.rejects(db.insertInto('subscriptions').values(subscription('ntf_2')).execute());
      await db.insertInto('subscriptions').values(subscription('ntf_3', 'notified')).execute();
      await db
        .insertInto('subscriptions')
        .values(subscription('ntf_4', 'pending', new Date().toISOString()))
        .execute();
    });

    test('ping answers while open and fails once closed', async () => {
      const database = await openDatabase(await freshTarget(dialect), log);
      await database.ping();
      await database.close();
      await assert.rejects(database.ping());
    });
  });
}

test('SQLite runs in WAL mode with a busy timeout and foreign keys on', async () => {
  const { db } = await openFresh('sqlite');
  const pragma = async (name: string) => Object.values((await sql.raw(`pragma ${name}`).execute(db)).rows[0] as object)[0];
  assert.equal(pragma.length, 1);
  assert.equal(await pragma('journal_mode'), 'wal');
  assert.equal(await pragma('busy_timeout'), 5000);
  assert.equal(await pragma('foreign_keys'), 1);
});

test('a new SQLite store, its directory and its -wal and -shm files are readable by their owner only; an existing store others may read is made so at start, with a warning naming each file', async () => {
  const dir = join(mkdtempSync(join(tmpdir(), 'tenpo-permissions-')), 'store');
  const path = join(dir, 'tenpo.db');
  const database = await openDatabase({ dialect: 'sqlite', path }, log);
  const modes = Object.fromEntries(
    readdirSync(dir)
      .map((name) => [name, statSync(join(dir, name)).mode & 0o777] as const)
      .concat([['(directory)', statSync(dir).mode & 0o777]]),
  );
  await database.close();
  assert.deepEqual(modes, { '(directory)': 0o700, 'tenpo.db': 0o600, 'tenpo.db-wal': 0o600, 'tenpo.db-shm': 0o600 });

  // A store copied in with the usual umask, its -wal and -shm left beside it.
  for (const name of ['tenpo.db', 'tenpo.db-wal', 'tenpo.db-shm']) writeFileSync(join(dir, name), '', { flag: 'a' });
  for (const name of ['tenpo.db', 'tenpo.db-wal', 'tenpo.db-shm']) chmodSync(join(dir, name), 0o644);
  const lines: { file?: string; mode?: string; msg?: string }[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  const reopened = await openDatabase({ dialect: 'sqlite', path }, createLogger('warn', sink));
  const tightened = Object.fromEntries(readdirSync(dir).map((name) => [name, statSync(join(dir, name)).mode & 0o777]));
  await reopened.close();
  assert.deepEqual(tightened, { 'tenpo.db': 0o600, 'tenpo.db-wal': 0o600, 'tenpo.db-shm': 0o600 });
  assert.deepEqual(
    lines.map(({ file, mode, msg }) => [file, mode, msg]),
    ['tenpo.db', 'tenpo.db-wal', 'tenpo.db-shm'].map((name) => [
      join(dir, name),
      '644',
      'SQLite file was readable by others: made owner-only (0600)',
    ]),
  );
  rmSync(dirname(dir), { recursive: true, force: true });
});

async function indexNames(database: Database): Promise<string[]> {
  const query =
    database.dialect === 'sqlite'
      ? sql<{ name: string }>`select name from sqlite_master where type = 'index'`
      : sql<{ name: string }>`select indexname as name from pg_indexes where schemaname = 'public'`;
  return (await query.execute(database.db)).rows.map((r) => r.name);
}
