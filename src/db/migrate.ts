import { sql, type Kysely } from 'kysely';
import { Migrator, type Migration } from 'kysely/migration';
import * as initial from './migrations/001-initial.ts';
import * as outboxRecord from './migrations/002-outbox-record.ts';
import * as keywordLogHours from './migrations/003-keyword-log-hours.ts';
import * as keywordHours from './migrations/004-keyword-hours.ts';
import * as recordUpdatedAt from './migrations/005-record-updated-at.ts';
import * as preorders from './migrations/006-preorders.ts';
import * as emailTemplates from './migrations/007-email-templates.ts';
import * as messageLog from './migrations/008-message-log.ts';
import * as idempotencyKeys from './migrations/009-idempotency-keys.ts';
import * as recordHistory from './migrations/010-record-history.ts';
import * as recordSortIndexes from './migrations/011-record-sort-indexes.ts';
import * as addressLookup from './migrations/012-address-lookup.ts';
import * as keywordSuggestions from './migrations/013-keyword-suggestions.ts';
import * as supersededMessages from './migrations/014-superseded-messages.ts';
import * as historyRetries from './migrations/015-history-retries.ts';
import * as shopSettings from './migrations/016-shop-settings.ts';
import * as defaultWordingWithShop from './migrations/017-default-wording-with-shop.ts';
import * as canonicalAddresses from './migrations/018-canonical-addresses.ts';
import * as staffAccounts from './migrations/019-staff-accounts.ts';
import * as historyStaff from './migrations/020-history-staff.ts';
import * as reservationNumbers from './migrations/021-reservation-numbers.ts';
import * as defaultWordingWithNumber from './migrations/022-default-wording-with-number.ts';
import * as templatesFromVersionOne from './migrations/023-templates-from-version-one.ts';
import * as emailReputation from './migrations/024-email-reputation.ts';
import * as keywordHoursByKeyword from './migrations/025-keyword-hours-by-keyword.ts';

/** Every migration, in order. A new one is a new file here, never an edit to a shipped one. */
export const MIGRATIONS: Record<string, Migration> = {
  '001-initial': initial,
  '002-outbox-record': outboxRecord,
  '003-keyword-log-hours': keywordLogHours,
  '004-keyword-hours': keywordHours,
  '005-record-updated-at': recordUpdatedAt,
  '006-preorders': preorders,
  '007-email-templates': emailTemplates,
  '008-message-log': messageLog,
  '009-idempotency-keys': idempotencyKeys,
  '010-record-history': recordHistory,
  '011-record-sort-indexes': recordSortIndexes,
  '012-address-lookup': addressLookup,
  '013-keyword-suggestions': keywordSuggestions,
  '014-superseded-messages': supersededMessages,
  '015-history-retries': historyRetries,
  '016-shop-settings': shopSettings,
  '017-default-wording-with-shop': defaultWordingWithShop,
  '018-canonical-addresses': canonicalAddresses,
  '019-staff-accounts': staffAccounts,
  '020-history-staff': historyStaff,
  '021-reservation-numbers': reservationNumbers,
  '022-default-wording-with-number': defaultWordingWithNumber,
  '023-templates-from-version-one': templatesFromVersionOne,
  '024-email-reputation': emailReputation,
  '025-keyword-hours-by-keyword': keywordHoursByKeyword,
};

const ATTEMPTS = 4;

/** A migration as the store has it: applied (when), pending, or applied by a newer release than this one. */
export interface MigrationState {
  name: string;
  state: 'applied' | 'pending' | 'newer';
  appliedAt?: Date;
}

/**
 * Brings the schema up to date; the names of the migrations it applied. Safe to run from several
 * processes at once. On PostgreSQL Kysely holds an advisory lock, so one runs the migrations and the
 * others find them done. On SQLite it takes no lock (it assumes one connection), so two processes
 * started together on one file can collide; each migration runs in a transaction, so the loser rolls
 * back and, on its next attempt, finds the work done.
 *
 * A store migrated by a newer release (one rolled back from) is left as it is: migrations only add,
 * so this release runs on the newer schema (docs/operations.md, Upgrading).
 */
export async function migrateToLatest(db: Kysely<unknown>): Promise<string[]> {
  const known = Object.keys(MIGRATIONS);
  const applied = await appliedNames(db);
  if (applied !== undefined && known.every((name, i) => applied[i] === name)) return [];
  for (let attempt = 1; ; attempt++) {
    try {
      return await migrateOnce(db);
    } catch (error) {
      if (attempt === ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt));
    }
  }
}

/** Every migration this release knows and every one the store has applied, in order, without changing anything. */
export async function migrationStates(db: Kysely<unknown>): Promise<MigrationState[]> {
  const { rows } = await sql<{ name: string; timestamp: string }>`select name, timestamp from kysely_migration order by name`
    .execute(db)
    .catch(() => ({ rows: [] }));
  const appliedAt = new Map(rows.map((row) => [row.name, new Date(row.timestamp)]));
  const known: MigrationState[] = Object.keys(MIGRATIONS).map((name) => {
    const at = appliedAt.get(name);
    return at ? { name, state: 'applied', appliedAt: at } : { name, state: 'pending' };
  });
  const newer: MigrationState[] = rows
    .filter((row) => !(row.name in MIGRATIONS))
    .map((row) => ({ name: row.name, state: 'newer', appliedAt: new Date(row.timestamp) }));
  return [...known, ...newer];
}

/**
 * The names Kysely recorded as applied, in order, in one query, where the Migrator would make sure
 * of its tables and its lock first (a fifth of a start's time went into building those queries);
 * undefined for a store without the record (a new one).
 */
async function appliedNames(db: Kysely<unknown>): Promise<string[] | undefined> {
  try {
    const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
    return rows.map((row) => row.name);
  } catch {
    return undefined;
  }
}

async function migrateOnce(db: Kysely<unknown>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => MIGRATIONS } });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const failed = results.find((r) => r.status === 'Error')?.migrationName;
    throw new Error(failed ? `migration ${failed} failed: ${reason}` : `database: ${reason}`, { cause: error });
  }
  return results.filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
