import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Reservation numbers, and names found as staff type them.
 *
 * `number`: what a customer quotes on the phone (1001, 1002, …), unique, increasing with creation,
 * gaps allowed. Reservations already stored are numbered in `created_at` order (ties by id) from
 * 1001. New ones are numbered by the database as they are inserted, so every instance draws on one
 * count: on PostgreSQL from the sequence `reservation_numbers` (the column's default), on SQLite by
 * a trigger from the one-row table `reservation_number_counter` (a number is never handed out
 * twice, even after the newest reservation is erased).
 *
 * `name_fold`: the name as the lists' search compares it (src/text/normalize.ts foldForMatching:
 * NFKC, lower case, Latin accents removed, hiragana as katakana, no whitespace), kept with the row
 * so a search of 50,000 reservations scans one short column instead of folding every name. The
 * fold is copied here as it was on the day, never imported, so this migration means the same in
 * every database.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema.alterTable('reservations').addColumn('number', 'integer').execute();
  await db.schema
    .alterTable('reservations')
    .addColumn('name_fold', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await sql`update reservations set number = numbered.n
    from (select id, 1000 + row_number() over (order by created_at, id) as n from reservations) as numbered
    where numbered.id = reservations.id`.execute(db);
  await db.schema.createIndex('reservations_number').on('reservations').column('number').unique().execute();
  if (postgres) {
    await sql`create sequence reservation_numbers`.execute(db);
    await sql`select setval('reservation_numbers', coalesce((select max(number) from reservations), 1000))`.execute(db);
    await sql`alter table reservations alter column number set default nextval('reservation_numbers')`.execute(db);
  } else {
    await db.schema
      .createTable('reservation_number_counter')
      .addColumn('last', 'integer', (c) => c.notNull())
      .execute();
    await sql`insert into reservation_number_counter (last) select coalesce(max(number), 1000) from reservations`.execute(db);
    await sql`create trigger reservations_numbered after insert on reservations when new.number is null begin
      update reservation_number_counter set last = last + 1;
      update reservations set number = (select last from reservation_number_counter) where rowid = new.rowid;
    end`.execute(db);
  }

  const names = db as Kysely<{ reservations: { id: string; name: string } }>;
  let after = '';
  for (;;) {
    const rows = await names.selectFrom('reservations').select(['id', 'name']).where('id', '>', after).orderBy('id').limit(1000).execute();
    if (rows.length === 0) break;
    const values = sql.join(rows.map((row) => sql`(${row.id}, ${fold(row.name)})`));
    await sql`update reservations set name_fold = folded.column2 from (values ${values}) as folded where reservations.id = folded.column1`.execute(
      db,
    );
    after = rows.at(-1)!.id;
  }
}

function fold(text: string): string {
  const normalized = text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u3041-\u3096\u309d\u309e]/g, (kana) => String.fromCharCode(kana.charCodeAt(0) + 0x60));
  return normalized
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .normalize('NFC')
    .replace(/\s+/gu, '');
}
