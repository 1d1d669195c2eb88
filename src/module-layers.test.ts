import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { test } from 'node:test';

// The modules of src/ (a folder, or a file at its top) form layers: imports point one way, so no two
// modules import each other, directly or around a circle; nor do two files, inside a module or across
// (docs/architecture.md, "The modules"). A type-only import counts, and so does a dynamic import().

const SRC = new URL('./', import.meta.url);
const IMPORT =
  /^\s*(?:import|export)\b[^'";]*?\bfrom\s*['"](\.[^'"]+)['"]|^\s*import\s*['"](\.[^'"]+)['"]|\bimport\(\s*['"](\.[^'"]+)['"]\s*\)/gm;

/** The relative paths a file's text imports, as written. */
const importedPaths = (text: string) => [...text.matchAll(IMPORT)].map((match) => match[1] ?? match[2] ?? match[3]!);

/** Which module a path under src/ belongs to. */
const moduleOf = (path: string) => path.split('/')[0]!.replace(/\.ts$/, '');

/** Each source file of src/ (its path under src/) and the files under src/ it imports. */
function fileImports(): Map<string, Set<string>> {
  const files = (readdirSync(SRC, { recursive: true }) as string[])
    .map((path) => path.split('\\').join('/'))
    .filter((path) => path.endsWith('.ts') && !path.endsWith('.test.ts'));
  return new Map(
    files.map((path) => [
      path,
      new Set(
        importedPaths(readFileSync(new URL(path, SRC), 'utf8'))
          .map((imported) => posix.join(posix.dirname(path), imported))
          .filter((target) => !target.startsWith('../')),
      ),
    ]),
  );
}

function moduleImports(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const [path, targets] of fileImports()) {
    if (path.includes('/migrations/')) continue;
    const from = moduleOf(path);
    const modules = graph.get(from) ?? graph.set(from, new Set()).get(from)!;
    for (const target of targets) if (moduleOf(target) !== from) modules.add(moduleOf(target));
  }
  return graph;
}

/** The groups of modules (or files) that reach each other (Tarjan's strongly connected components), of two or more. */
function circles(graph: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (stack.includes(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string;
      do group.push((member = stack.pop()!));
      while (member !== node);
      if (group.length > 1) found.push(group.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found.sort();
}

/** Each circle's members on a line, for a failure that names them. */
const named = (groups: string[][]) => groups.map((group) => `  ${group.join(', ')}`).join('\n');

test('no modules import each other, directly or around a circle', () => {
  const graph = moduleImports();
  assert.ok(graph.size > 30, 'the scan sees the modules');
  const found = circles(graph);
  assert.deepEqual(found, [], `these modules reach each other through their imports:\n${named(found)}`);
});

test('no files import each other, directly or around a circle', () => {
  const graph = fileImports();
  assert.ok(graph.size > 300, 'the scan sees the files');
  assert.ok(graph.get('messaging/delivery/email-sender.ts')?.has('messaging/delivery/email-smtp.ts'), 'a dynamic import counts');
  const found = circles(graph);
  assert.deepEqual(
    found,
    [],
    `these files of src/ reach each other through their imports (a type-only or dynamic import counts); move what they share to the file that defines it, or to a small file of its own:\n${named(found)}`,
  );
});

test('the scan reads every way of importing', () => {
  const text = [
    "import { a } from './a.ts';",
    "import type { B } from '../b.ts';",
    'import {\n  c,\n  type C,\n} from "./c.ts";',
    "export { d } from './d.ts';",
    "import './e.ts';",
    "const f = await import('./f.ts');",
    "import { z } from 'zod';",
  ].join('\n');
  assert.deepEqual(importedPaths(text), ['./a.ts', '../b.ts', './c.ts', './d.ts', './e.ts', './f.ts']);
});

test('the scan finds a circle where there is one', () => {
  const graph = new Map([
    ['a', new Set(['b'])],
    ['b', new Set(['c'])],
    ['c', new Set(['a'])],
    ['d', new Set(['a'])],
  ]);
  assert.deepEqual(circles(graph), [['a', 'b', 'c']]);
});
