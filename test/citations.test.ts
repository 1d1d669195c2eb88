import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

// The code and the docs explain themselves with what this repository holds: a comment or a page says
// the behaviour, never "see section 9 of a document" or "as issue 16 asked", which a reader of the
// repository does not have. Public standards are fine (RFC 9110 §11.1). This test lists every line
// that cites something else.

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SCANNED = ['src', 'test', 'bench', 'scripts', 'docs', '.ci'];
const FILES = ['README.md', '.oxlintrc.json', '.env.example', 'package.json'];
/** Tests whose inputs are such citations, to check how they are handled. */
const FIXTURES = new Set(['test/docs-links.test.ts', 'test/citations.test.ts']);

const CITATIONS: { pattern: RegExp; what: string }[] = [
  { pattern: new RegExp(String.raw`\bSP` + String.raw`EC\b`), what: 'the contract document' },
  { pattern: /(?<!RFC \d{3,5} )(?<!RFC \d{3,5}, )§\s?\d/, what: 'a section of a document not in the repository' },
  { pattern: new RegExp(String.raw`\biss` + String.raw`ues? #?\d+`, 'i'), what: 'an issue of the tracker' },
  { pattern: new RegExp(String.raw`\.\./sh` + 'ared\\b'), what: 'a file outside the repository' },
];

function files(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'fixtures' ? [] : files(path);
    return /\.(ts|md|json|css|sh)$/.test(entry.name) || dir === '.ci' ? [path] : [];
  });
}

test('no comment, doc or message cites a document or an issue the repository does not hold', () => {
  const found: string[] = [];
  for (const path of [...SCANNED.flatMap(files), ...FILES]) {
    const name = relative(ROOT, join(ROOT, path));
    if (FIXTURES.has(name)) continue;
    readFileSync(join(ROOT, path), 'utf8')
      .split('\n')
      .forEach((line, i) => {
        for (const { pattern, what } of CITATIONS)
          if (pattern.test(line)) found.push(`${name}:${i + 1} cites ${what}: ${line.trim().slice(0, 120)}`);
      });
  }
  assert.deepEqual(found, []);
});
