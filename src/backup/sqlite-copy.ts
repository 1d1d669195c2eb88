import { closeSync, existsSync, mkdirSync, openSync, renameSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { backup, DatabaseSync } from 'node:sqlite';
import { processesHolding } from './open-files.ts';

// The SQLite store's backup and restore, through SQLite's online backup API: the copy is one
// consistent moment of the store, the write-ahead log included, taken while the service writes.

export interface StoreCopy {
  file: string;
  bytes: number;
  reservations: number;
}

/** Copies the live store at `path` into `to` (a new file, 0600), then checks the copy. */
export async function backupSqlite(path: string, to: string): Promise<StoreCopy> {
  if (!existsSync(path)) throw new Error(`there is no SQLite store at ${path}`);
  mkdirSync(dirname(to), { recursive: true, mode: 0o700 });
  createOwnerOnly(to);
  const source = new DatabaseSync(path, { readOnly: true });
  try {
    await backup(source, to);
  } finally {
    source.close();
  }
  // The copy is in WAL mode, as its source: made a rollback-journal file again, it stays one
  // self-contained file when read (a restore puts the store back into WAL mode as it opens it).
  const copy = new DatabaseSync(to);
  copy.exec('PRAGMA journal_mode = DELETE');
  copy.close();
  return checkedCopy(to);
}

/**
 * Whether `file` is a sound tenpo store: SQLite's integrity check, and a reservations table. Throws
 * saying what is wrong, so a restore never replaces a store with a damaged or foreign file.
 */
export function checkedCopy(file: string): StoreCopy {
  if (!existsSync(file)) throw new Error(`there is no backup at ${file}`);
  const copy = new DatabaseSync(file, { readOnly: true });
  try {
    const integrity = copy.prepare('PRAGMA integrity_check').all();
    const verdict = integrity.map((row) => String(Object.values(row)[0])).join('; ');
    if (verdict !== 'ok') throw new Error(`${file} fails SQLite's integrity check: ${verdict}`);
    const table = copy.prepare("select 1 from sqlite_master where type = 'table' and name = 'reservations'").get();
    if (!table) throw new Error(`${file} is not a tenpo store (it has no reservations table)`);
    const { n } = copy.prepare('select count(*) as n from reservations').get() as { n: number };
    return { file, bytes: statSync(file).size, reservations: n };
  } finally {
    copy.close();
  }
}

/**
 * Puts the backup `from` in place of the store at `path`, which no process may hold open. The store
 * it replaces, with its `-wal` and `-shm` (a log left beside the copy would be replayed into it), is
 * moved into `aside`, never deleted. The caller migrates the restored store and moves its count of
 * reservation numbers on.
 */
export async function restoreSqlite(path: string, from: string, aside: string): Promise<StoreCopy> {
  const copy = checkedCopy(from);
  const holders = processesHolding([path, `${path}-wal`]);
  if (holders.length > 0) {
    throw new Error(`the store ${path} is open in process ${holders.join(', ')}: stop the service first`);
  }
  const replaced = [path, `${path}-wal`, `${path}-shm`].filter((file) => existsSync(file));
  if (replaced.length > 0) mkdirSync(aside, { recursive: true, mode: 0o700 });
  for (const file of replaced) renameSync(file, join(aside, basename(file)));
  createOwnerOnly(path);
  const source = new DatabaseSync(from, { readOnly: true });
  try {
    await backup(source, path);
  } finally {
    source.close();
  }
  return { ...copy, file: path };
}

/** Creates `file` empty and readable by its owner alone (SQLite gives its -wal and -shm the same mode); throws if it exists. */
function createOwnerOnly(file: string): void {
  try {
    closeSync(openSync(file, 'wx', 0o600));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new Error(`${file} exists already; name a new file`, { cause: error });
    throw error;
  }
}
