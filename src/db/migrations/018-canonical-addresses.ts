import { PostgresAdapter, sql, type Kysely, type SqlBool } from 'kysely';

/**
 * One customer, one address: the look-ups by address (a customer's request to see or erase their
 * data) and a preorder campaign's count per customer compare an address's canonical form, the
 * +tag of its local part removed and, at gmail.com and googlemail.com, its dots removed and the
 * two domains one. The indexes on `lower(email)` of migration 012 become indexes on that form, the
 * expression below (on PostgreSQL through an `instr` made here, so both databases read one
 * expression); a campaign's per-address counts are merged under the canonical address they now
 * count. The expression is written out here as it was on the day, not imported: the code that
 * queries it (src/db/address.ts) must match these indexes, and a test holds it to them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`create or replace function instr(text, text) returns integer language sql immutable strict parallel safe as 'select strpos($1, $2)'`.execute(
      db,
    );
  }
  for (const table of ['reservations', 'subscriptions'] as const) {
    await db.schema.dropIndex(`${table}_address`).execute();
    await db.schema.createIndex(`${table}_customer`).on(table).expression(canonical('email')).execute();
  }
  await db.schema.dropIndex('outbox_address').execute();
  await db.schema
    .createIndex('outbox_customer')
    .on('outbox')
    .expression(canonical('destination'))
    .where(sql.raw<SqlBool>("channel = 'email'"))
    .execute();

  const folded = canonical('email');
  await sql`insert into preorder_customers (preorder_id, email, reserved)
    select preorder_id, ${folded}, sum(reserved) from preorder_customers where ${folded} <> email group by preorder_id, ${folded}
    on conflict (preorder_id, email) do update set reserved = preorder_customers.reserved + excluded.reserved`.execute(db);
  await sql`delete from preorder_customers where ${folded} <> email`.execute(db);
  await db.schema.dropIndex('preorder_customers_address').execute();
  await db.schema.createIndex('preorder_customers_email').on('preorder_customers').column('email').execute();
}

function canonical(column: 'email' | 'destination') {
  const address = `lower(${column})`;
  const at = `instr(${address}, '@')`;
  const local = `substr(${address}, 1, ${at} - 1)`;
  const domain = `substr(${address}, ${at} + 1)`;
  const plus = `instr(${local}, '+')`;
  const untagged = `(case when ${plus} > 1 then substr(${local}, 1, ${plus} - 1) else ${local} end)`;
  return sql.raw(
    `(case when ${at} = 0 then ${address} when ${domain} in ('gmail.com', 'googlemail.com') then replace(${untagged}, '.', '') || '@gmail.com' else ${untagged} || '@' || ${domain} end)`,
  );
}
