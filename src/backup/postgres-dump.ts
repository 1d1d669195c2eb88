import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sql, type Kysely } from 'kysely';
import type { Tables } from '../db/schema.ts';

// The PostgreSQL store's backup and restore, by PostgreSQL's own pg_dump and pg_restore (custom
// format). pg_dump refuses a server of a newer major version than its own, and the machine's may be
// older than the server (Debian 12 ships 15), so the tools are picked by version, and a missing one
// is named with the package that brings it.

interface PgTool {
  path: string;
  major: number;
}

/** Where the tools are and the environment they run in (the command's own: PATH, PG* variables). */
export interface PgTools {
  binDir?: string;
  env: NodeJS.ProcessEnv;
}

/** A connection URL's password travels in PGPASSWORD, never on a command line every user can read. */
function connection(url: string, tools: PgTools): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return { dbname: parsed.href, env: password ? { ...tools.env, PGPASSWORD: password } : tools.env };
}

async function serverMajor(db: Kysely<Tables>): Promise<number> {
  const { rows } = await sql<{ server_version_num: string }>`show server_version_num`.execute(db);
  return Math.floor(Number(rows[0]!.server_version_num) / 10_000);
}

/** Every copy of `program` found: in `binDir` if given, else in Debian's /usr/lib/postgresql/<major>/bin and on PATH. */
function candidates(program: 'pg_dump' | 'pg_restore', binDir: string | undefined): PgTool[] {
  const paths: string[] = [];
  if (binDir) paths.push(join(binDir, program));
  else {
    const debian = '/usr/lib/postgresql';
    if (existsSync(debian)) for (const version of readdirSync(debian)) paths.push(join(debian, version, 'bin', program));
    paths.push(program);
  }
  return paths.flatMap((path) => {
    try {
      const printed = execFileSync(path, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
      const major = Number(/\)\s*(\d+)/.exec(printed)?.[1]);
      return Number.isInteger(major) ? [{ path, major }] : [];
    } catch {
      return [];
    }
  });
}

/** The oldest copy of `program` able to work with a server of major version `server`. */
function pickTool(program: 'pg_dump' | 'pg_restore', server: number, binDir: string | undefined): PgTool {
  const found = candidates(program, binDir);
  const fit = found.filter((tool) => tool.major >= server).sort((a, b) => a.major - b.major)[0];
  if (fit) return fit;
  const seen = found.length > 0 ? found.map((tool) => `${tool.major} (${tool.path})`).join(', ') : 'none';
  throw new Error(
    `${program} must be of the server's major version or newer: the server is PostgreSQL ${server}, ${program} found: ${seen}. ` +
      `Install PostgreSQL ${server}'s client tools (Debian: apt-get install postgresql-client-${server}) or name their directory with --pg-bin`,
  );
}

async function run(tool: PgTool, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  try {
    await promisify(execFile)(tool.path, args, { env, maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    const stderr = String((error as { stderr?: string }).stderr ?? '').trim();
    throw new Error(`${tool.path} failed: ${stderr || (error as Error).message}`, { cause: error });
  }
}

/** Dumps the store into `to` (custom format, 0600), then checks the dump reads. */
export async function backupPostgres(
  db: Kysely<Tables>,
  url: string,
  to: string,
  tools: PgTools,
): Promise<{ file: string; bytes: number }> {
  if (existsSync(to)) throw new Error(`${to} exists already; name a new file`);
  const tool = pickTool('pg_dump', await serverMajor(db), tools.binDir);
  const { dbname, env } = connection(url, tools);
  const umask = process.umask(0o077);
  try {
    await run(tool, ['--format=custom', '--no-owner', '--no-privileges', `--file=${to}`, `--dbname=${dbname}`], env);
  } finally {
    process.umask(umask);
  }
  chmodSync(to, 0o600);
  // Checked as a restore would first read it: pg_restore lists the archive's contents.
  await run(pickTool('pg_restore', tool.major, tools.binDir), ['--list', to], env);
  return { file: to, bytes: statSync(to).size };
}

/**
 * Restores the dump `from` in place of the store's tables, which no other session may use. The
 * tables it replaces are kept, moved into the schema `aside`; if pg_restore fails they are moved
 * back. The caller migrates the restored store and moves its count of reservation numbers on.
 */
export async function restorePostgres(db: Kysely<Tables>, url: string, from: string, aside: string, tools: PgTools): Promise<void> {
  if (!existsSync(from)) throw new Error(`there is no dump at ${from}`);
  const { rows: others } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
    where datname = current_database() and pid <> pg_backend_pid()`.execute(db);
  if (others[0]!.n > 0) throw new Error(`${others[0]!.n} other sessions use the database: stop every instance of the service first`);
  const tool = pickTool('pg_restore', await serverMajor(db), tools.binDir);
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  const schema = sql.id(rows[0]!.schema);
  await sql`alter schema ${schema} rename to ${sql.id(aside)}`.execute(db);
  await sql`create schema ${schema}`.execute(db);
  const { dbname, env } = connection(url, tools);
  try {
    await run(tool, ['--no-owner', '--no-privileges', '--single-transaction', '--exit-on-error', `--dbname=${dbname}`, from], env);
  } catch (error) {
    await sql`drop schema ${schema} cascade`.execute(db);
    await sql`alter schema ${sql.id(aside)} rename to ${schema}`.execute(db);
    throw error;
  }
}
