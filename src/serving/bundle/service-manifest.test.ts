import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { serviceCode, type ServiceManifest } from './service-manifest.ts';
import { stampSources } from './sources.ts';

test('a start runs the bundle only when it is that of the sources as they are', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tenpo-service-build-'));
  assert.deepEqual(serviceCode(dir), { why: 'it was never built' });

  const write = (manifest: ServiceManifest) => writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
  const sources = stampSources(['src/run.ts', 'src/server.ts']);
  write({ entry: 'run.cjs', entryHash: 'its hash', sources });
  assert.deepEqual(serviceCode(dir), { bundle: join(dir, 'run.cjs'), bundleHash: 'its hash' });

  write({
    entry: 'run.cjs',
    entryHash: 'its hash',
    sources: { ...sources, 'src/run.ts': { ...sources['src/run.ts']!, size: 1, hash: 'an older content' } },
  });
  assert.deepEqual(serviceCode(dir), { why: 'src/run.ts changed since' });
  write({ entry: 'run.cjs', entryHash: 'its hash', sources: { ...sources, 'src/gone.ts': { hash: 'x', size: 1, mtimeMs: 0 } } });
  assert.deepEqual(serviceCode(dir), { why: 'src/gone.ts is gone' });
});
