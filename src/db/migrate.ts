import type { Kysely } from 'kysely';
import { Migrator, type Migration } from 'kysely/migration';
import * as initial from './migrations/001-initial.ts';
import * as outboxRecord from './migrations/002-outbox-record.ts';

/** Every migration, in order. A new one is a new file here, never an edit to a shipped one. */
const migrations: Record<string, Migration> = {
  '001-initial': initial,
  '002-outbox-record': outboxRecord,
};

/**
 * Brings the schema up to date. Safe to run from several instances at once: Kysely takes a lock
 * (an advisory lock on PostgreSQL) so one runs the migrations and the others find them done.
 */
export async function migrateToLatest(db: Kysely<unknown>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error) {
    const failed = results.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  return results.filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
