import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';

// The console is browser code the service serves built; the service never runs it. So no module
// outside this folder imports from it: words both sides use live in src/words/.

const SRC = join(import.meta.dirname, '..');
const CONSOLE = import.meta.dirname;
/** Every module specifier: static imports and re-exports, and dynamic imports. */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|^import\s*)(['"])(\.{1,2}\/[^'"]+)\1/gm;

test('no module outside src/console imports from it', () => {
  const offenders: string[] = [];
  for (const file of readdirSync(SRC, { recursive: true, encoding: 'utf8' })) {
    const path = join(SRC, file);
    if (!file.endsWith('.ts') || path.startsWith(CONSOLE)) continue;
    for (const [, , specifier] of readFileSync(path, 'utf8').matchAll(SPECIFIER)) {
      if (resolve(dirname(path), specifier!).startsWith(CONSOLE)) offenders.push(`${relative(SRC, path)} imports ${specifier}`);
    }
  }
  assert.deepEqual(offenders, []);
});

test('the scan finds an import into the console where there is one', () => {
  const text = "import { h } from '../console/ui/dom.ts';\nconst s = await import('../console/screen.ts');";
  assert.deepEqual(
    [...text.matchAll(SPECIFIER)].map((m) => m[2]),
    ['../console/ui/dom.ts', '../console/screen.ts'],
  );
});
