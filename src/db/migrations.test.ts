import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

// A migration holds its own data. One that imported the code's constants (default texts, lists of
// kinds) would write something else into every database made after that code changed, so the
// same migration would mean different things in different databases.

const MIGRATIONS = new URL('./migrations/', import.meta.url);

test('every migration imports only kysely: what it writes is written in it', () => {
  const files = readdirSync(MIGRATIONS).filter((name) => name.endsWith('.ts'));
  assert.ok(files.length >= 12);
  for (const file of files) {
    const source = readFileSync(new URL(file, MIGRATIONS), 'utf8');
    const imported = [...source.matchAll(/\b(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)].map((match) => match[1]);
    assert.deepEqual(
      imported.filter((specifier) => specifier !== 'kysely'),
      [],
      `${file} imports only kysely`,
    );
  }
});
