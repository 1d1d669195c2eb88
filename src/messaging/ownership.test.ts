import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { test } from 'node:test';

// Messaging owns its tables and shows the domains its top-level files only (README.md): the rest of
// the service tells it what happened and reads its figures, and never builds, reads or deletes a
// message itself. Tests may look at any table; db/ declares and migrates every table.

const SRC = new URL('../', import.meta.url);

/** Every non-test TypeScript file under src/, as a path relative to it. */
function sourceFiles(): string[] {
  return (readdirSync(SRC, { recursive: true }) as string[])
    .map((path) => path.split('\\').join('/'))
    .filter((path) => path.endsWith('.ts') && !path.endsWith('.test.ts'));
}

const read = (path: string) => readFileSync(new URL(path, SRC), 'utf8');

/** A messaging table named in a query: as a Kysely table name, or in raw SQL. */
const TABLE_USE = /['"`](?:outbox|email_template_versions)\b|\b(?:from|into|update|join)\s+(?:outbox|email_template_versions)\b/;

test('nothing outside src/messaging reads or writes the outbox or the email templates’ table', () => {
  const files = sourceFiles().filter((path) => !path.startsWith('messaging/') && !path.startsWith('db/'));
  assert.ok(files.length > 100, 'the scan sees the tree');
  assert.deepEqual(
    files.filter((path) => TABLE_USE.test(read(path))),
    [],
  );
});

/** The domains: they call messaging's top-level files (messaging.ts, links.ts, …), never what is in its folders. */
const DOMAINS = ['reservations/', 'subscriptions/', 'personal-data/', 'dashboard/', 'records/', 'preorders/', 'idempotency/'];

test('the domains import only messaging’s top-level files', () => {
  const reachingIn: string[] = [];
  for (const path of sourceFiles().filter((file) => DOMAINS.some((domain) => file.startsWith(domain)))) {
    for (const [, specifier] of read(path).matchAll(/\bfrom\s+['"](\.[^'"]+)['"]/g)) {
      const target = posix.join(posix.dirname(path), specifier!);
      if (target.startsWith('messaging/') && target.split('/').length > 2) reachingIn.push(`${path} → ${target}`);
    }
  }
  assert.deepEqual(reachingIn, []);
});
