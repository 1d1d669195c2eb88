import { accessSync, chmodSync, closeSync, constants, existsSync, openSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

const STATEMENT_CACHE_SIZE = 256;

/**
 * Presents Node's built-in `node:sqlite` as the better-sqlite3 shape Kysely's SqliteDialect expects,
 * so the embedded default needs no native addon. Prepared statements are cached by SQL text: Kysely
 * compiles the same few statements over and over, and preparing is the costly part of a small query.
 *
 * `synchronous = FULL`: every commit is on disk (fsync of the log) before it returns, so a
 * reservation answered 200 survives a power cut, not only a crash of the process. Writes are
 * group-committed (db/group-commit.ts), so one fsync serves a whole batch of requests.
 */
export function openSqlite(
  path: string,
  tightened: (file: string, mode: number, changed: boolean) => void = () => {},
): SqliteDatabase & { raw: DatabaseSync } {
  if (path !== ':memory:') {
    assertWritable(path);
    ownerOnly(path, tightened);
  }
  const raw = new DatabaseSync(path);
  raw.exec('PRAGMA journal_mode = WAL');
  raw.exec('PRAGMA synchronous = FULL');
  raw.exec('PRAGMA busy_timeout = 5000');
  raw.exec('PRAGMA foreign_keys = ON');
  const statements = new Map<string, SqliteStatement>();

  return {
    raw,
    close: () => raw.close(),
    prepare(sql: string): SqliteStatement {
      // On some errors (a full disk, an I/O error) SQLite ends the transaction itself. Kysely then
      // sends ROLLBACK anyway, and the "no transaction is active" that fails would replace the
      // error that explains the failure, in the log and everywhere else.
      if (sql === 'rollback' && !raw.isTransaction) return NOTHING_TO_ROLL_BACK;
      const cached = statements.get(sql);
      if (cached) return cached;
      const statement = adapt(raw.prepare(sql));
      if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
      statements.set(sql, statement);
      return statement;
    },
  };
}

/**
 * SQLite opens a file it may not write read-only without a word, and then fails every write; and
 * it must create its write-ahead log beside the file. So a store this process cannot write stops
 * the start, saying which file, rather than answering every write with a 500.
 */
function assertWritable(path: string): void {
  for (const target of existsSync(path) ? [path, dirname(path)] : [dirname(path)]) {
    try {
      accessSync(target, constants.W_OK);
    } catch {
      throw new Error(`the SQLite database ${path} is read-only to this process; it needs to write the file and its directory`);
    }
  }
}

const NOTHING_TO_ROLL_BACK: SqliteStatement = {
  reader: false,
  all: () => [],
  run: () => ({ changes: 0, lastInsertRowid: 0 }),
  iterate: () => [][Symbol.iterator](),
};

type Parameter = null | number | bigint | string | NodeJS.ArrayBufferView;

function adapt(statement: StatementSync): SqliteStatement {
  const reader = statement.columns().length > 0;
  const bind = (parameters: ReadonlyArray<unknown>) => parameters.map(toSqlite);
  return {
    reader,
    all: (parameters) => statement.all(...bind(parameters)),
    run: (parameters) => statement.run(...bind(parameters)),
    iterate: (parameters) => statement.iterate(...bind(parameters)),
  };
}

/** node:sqlite binds only these types; booleans become 0/1 as better-sqlite3 would store them. */
function toSqlite(value: unknown): Parameter {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value === undefined) return null;
  return value as Parameter;
}

/**
 * The database file is readable and writable by its owner only (0600): it holds customers' names and
 * addresses. A new one is created so; SQLite gives the -wal and -shm files it makes beside it the
 * same permissions. An existing one (or a -wal or -shm left beside it) that others may read is made
 * owner-only at start, and `tightened` told of it with the mode it had, to log; one the process
 * cannot change (not its owner) is told with `tightened: false`.
 */
function ownerOnly(path: string, tightened: (file: string, mode: number, changed: boolean) => void): void {
  try {
    closeSync(openSync(path, 'wx', 0o600));
    return;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    let mode: number;
    try {
      mode = statSync(file).mode & 0o777;
    } catch {
      continue;
    }
    if ((mode & 0o077) === 0) continue;
    try {
      chmodSync(file, mode & 0o700);
      tightened(file, mode, true);
    } catch {
      tightened(file, mode, false);
    }
  }
}
