import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Kysely } from 'kysely';
import { ConfigError, loadDatabaseTarget } from '../src/config.ts';
import { backupStore, restoreStore, stamp } from '../src/backup/store-backup.ts';
import { connectDatabase, openDatabase } from '../src/db/database.ts';
import { migrationStates } from '../src/db/migrate.ts';
import { createLogger } from '../src/log.ts';

// npm run db:status | db:migrate | db:backup [-- --to <file>] | db:restore -- <file> [--last-sent-number <n>]
//
// The store's upkeep, on the store the service's configuration names (DATABASE_URL and APP_ENV, from
// the environment or .env, as `npm start` reads them). docs/operations.md says when to run which.

const USAGE = `usage: node scripts/db.ts <command>
  status                        the migrations applied and pending
  migrate                       apply the pending migrations, then exit
  backup [--to <file>]          a consistent copy of the store (0600), checked
  restore <file> [--last-sent-number <n>]
                                put a backup in place of the store (the service stopped)
  --pg-bin <dir>                where PostgreSQL's pg_dump and pg_restore are (backup, restore)`;

function fail(message: string): never {
  process.stderr.write(`tenpo: ${message}\n`);
  process.exit(1);
}

function say(line: string): void {
  process.stdout.write(`tenpo: ${line}\n`);
}

const { values, positionals } = (() => {
  try {
    return parseArgs({
      allowPositionals: true,
      options: { to: { type: 'string' }, 'last-sent-number': { type: 'string' }, 'pg-bin': { type: 'string' } },
    });
  } catch (error) {
    return fail(`${(error as Error).message}\n${USAGE}`);
  }
})();

if (existsSync('.env')) process.loadEnvFile('.env');
const { appEnv, database: target } = (() => {
  try {
    return loadDatabaseTarget(process.env);
  } catch (error) {
    if (error instanceof ConfigError) return fail(`configuration error: ${error.message}`);
    throw error;
  }
})();
const where =
  target.dialect === 'sqlite' ? `SQLite ${target.path}` : `PostgreSQL ${new URL(target.url).host}${new URL(target.url).pathname}`;
const log = createLogger('warn');
const now = new Date();
const pgTools = { binDir: values['pg-bin'], env: process.env };

try {
  const [command, ...rest] = positionals;
  if (command === 'status' && rest.length === 0) await status();
  else if (command === 'migrate' && rest.length === 0) await migrate();
  else if (command === 'backup' && rest.length === 0) await backup();
  else if (command === 'restore' && rest.length === 1) await restore(rest[0]!);
  else fail(USAGE);
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}

async function status(): Promise<void> {
  if (target.dialect === 'sqlite' && !existsSync(target.path)) {
    say(`${where}: no store yet (the first start or db:migrate creates it)`);
    return;
  }
  const database = await connectDatabase(target, log);
  try {
    const states = await migrationStates(database.db as Kysely<unknown>);
    say(where);
    for (const { name, state, appliedAt } of states) {
      const note = state === 'newer' ? '  (applied by a newer release)' : '';
      process.stdout.write(`${state.padEnd(8)} ${appliedAt?.toISOString() ?? '-'.padEnd(24)}  ${name}${note}\n`);
    }
    const count = (state: string) => states.filter((s) => s.state === state).length;
    say(`${count('applied')} applied, ${count('pending')} pending${count('newer') ? `, ${count('newer')} from a newer release` : ''}`);
  } finally {
    await database.close();
  }
}

async function migrate(): Promise<void> {
  const database = await connectDatabase(target, log);
  const before = await migrationStates(database.db as Kysely<unknown>).finally(() => database.close());
  const pending = before.filter((s) => s.state === 'pending').map((s) => s.name);
  await (await openDatabase(target, log)).close();
  say(pending.length === 0 ? `${where}: up to date, nothing to apply` : `${where}: applied ${pending.join(', ')}`);
}

async function backup(): Promise<void> {
  const extension = target.dialect === 'sqlite' ? 'db' : 'dump';
  const to = values.to ?? join('backup', `tenpo-${appEnv}-${stamp(now)}.${extension}`);
  const result = await backupStore(target, to, log, pgTools);
  say(`${where} → ${result.file} (${result.bytes} bytes, checked; reservation numbers up to ${result.lastNumber})`);
}

async function restore(from: string): Promise<void> {
  const given = values['last-sent-number'];
  if (given !== undefined && !/^\d{1,9}$/.test(given)) fail('--last-sent-number must be a reservation number, such as 1042');
  const result = await restoreStore(target, from, { lastSentNumber: given === undefined ? undefined : Number(given), pgTools, now }, log);
  say(`${from} → ${where}`);
  if (result.keptAside) say(`the store it replaced is kept in ${result.keptAside}`);
  say(`the next reservation is numbered after ${result.lastNumber}`);
}
