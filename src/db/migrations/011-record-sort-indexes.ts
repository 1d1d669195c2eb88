import { sql, type Kysely, type SqlBool } from 'kysely';

/**
 * The lists' sortable columns: for each one, an index in that column's order with the id
 * as the tie-break, over the active records and over the archived ones (partial, as 001's), so a
 * page of any sort is read in index order, not sorted from every row. The default orders (newest
 * first, most recently archived first) have theirs since 001.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const sorts = {
    reservations: ['created_at', 'updated_at', 'name', 'product_slug', 'status'],
    subscriptions: ['created_at', 'updated_at', 'email', 'product_slug', 'status'],
  };
  for (const [table, columns] of Object.entries(sorts)) {
    for (const [list, where] of [
      ['active', 'archived_at is null'],
      ['archived', 'archived_at is not null'],
    ] as const) {
      for (const column of columns) {
        // 001's active_created is (created_at desc, id desc) already.
        if (list === 'active' && column === 'created_at') continue;
        await db.schema
          .createIndex(`${table}_${list}_sort_${column}`)
          .on(table)
          .columns([column, 'id'])
          .where(sql.raw<SqlBool>(where))
          .execute();
      }
    }
  }
}
