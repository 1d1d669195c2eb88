import { PostgresAdapter, sql, type Kysely, type Selectable } from 'kysely';
import { atAddress } from '../db/address.ts';
import type { ReservationRow, Tables } from '../db/schema.ts';
import { foldForMatching } from '../text/normalize.ts';

// The reservations table's own SQL (listing, locking and archiving are in src/records/store.ts,
// shared with subscriptions).

export type Reservation = Selectable<ReservationRow>;

export type NewReservationRow = Omit<
  Reservation,
  'notes' | 'responded_at' | 'archived_at' | 'updated_at' | 'preorder_id' | 'number' | 'name_fold'
> & {
  preorder_id?: string | null;
};

/** Inserts the reservations (their names folded for the lists' search); the number the database gave each, by id. */
export async function insertReservations(db: Kysely<Tables>, rows: NewReservationRow[]): Promise<Map<string, number>> {
  if (rows.length === 0) return new Map();
  const inserted = await db
    .insertInto('reservations')
    .values(rows.map((row) => ({ ...row, name_fold: foldForMatching(row.name), updated_at: row.created_at })))
    .returning(['id', 'number'])
    .execute();
  // PostgreSQL numbers a row as it is inserted (the column's default), so the insert returns it; on
  // SQLite a trigger numbers it after the insert, which RETURNING does not see, so it is read back.
  const numbers = new Map<string, number>();
  const unnumbered: string[] = [];
  for (const { id, number } of inserted as { id: string; number: number | null }[]) {
    if (number === null) unnumbered.push(id);
    else numbers.set(id, Number(number));
  }
  for (const [id, number] of await numbersOf(db, unnumbered)) numbers.set(id, number);
  return numbers;
}

/** Inserts one reservation; the number the database gave it. */
export async function insertReservation(db: Kysely<Tables>, row: NewReservationRow): Promise<number> {
  return (await insertReservations(db, [row])).get(row.id)!;
}

/** The number and name of these reservations, by id (ids not found are absent): how staff know them. */
export async function reservationNames(db: Kysely<Tables>, ids: string[]): Promise<Map<string, { number: number; name: string }>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('reservations').select(['id', 'number', 'name']).where('id', 'in', ids).execute();
  return new Map(rows.map((row) => [row.id, { number: Number(row.number), name: row.name }]));
}

/** The numbers of these reservations, by id (ids not found are absent). */
export async function numbersOf(db: Kysely<Tables>, ids: string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('reservations').select(['id', 'number']).where('id', 'in', ids).execute();
  return new Map(rows.map((row) => [row.id, Number(row.number)]));
}

export async function updateReservation(
  db: Kysely<Tables>,
  id: string,
  changes: Partial<Pick<Reservation, 'status' | 'notes' | 'responded_at'>> & Pick<Reservation, 'updated_at'>,
): Promise<Reservation> {
  return db.updateTable('reservations').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** Deletes the reservation if both id and product match; what it was, or undefined when there was none. */
export async function deleteReservation(db: Kysely<Tables>, id: string, productSlug: string): Promise<Reservation | undefined> {
  return db.deleteFrom('reservations').where('id', '=', id).where('product_slug', '=', productSlug).returningAll().executeTakeFirst();
}

export async function findReservation(db: Kysely<Tables>, id: string): Promise<Reservation | undefined> {
  return db.selectFrom('reservations').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * The highest reservation number this store has given: its count's (on PostgreSQL the sequence
 * `reservation_numbers`, on SQLite the row of `reservation_number_counter`), which an erase does not
 * lower, or a stored reservation's if higher.
 */
export async function lastNumberGiven(db: Kysely<Tables>): Promise<number> {
  const counted = isPostgres(db)
    ? sql<{ last: number | string }>`select case when is_called then last_value else last_value - 1 end as last from reservation_numbers`
    : sql<{ last: number | string }>`select last from reservation_number_counter`;
  const { rows } = await counted.execute(db);
  const stored = await db
    .selectFrom('reservations')
    .select((eb) => eb.fn.max('number').as('last'))
    .executeTakeFirst();
  return Math.max(Number(rows[0]?.last ?? 1000), Number(stored?.last ?? 1000));
}

/**
 * Makes the next reservation's number come after `last` (when the store's count is behind it): after
 * a restore, so that no number the lost reservations were sent under is given again.
 */
export async function numberAfter(db: Kysely<Tables>, last: number): Promise<void> {
  if (isPostgres(db)) {
    await sql`select setval('reservation_numbers', greatest(${last}::bigint, (select case when is_called then last_value else last_value - 1 end from reservation_numbers)))`.execute(
      db,
    );
  } else {
    await sql`update reservation_number_counter set last = max(last, ${last})`.execute(db);
  }
}

function isPostgres(db: Kysely<Tables>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** The reservations at a canonical address, newest first (read through migration 018's index: db/address.ts). */
export async function reservationsAt(db: Kysely<Tables>, key: string): Promise<Reservation[]> {
  return db
    .selectFrom('reservations')
    .selectAll()
    .where(atAddress('email', key))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** Deletes the reservations at a canonical address; what they were. */
export async function deleteReservationsAt(db: Kysely<Tables>, key: string): Promise<Reservation[]> {
  return db.deleteFrom('reservations').where(atAddress('email', key)).returningAll().execute();
}

/** Per product with any reservation: how many, active and archived, and those not cancelled (the seats a campaign counts). */
export async function countReservationsByProduct(
  db: Kysely<Tables>,
): Promise<{ productSlug: string; reservations: number; notCancelled: number }[]> {
  const rows = await db
    .selectFrom('reservations')
    .select((eb) => [
      'product_slug',
      eb.fn.countAll<number>().as('count'),
      eb.fn.sum<number>(eb.case().when('status', '<>', 'cancelled').then(1).else(0).end()).as('notCancelled'),
    ])
    .groupBy('product_slug')
    .execute();
  return rows.map((row) => ({ productSlug: row.product_slug, reservations: Number(row.count), notCancelled: Number(row.notCancelled) }));
}
