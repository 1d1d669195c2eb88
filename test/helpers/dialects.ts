import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { DatabaseTarget } from '../../src/config.ts';
import type { Tables } from '../../src/db/schema.ts';
import { openSqlite } from '../../src/db/sqlite-adapter.ts';
import { createTestDatabase } from './postgres.ts';

export type Dialect = 'sqlite' | 'postgres';

/**
 * The storage dialects tests run on: both under `npm test`; SQLite alone under `npm run test:fast`
 * (TENPO_TEST_SQLITE_ONLY=1), which starts no PostgreSQL and leaves those cases to `npm test`.
 */
export const DIALECTS: Dialect[] = process.env.TENPO_TEST_SQLITE_ONLY === '1' ? ['sqlite'] : ['sqlite', 'postgres'];

/** Where a fresh, empty store of `dialect` can be opened: a new SQLite file in a temp dir, or a new PostgreSQL database. */
export async function freshTarget(dialect: Dialect): Promise<DatabaseTarget> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'tenpo-store-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    return { dialect, path: join(dir, 'tenpo.db') };
  }
  return { dialect, url: await createTestDatabase() };
}

/** A Kysely on a fresh, empty store of `dialect` (no migrations run), for tests of the schema itself. */
export async function openFreshStore(dialect: Dialect): Promise<Kysely<Tables>> {
  const target = await freshTarget(dialect);
  return new Kysely<Tables>({
    dialect:
      target.dialect === 'sqlite'
        ? new SqliteDialect({ database: openSqlite(target.path) })
        : new PostgresDialect({ pool: new pg.Pool({ connectionString: target.url }) }),
  });
}
