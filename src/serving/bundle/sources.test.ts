import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { firstChanged, stampSources } from './sources.ts';

test('a build is current until one of its sources changes in content, or goes', () => {
  const root = mkdtempSync(join(tmpdir(), 'tenpo-sources-'));
  writeFileSync(join(root, 'a.ts'), 'export const a = 1;\n');
  writeFileSync(join(root, 'b.ts'), 'export const b = 2;\n');
  const stamps = stampSources(['a.ts', 'b.ts', 'never-there.ts'], root);
  assert.deepEqual(Object.keys(stamps), ['a.ts', 'b.ts'], 'a source that cannot be read is not stamped');
  assert.equal(firstChanged(stamps, root), undefined);

  // Touched (a checkout, an editor saving the same text): read again, and found the same.
  utimesSync(join(root, 'a.ts'), new Date(), new Date(Date.now() + 5_000));
  assert.equal(firstChanged(stamps, root), undefined);

  // The same size, another content, another time: found by its content.
  writeFileSync(join(root, 'b.ts'), 'export const b = 3;\n');
  utimesSync(join(root, 'b.ts'), new Date(), new Date(Date.now() + 10_000));
  assert.equal(firstChanged(stamps, root), 'b.ts changed since');

  rmSync(join(root, 'a.ts'));
  assert.equal(firstChanged(stamps, root), 'a.ts is gone');
});
