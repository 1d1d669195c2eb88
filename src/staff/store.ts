import { sql, type Kysely, type Selectable, type Updateable } from 'kysely';
import type { Dialect } from '../db/database.ts';
import type { StaffRow, StaffSessionRow, Tables } from '../db/schema.ts';

// The SQL of the staff accounts and their sessions (migration 019). Only this folder reads or
// writes these tables.

export type Staff = Selectable<StaffRow>;

/** The form an address is compared in: one account per address, whatever its case. */
export const emailKey = (email: string) => email.trim().toLowerCase();

export async function insertStaff(db: Kysely<Tables>, row: Staff): Promise<void> {
  await db.insertInto('staff').values(row).execute();
}

/** Every account, the oldest first. */
export async function listStaff(db: Kysely<Tables>): Promise<Staff[]> {
  return db.selectFrom('staff').selectAll().orderBy('created_at').orderBy('id').execute();
}

export async function findStaff(db: Kysely<Tables>, id: string): Promise<Staff | undefined> {
  return db.selectFrom('staff').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The names of these accounts, by id (a record's history names who made each change). */
export async function staffNames(db: Kysely<Tables>, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('staff').select(['id', 'name']).where('id', 'in', ids).execute();
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** The account with this address, compared case-insensitively (read through the unique index on lower(email)). */
export async function findStaffByEmail(db: Kysely<Tables>, email: string): Promise<Staff | undefined> {
  return db
    .selectFrom('staff')
    .selectAll()
    .where(sql`lower(email)`, '=', emailKey(email))
    .executeTakeFirst();
}

/**
 * The account, locked until the transaction ends (PostgreSQL; SQLite's one connection runs one
 * transaction at a time), so two changes to it cannot both pass a check the other invalidates.
 */
export async function findStaffForUpdate(trx: Kysely<Tables>, dialect: Dialect, id: string): Promise<Staff | undefined> {
  let query = trx.selectFrom('staff').selectAll().where('id', '=', id);
  if (dialect === 'postgres') query = query.forUpdate();
  return query.executeTakeFirst();
}

/**
 * The enabled owners' ids, each locked until the transaction ends (PostgreSQL), so that two owners
 * demoting or disabling each other at once cannot both see the other still there: the second waits
 * for the first, and then reads the owners as the first left them.
 */
export async function enabledOwnersForUpdate(trx: Kysely<Tables>, dialect: Dialect): Promise<string[]> {
  let query = trx.selectFrom('staff').select('id').where('role', '=', 'owner').where('disabled', '=', 0).orderBy('id');
  if (dialect === 'postgres') query = query.forUpdate();
  return (await query.execute()).map((row) => row.id);
}

export async function updateStaffRow(trx: Kysely<Tables>, id: string, changes: Updateable<StaffRow>): Promise<Staff> {
  return trx.updateTable('staff').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** A session with what a request needs of its account: one read by the session's key and the account's. */
export interface SessionWithStaff extends Selectable<StaffSessionRow> {
  name: string;
  role: string;
  disabled: number;
}

export async function insertSession(db: Kysely<Tables>, row: Selectable<StaffSessionRow>): Promise<void> {
  await db.insertInto('staff_sessions').values(row).execute();
}

export async function findSession(db: Kysely<Tables>, id: string): Promise<SessionWithStaff | undefined> {
  return db
    .selectFrom('staff_sessions as s')
    .innerJoin('staff as a', 'a.id', 's.staff_id')
    .select(['s.id', 's.staff_id', 's.created_at', 's.last_seen_at', 'a.name', 'a.role', 'a.disabled'])
    .where('s.id', '=', id)
    .executeTakeFirst();
}

export async function touchSession(db: Kysely<Tables>, id: string, at: string): Promise<void> {
  await db.updateTable('staff_sessions').set({ last_seen_at: at }).where('id', '=', id).execute();
}

export async function deleteSession(db: Kysely<Tables>, id: string): Promise<void> {
  await db.deleteFrom('staff_sessions').where('id', '=', id).execute();
}

/** Ends every session of an account, but the one `keep` names (the request's own, when it changes its own password). */
export async function deleteSessionsOf(db: Kysely<Tables>, staffId: string, keep: string | null = null): Promise<void> {
  let query = db.deleteFrom('staff_sessions').where('staff_id', '=', staffId);
  if (keep !== null) query = query.where('id', '!=', keep);
  await query.execute();
}

/** Deletes an account's sessions that are over: idle since `idleBefore`, or begun before `begunBefore`. */
export async function deleteEndedSessionsOf(db: Kysely<Tables>, staffId: string, idleBefore: string, begunBefore: string): Promise<void> {
  await db
    .deleteFrom('staff_sessions')
    .where('staff_id', '=', staffId)
    .where(({ or, eb }) => or([eb('last_seen_at', '<', idleBefore), eb('created_at', '<', begunBefore)]))
    .execute();
}
