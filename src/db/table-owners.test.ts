import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import type { Tables } from './schema.ts';

// Each table has one owning module, the only one that reads or writes it: the others call that
// module's functions (docs/architecture.md, "Who owns which table"). db/ declares and migrates every
// table; backup/ checks a copy of a store (never the live one) by counting its reservations; tests
// may look anywhere.

const OWNERS: Record<keyof Tables, string> = {
  reservations: 'reservations/',
  subscriptions: 'subscriptions/',
  keyword_logs: 'keyword-log/',
  keyword_log_hours: 'keyword-log/',
  keyword_hours: 'keyword-log/',
  keyword_clients: 'keyword-log/',
  keyword_suggestions: 'keyword-log/',
  outbox: 'messaging/',
  email_template_versions: 'messaging/',
  email_events: 'messaging/',
  email_suppressions: 'messaging/',
  preorders: 'preorders/',
  preorder_customers: 'preorders/',
  idempotency_keys: 'idempotency/',
  record_history: 'records/',
  shop_settings: 'shop/',
  staff: 'staff/',
  staff_sessions: 'staff/',
};

const SRC = new URL('../', import.meta.url);
const SOURCES = (readdirSync(SRC, { recursive: true }) as string[])
  .map((path) => path.split('\\').join('/'))
  .filter((path) => path.endsWith('.ts') && !path.endsWith('.test.ts') && !path.startsWith('db/') && !path.startsWith('backup/'))
  .map((path) => ({ path, text: readFileSync(new URL(path, SRC), 'utf8') }));

/** A query naming the table: Kysely's builders, or SQL text. */
const queryOf = (table: string) =>
  new RegExp(
    `\\b(?:selectFrom|insertInto|updateTable|deleteFrom|innerJoin|leftJoin)\\(\\s*['"]${table}['"]|\\b(?:from|into|update|join)\\s+"?${table}\\b`,
    'i',
  );

test('every table of the schema has an owner, and every owner is a module of src/', () => {
  const declared = readFileSync(new URL('schema.ts', import.meta.url), 'utf8');
  const tables = [...declared.slice(declared.indexOf('export interface Tables')).matchAll(/^ {2}(\w+): \w+Row;$/gm)].map((m) => m[1]);
  assert.deepEqual(tables.sort(), Object.keys(OWNERS).sort());
  for (const owner of new Set(Object.values(OWNERS)))
    assert.ok(
      SOURCES.some(({ path }) => path.startsWith(owner)),
      owner,
    );
});

test('only its owning module reads or writes a table', () => {
  const trespassing = Object.entries(OWNERS).flatMap(([table, owner]) =>
    SOURCES.filter(({ path, text }) => !path.startsWith(owner) && queryOf(table).test(text)).map(({ path }) => `${table} in ${path}`),
  );
  assert.deepEqual(trespassing, []);
});

test('the scan finds a query of a table, in either form', () => {
  assert.ok(queryOf('reservations').test("db.selectFrom('reservations').selectAll()"));
  assert.ok(queryOf('reservations').test('sql`delete from reservations where id = ${id}`'));
  assert.ok(!queryOf('reservations').test("'/api/admin-reservations-list'"));
  assert.ok(!queryOf('staff').test("db.selectFrom('staff_sessions')"));
});
