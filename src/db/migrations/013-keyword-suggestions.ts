import { sql, type Kysely, type SqlBool } from 'kysely';

/**
 * Who searched what, for search suggestions: a keyword is suggested only once at least three
 * different clients searched it with results, so one visitor cannot put words in every shopper's
 * suggestion list. `keyword_clients` holds one row per keyword and client (the client's address
 * as a keyed hash, never the address itself) with the time of its latest such search;
 * `keyword_suggestions` one row per keyword with how many clients of `keyword_clients` searched it
 * and how often, kept up to date by the same writes, so suggestions are read from the few rows
 * with three clients or more (a partial index) instead of grouping the log. Only keywords that may
 * be suggested at all are recorded (a few words, each in the search index).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('keyword_clients')
    .addColumn('keyword', 'text', (c) => c.notNull())
    .addColumn('client', 'text', (c) => c.notNull())
    .addColumn('last_searched_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('keyword_clients_pk', ['keyword', 'client'])
    .execute();
  await db.schema.createIndex('keyword_clients_last_searched').on('keyword_clients').column('last_searched_at').execute();
  await db.schema
    .createTable('keyword_suggestions')
    .addColumn('keyword', 'text', (c) => c.primaryKey())
    .addColumn('clients', 'integer', (c) => c.notNull())
    .addColumn('searches', 'integer', (c) => c.notNull())
    .addColumn('last_searched_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('keyword_suggestions_offered')
    .on('keyword_suggestions')
    .columns(['searches desc', 'keyword'])
    .where(sql.raw<SqlBool>('clients >= 3'))
    .execute();
}
