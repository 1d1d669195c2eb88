import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { test } from 'node:test';

// The modules of src/ (a folder, or a file at its top) form layers: imports point one way, so no two
// modules import each other, directly or around a circle (docs/architecture.md, "The modules").

const SRC = new URL('./', import.meta.url);
const IMPORT = /^\s*(?:import|export)\b[^'";]*?\bfrom\s*['"](\.[^'"]+)['"]|^\s*import\s*['"](\.[^'"]+)['"]/gm;

/** Which module a path under src/ belongs to. */
const moduleOf = (path: string) => path.split('/')[0]!.replace(/\.ts$/, '');

function moduleImports(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  const files = (readdirSync(SRC, { recursive: true }) as string[])
    .map((path) => path.split('\\').join('/'))
    .filter((path) => path.endsWith('.ts') && !path.endsWith('.test.ts') && !path.includes('/migrations/'));
  for (const path of files) {
    const from = moduleOf(path);
    const targets = graph.get(from) ?? graph.set(from, new Set()).get(from)!;
    for (const match of readFileSync(new URL(path, SRC), 'utf8').matchAll(IMPORT)) {
      const target = posix.join(posix.dirname(path), match[1] ?? match[2]!);
      if (!target.startsWith('../') && moduleOf(target) !== from) targets.add(moduleOf(target));
    }
  }
  return graph;
}

/** The groups of modules that reach each other (Tarjan's strongly connected components), of two or more. */
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

test('no modules import each other, directly or around a circle', () => {
  const graph = moduleImports();
  assert.ok(graph.size > 30, 'the scan sees the modules');
  assert.deepEqual(circles(graph), []);
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
