import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { test } from 'node:test';

// Messaging shows the domains its top-level files only (README.md): the rest of the service tells it
// what happened and reads its figures, never reaching into its parts. (That no one else queries its
// tables is src/db/table-owners.test.ts's to hold, as for every table.)

const SRC = new URL('../', import.meta.url);

/** Every non-test TypeScript file under src/, as a path relative to it. */
function sourceFiles(): string[] {
  return (readdirSync(SRC, { recursive: true }) as string[])
    .map((path) => path.split('\\').join('/'))
    .filter((path) => path.endsWith('.ts') && !path.endsWith('.test.ts'));
}

const read = (path: string) => readFileSync(new URL(path, SRC), 'utf8');

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
