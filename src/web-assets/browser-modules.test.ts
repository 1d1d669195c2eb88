import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { loadBrowserModules } from './browser-modules.ts';

const root = mkdtempSync(join(tmpdir(), 'tenpo-modules-'));
after(() => rmSync(root, { recursive: true, force: true }));

function write(files: Record<string, string>): void {
  for (const [path, code] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), code);
  }
}

test('serves the entry and what it imports at run time, stripped, under hashed names behind an import map', () => {
  write({
    'ui/main.ts':
      "import type { z } from 'zod';\nimport { twice } from './math.ts';\nimport { label } from '../shared/label.ts';\nexport const x: number = twice(2);\nconsole.log(label);\n",
    'ui/math.ts': 'export function twice(n: number): number { return n * 2; }\n',
    'shared/label.ts': "import type { Secret } from '../server/secret.ts';\nexport const label: string = 'ok';\n",
    'ui/unused.ts': 'export const never = 1;\n',
  });
  const modules = loadBrowserModules('ui/main.ts', '/assets/', { sourceRoot: root });
  assert.deepEqual(Object.keys(modules.importMap.imports).sort(), ['/assets/shared/label.ts', '/assets/ui/main.ts', '/assets/ui/math.ts']);
  assert.match(modules.entryUrl, /^\/assets\/ui\/main\.[0-9a-f]{12}\.js$/);
  assert.deepEqual([...modules.files.keys()].map((key) => `/assets/${key}`).sort(), modules.urls.sort());
  const main = modules.files.get(modules.entryUrl.slice('/assets/'.length))!;
  const code = main.bytes.toString();
  assert.doesNotMatch(code, /zod|: number/, 'types and type-only imports are gone');
  assert.match(code, /import \{ twice \} from '\.\/math\.ts'/, 'run-time imports are kept as written');
  assert.equal(main.contentType, 'text/javascript; charset=utf-8');
  assert.equal(main.hashed, true);
});

test('refuses a run-time import of a package, a dynamic import, or a module outside the layout', () => {
  write({
    'bad/package.ts': "import { z } from 'zod';\nexport const s = z.string();\n",
    'bad/dynamic.ts': "export const later = () => import('./other.ts');\n",
    'bad/deep.ts': "import { x } from '../../outside.ts';\nexport { x };\n",
    'bad/inline-type.ts': "import { type Thing } from 'zod';\nexport const t: Thing | undefined = undefined;\n",
  });
  assert.throws(() => loadBrowserModules('bad/package.ts', '/a/', { sourceRoot: root }), /bad\/package\.ts imports 'zod' at run time/);
  assert.throws(() => loadBrowserModules('bad/dynamic.ts', '/a/', { sourceRoot: root }), /imports dynamically/);
  assert.throws(() => loadBrowserModules('bad/deep.ts', '/a/', { sourceRoot: root }), /not a \.ts file one folder under src/);
  // `import { type X }` stays as an import of the module itself once stripped: it must be `import type`.
  assert.throws(() => loadBrowserModules('bad/inline-type.ts', '/a/', { sourceRoot: root }), /imports 'zod' at run time/);
});

test('a package given as one ES module file is served under its bare name', () => {
  write({
    'uses/search.ts': "import MiniSearch from 'minisearch';\nexport const m = new MiniSearch({ fields: ['a'] });\n",
    'vendor/mini.js': 'export default class MiniSearch {}\n',
  });
  const modules = loadBrowserModules('uses/search.ts', '/p/', {
    sourceRoot: root,
    packages: { minisearch: join(root, 'vendor', 'mini.js') },
  });
  assert.match(modules.importMap.imports.minisearch!, /^\/p\/packages\/minisearch\.[0-9a-f]{12}\.js$/);
  const served = modules.files.get(modules.importMap.imports.minisearch!.slice('/p/'.length))!;
  assert.equal(served.bytes.toString(), 'export default class MiniSearch {}\n');
  assert.throws(() => loadBrowserModules('uses/search.ts', '/p/', { sourceRoot: root }), /imports 'minisearch' at run time/);
});

test('a string that ends in the word import or export is not an import', () => {
  write({
    'paths/main.ts':
      "import { x } from './x.ts';\nexport const paths = { '/api/admin/personal-data/export': { method: 'POST' }, 'data/import': 'x' };\n",
    'paths/x.ts': 'export const x = 1;\n',
  });
  const modules = loadBrowserModules('paths/main.ts', '/assets/', { sourceRoot: root });
  assert.deepEqual(Object.keys(modules.importMap.imports).sort(), ['/assets/paths/main.ts', '/assets/paths/x.ts']);
});
