import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { Dialect } from '../db/database.ts';
import type { Tables } from '../db/schema.ts';
import type { RecordColumns, RecordRow, RecordTable } from './record-rows.ts';

// The SQL every record table shares (listing, locking for a status move, archiving), written once
// against the columns they have in common.

/** The record tables seen through their shared columns only. */
function records(db: Kysely<Tables>): Kysely<Record<RecordTable, RecordColumns>> {
  return db as unknown as Kysely<Record<RecordTable, RecordColumns>>;
}

/** selectAll() returns every column of `table`; the shared-column view above only types six of them. */
function asRows<T extends RecordTable>(rows: RecordColumns[]): RecordRow<T>[] {
  return rows as RecordRow<T>[];
}

export interface RecordFilter {
  productSlug?: string;
  status?: string;
}

/**
 * A list's filter: a status, a product, and a search of `text` (folded: text/normalize.ts
 * foldForMatching) in any of `columns` (folded as they are stored), or of a reservation by `number`.
 */
export interface ActiveFilter extends RecordFilter {
  search?: { text: string; columns: readonly string[]; number?: number };
}

/** `%`, `_` and the escape character itself, escaped so that LIKE matches them literally. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

function activeRows(db: Kysely<Tables>, table: RecordTable, filter: ActiveFilter) {
  return matchingRows(db, table, filter, false);
}

/** The active (or, `archived`, the archived) records the filter matches. */
function matchingRows(db: Kysely<Tables>, table: RecordTable, filter: ActiveFilter, archived: boolean) {
  let query = records(db)
    .selectFrom(table)
    .where('archived_at', archived ? 'is not' : 'is', null);
  if (filter.status) query = query.where('status', '=', filter.status);
  if (filter.productSlug) query = query.where('product_slug', '=', filter.productSlug);
  const { search } = filter;
  if (search) {
    // The text is folded already, and so are the columns as stored (a name's fold, the lowercased
    // address and id; lower() for addresses an import left in capitals). No index serves a
    // substring match; the scan is of one list's rows, one short column each (bench/admin-console-lists.ts).
    const pattern = `%${likeLiteral(search.text)}%`;
    query = query.where(({ or }) =>
      or([
        ...search.columns.map((column) => sql<SqlBool>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`),
        ...(search.number === undefined ? [] : [sql<SqlBool>`number = ${search.number}`]),
      ]),
    );
  }
  return query;
}

/**
 * The exact number searched for first, whatever the order: a customer quoting 1003 means #1003, and
 * the rows whose id or address merely contains those digits follow. No term without a number.
 */
function exactNumberFirst<Q extends { orderBy(expression: RawBuilder<number>): Q }>(query: Q, filter: ActiveFilter): Q {
  const number = filter.search?.number;
  return number === undefined ? query : query.orderBy(sql<number>`case when number = ${number} then 0 else 1 end`);
}

/** A list's order: a column of the record table (one the lists sort by, each indexed with the id), ties by id the same way. */
export interface RowOrder {
  column: string;
  direction: 'asc' | 'desc';
}

/**
 * Active records in `order` (ties by id), filtered, all of them or one page. A page is found by its
 * ids first, from the sort's index alone, and only its rows are read: an OFFSET deep into the list
 * then passes over index entries, not over table rows (bench/admin-console-lists.ts).
 */
export async function listActiveRows<T extends RecordTable>(
  db: Kysely<Tables>,
  table: T,
  filter: ActiveFilter,
  order: RowOrder,
  page?: { limit: number; offset: number },
): Promise<RecordRow<T>[]> {
  const [by, direction] = [sql.ref(order.column), order.direction];
  const matching = activeRows(db, table, filter);
  if (!page)
    return asRows<T>(
      await matching
        .selectAll()
        .$call((q) => exactNumberFirst(q, filter))
        .orderBy(by, direction)
        .orderBy('id', direction)
        .execute(),
    );
  const pageIds = matching
    .select('id')
    .$call((q) => exactNumberFirst(q, filter))
    .orderBy(by, direction)
    .orderBy('id', direction)
    .limit(page.limit)
    .offset(page.offset);
  const shared: RecordTable = table;
  return asRows<T>(
    await records(db)
      .selectFrom(shared)
      .selectAll()
      .where('id', 'in', pageIds)
      .$call((q) => exactNumberFirst(q, filter))
      .orderBy(by, direction)
      .orderBy('id', direction)
      .execute(),
  );
}

/** Where a keyset read stopped: the last record's value of the order's column, and its id. */
export interface KeysetPosition {
  value: string;
  id: string;
}

/**
 * The next `limit` records after `after` in `order` (ties by id), active or archived, filtered: a
 * keyset read, which starts each batch where the index left off instead of skipping rows as
 * OFFSET does, so the last batch of a long export costs what the first did. Every sort column is
 * NOT NULL where it is read (archived_at among the archived), so a row value compares them all.
 */
export async function recordsAfter<T extends RecordTable>(
  db: Kysely<Tables>,
  table: T,
  filter: ActiveFilter,
  archived: boolean,
  order: RowOrder,
  after: KeysetPosition | undefined,
  limit: number,
): Promise<RecordRow<T>[]> {
  let query = matchingRows(db, table, filter, archived).selectAll();
  if (after)
    query = query.where(
      sql<SqlBool>`(${sql.ref(order.column)}, id) ${sql.raw(order.direction === 'desc' ? '<' : '>')} (${after.value}, ${after.id})`,
    );
  return asRows<T>(await query.orderBy(sql.ref(order.column), order.direction).orderBy('id', order.direction).limit(limit).execute());
}

/** How many active records the filter matches. */
export async function countActiveRows(db: Kysely<Tables>, table: RecordTable, filter: ActiveFilter): Promise<number> {
  const counted = await activeRows(db, table, filter)
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .executeTakeFirstOrThrow();
  return Number(counted.total);
}

/** The record with this id, archived or not. */
export async function findRecord<T extends RecordTable>(db: Kysely<Tables>, table: T, id: string): Promise<RecordRow<T> | undefined> {
  const shared: RecordTable = table;
  const row = await records(db).selectFrom(shared).selectAll().where('id', '=', id).executeTakeFirst();
  return row && asRows<T>([row])[0];
}

/** The record with this id, locked until the transaction ends on PostgreSQL. */
export async function findRecordForUpdate<T extends RecordTable>(
  db: Kysely<Tables>,
  dialect: Dialect,
  table: T,
  id: string,
): Promise<RecordRow<T> | undefined> {
  const shared: RecordTable = table;
  let query = records(db).selectFrom(shared).selectAll().where('id', '=', id);
  if (dialect === 'postgres') query = query.forUpdate();
  const row = await query.executeTakeFirst();
  return row && asRows<T>([row])[0];
}

export interface ArchiveState {
  id: string;
  productSlug: string;
  archivedAt: string | null;
}

/** The archive state of the records with these ids; locked until the transaction ends on PostgreSQL. */
export async function findArchiveStates(db: Kysely<Tables>, dialect: Dialect, table: RecordTable, ids: string[]): Promise<ArchiveState[]> {
  if (ids.length === 0) return [];
  let query = records(db).selectFrom(table).select(['id', 'product_slug', 'archived_at']).where('id', 'in', ids);
  if (dialect === 'postgres') query = query.forUpdate();
  const rows = await query.execute();
  return rows.map((row) => ({ id: row.id, productSlug: row.product_slug, archivedAt: row.archived_at }));
}

/** Archives (`archivedAt` an ISO time) or unarchives (`null`) the records with these ids, changed at `now`. */
export async function setArchivedAt(
  db: Kysely<Tables>,
  table: RecordTable,
  ids: string[],
  archivedAt: string | null,
  now: string,
): Promise<void> {
  if (ids.length === 0) return;
  await records(db).updateTable(table).set({ archived_at: archivedAt, updated_at: now }).where('id', 'in', ids).execute();
}

/** One page of archived records in `order` (ties by id), and how many match. */
export async function listArchivedRows<T extends RecordTable>(
  db: Kysely<Tables>,
  table: T,
  filter: ActiveFilter,
  order: RowOrder,
  page: { limit: number; offset: number } | undefined,
): Promise<{ rows: RecordRow<T>[]; total: number }> {
  const matching = matchingRows(db, table, filter, true);
  const counted = await matching.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const total = Number(counted.total);
  if (!page || total === 0) return { rows: [], total };
  const rows = await matching
    .selectAll()
    .$call((q) => exactNumberFirst(q, filter))
    .orderBy(sql.ref(order.column), order.direction)
    .orderBy('id', order.direction)
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return { rows: asRows<T>(rows), total };
}

/**
 * Records that must be unique among the active ones while they hold `status` (a pending
 * subscription: one per address and product), keyed by `columns`; the partial unique index behind
 * the rule refuses a second one.
 */
export interface UniqueWhileActive {
  status: string;
  columns: readonly string[];
}

/**
 * For each of these ids whose record holds the rule's status: its key (its `columns`' values), and
 * whether another active record with that status holds the key already.
 */
export async function uniqueKeys(
  db: Kysely<Tables>,
  table: RecordTable,
  ids: string[],
  rule: UniqueWhileActive,
): Promise<Map<string, { key: string; taken: boolean }>> {
  if (ids.length === 0) return new Map();
  const sameKey = sql.join(
    rule.columns.map((column) => sql`a.${sql.ref(column)} = s.${sql.ref(column)}`),
    sql` and `,
  );
  const { rows } = await sql<Record<string, unknown> & { id: string; taken: unknown }>`
    select s.*, exists (
      select 1 from ${sql.table(table)} a
      where ${sameKey} and a.status = ${rule.status} and a.archived_at is null and a.id <> s.id
    ) as taken
    from ${sql.table(table)} s
    where s.id in (${sql.join(ids)}) and s.status = ${rule.status}`.execute(db);
  // SQLite answers EXISTS with 0 or 1, PostgreSQL with a boolean.
  return new Map(
    rows.map((row) => [row.id, { key: rule.columns.map((column) => String(row[column])).join('\n'), taken: Boolean(row.taken) }]),
  );
}

/** Which table holds a record: its id says (`res_…` a reservation, `ntf_…` a subscription). */
const TABLE_OF_PREFIX: Record<string, RecordTable> = { res_: 'reservations', ntf_: 'subscriptions' };

/** The status each of these records holds now, by id, read from the table its id names; an id of no record is absent. */
export async function recordStatuses(db: Kysely<Tables>, ids: string[]): Promise<Map<string, string>> {
  const statuses = new Map<string, string>();
  const byTable = Map.groupBy(ids, (id) => TABLE_OF_PREFIX[id.slice(0, 4)]);
  for (const [table, tableIds] of byTable) {
    if (table === undefined) continue;
    const rows = await records(db).selectFrom(table).select(['id', 'status']).where('id', 'in', tableIds).execute();
    for (const row of rows) statuses.set(row.id, row.status);
  }
  return statuses;
}

export interface StatusCount {
  status: string;
  total: number;
  archived: number;
}

/** Records of a kind per status, all of them and the archived ones (`count(archived_at)` counts those set). */
export async function countByStatus(db: Kysely<Tables>, table: RecordTable): Promise<StatusCount[]> {
  const rows = await records(db)
    .selectFrom(table)
    .select((eb) => ['status', eb.fn.countAll<number>().as('total'), eb.fn.count<number>('archived_at').as('archived')])
    .groupBy('status')
    .execute();
  return rows.map((row) => ({ status: row.status, total: Number(row.total), archived: Number(row.archived) }));
}
