import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { DatabaseTarget } from '../config.ts';
import type { Logger } from '../log.ts';
import { lastNumberGiven, numberAfter } from '../reservations/store.ts';
import { connectDatabase, openDatabase, type Database } from '../db/database.ts';
import { backupPostgres, restorePostgres, type PgTools } from './postgres-dump.ts';
import { backupSqlite, restoreSqlite } from './sqlite-copy.ts';

// What `npm run db:backup` and `npm run db:restore` do, for either store (scripts/db.ts).

export interface BackupResult {
  file: string;
  bytes: number;
  lastNumber: number;
}

export interface RestoreResult {
  /** Where the replaced store was kept: a directory (SQLite) or a schema (PostgreSQL); undefined if there was none. */
  keptAside?: string;
  /** The next reservation's number will be greater than this. */
  lastNumber: number;
}

/** A sortable UTC stamp for names: 20261204T183000Z. */
export function stamp(now: Date): string {
  return now.toISOString().replace(/[-:]/g, '').replace(/\.\d+/, '');
}

export async function backupStore(target: DatabaseTarget, to: string, log: Logger, pgTools: PgTools): Promise<BackupResult> {
  const database = await connectExisting(target, log);
  try {
    const lastNumber = await lastNumberGiven(database.db);
    const copy =
      target.dialect === 'sqlite' ? await backupSqlite(target.path, to) : await backupPostgres(database.db, target.url, to, pgTools);
    return { file: copy.file, bytes: copy.bytes, lastNumber };
  } finally {
    await database.close();
  }
}

/**
 * Restores `from` in place of the store, then migrates it and moves its count of reservation
 * numbers past every number that may have been sent: the highest the replaced store had given, or
 * `lastSentNumber` when the replaced store is gone or cannot be read (then it must be given).
 */
export async function restoreStore(
  target: DatabaseTarget,
  from: string,
  options: { lastSentNumber?: number; pgTools: PgTools; now: Date },
  log: Logger,
): Promise<RestoreResult> {
  const replacedLast = await lastNumberOfReplaced(target, log);
  if (replacedLast === undefined && options.lastSentNumber === undefined) {
    throw new Error(
      'the store being replaced is missing or unreadable, so the reservation numbers given since the backup are unknown: ' +
        'give the highest one customers may have been sent with --last-sent-number <n> (from the email provider’s log or the chat channel)',
    );
  }
  let keptAside: string | undefined;
  if (target.dialect === 'sqlite') {
    const aside = join(dirname(target.path), `replaced-${stamp(options.now)}`);
    await restoreSqlite(target.path, from, aside);
    keptAside = existsSync(aside) ? aside : undefined;
  } else {
    const database = await connectDatabase(target, log);
    try {
      keptAside = `tenpo_replaced_${stamp(options.now).toLowerCase()}`;
      await restorePostgres(database.db, target.url, from, keptAside, options.pgTools);
    } finally {
      await database.close();
    }
  }
  const restored = await openDatabase(target, log);
  try {
    await numberAfter(restored.db, Math.max(replacedLast ?? 0, options.lastSentNumber ?? 0));
    return { keptAside, lastNumber: await lastNumberGiven(restored.db) };
  } finally {
    await restored.close();
  }
}

/** The highest number the store about to be replaced has given; undefined if it is missing or cannot be read. */
async function lastNumberOfReplaced(target: DatabaseTarget, log: Logger): Promise<number | undefined> {
  if (target.dialect === 'sqlite' && !existsSync(target.path)) return undefined;
  let database: Database | undefined;
  try {
    database = await connectDatabase(target, log);
    return await lastNumberGiven(database.db);
  } catch {
    return undefined;
  } finally {
    await database?.close();
  }
}

/** Opens a store that must exist already: a backup of a store that is not there is a mistake in DATABASE_URL. */
async function connectExisting(target: DatabaseTarget, log: Logger): Promise<Database> {
  if (target.dialect === 'sqlite' && (target.path === ':memory:' || !existsSync(target.path))) {
    throw new Error(`there is no SQLite store at ${target.path} (check DATABASE_URL and APP_ENV)`);
  }
  return connectDatabase(target, log);
}
