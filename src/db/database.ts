import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import type { DatabaseTarget } from '../config.ts';
import type { Logger } from '../log.ts';
import { migrateToLatest } from './migrate.ts';
import type { Tables } from './schema.ts';
import { openSqlite } from './sqlite-adapter.ts';

export type Dialect = DatabaseTarget['dialect'];

export interface Database {
  db: Kysely<Tables>;
  dialect: Dialect;
  /** Resolves when the store answers a trivial query. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens the store named by the configuration and brings its schema up to date, logging the
 * migrations it applied (none at most starts), so an upgrade's schema change shows in the log.
 */
export async function openDatabase(target: DatabaseTarget, log: Logger): Promise<Database> {
  const database = await connectDatabase(target, log);
  try {
    const applied = await migrateToLatest(database.db as Kysely<unknown>);
    if (applied.length > 0) log.info({ migrations: applied }, 'database migrations applied');
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

/** Opens the store as it is, without migrating it: for the commands that inspect or copy it. */
export async function connectDatabase(target: DatabaseTarget, log: Logger): Promise<Database> {
  const db = new Kysely<Tables>({ dialect: await createDialect(target, log) });
  return {
    db,
    dialect: target.dialect,
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: () => db.destroy(),
  };
}

async function createDialect(target: DatabaseTarget, log: Logger) {
  if (target.dialect === 'sqlite') {
    if (target.path !== ':memory:') mkdirSync(dirname(target.path), { recursive: true, mode: 0o700 });
    const tightened = (file: string, mode: number, changed: boolean) =>
      log.warn(
        { file, mode: mode.toString(8) },
        changed
          ? 'SQLite file was readable by others: made owner-only (0600)'
          : 'SQLite file is readable by others and could not be changed',
      );
    return new SqliteDialect({ database: openSqlite(target.path, tightened) });
  }
  // Loaded only for PostgreSQL, so the embedded default does not pay for importing it at start.
  const { default: pg } = await import('pg');
  // COUNT(*) and SUM() come back from PostgreSQL as int8, which pg returns as a string to avoid
  // precision loss. Our counts stay far below 2^53, so numbers are the honest type.
  pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
  const pool = new pg.Pool({
    connectionString: target.url,
    max: 10,
    connectionTimeoutMillis: 5_000,
    // A store that stops answering must fail requests, not hang them.
    query_timeout: 10_000,
  });
  // A connection dropped by the server (restart, failover) emits 'error': the pool reports it for
  // idle connections, the connection itself for one in use (whose query also fails). Unhandled,
  // either event would end the process; handled, the pool discards the connection and opens a new
  // one on next use, so the service recovers when the database does.
  const lost = (error: Error) => log.warn({ err: error.message }, 'database connection lost');
  pool.on('error', lost);
  pool.on('connect', (client) => client.on('error', lost));
  return new PostgresDialect({ pool });
}
