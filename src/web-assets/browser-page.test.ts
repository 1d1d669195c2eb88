import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { createLogger } from '../log.ts';
import { loadBrowserPages } from './browser-page.ts';
import { bundlePage } from './bundle.ts';
import type { PageManifest } from './page-manifest.ts';

// A page is served from its build only while the build is that of today's sources: a start in
// development bundles it again and says so; any other start stops, naming what changed.

const root = mkdtempSync(join(tmpdir(), 'tenpo-web-build-'));
after(() => rmSync(root, { recursive: true, force: true }));

const manifestPath = join(root, 'admin', 'manifest.json');
const readBuilt = () => JSON.parse(readFileSync(manifestPath, 'utf8')) as PageManifest;
const writeBuilt = (manifest: PageManifest) => writeFileSync(manifestPath, JSON.stringify(manifest));
/** A source as an older build read it: another content, size and time. */
const OLDER = { hash: 'an older content', size: 1, mtimeMs: 0 };

function logger(): { log: ReturnType<typeof createLogger>; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  return { log: createLogger('info', { write: (line: string) => void lines.push(JSON.parse(line)) }), lines };
}

before(async () => {
  await bundlePage('admin', root);
});

test('a current build is served as built: its page preloads what the entry imports, every file named by its content', async () => {
  const [admin, ...others] = await loadBrowserPages({ development: false, log: logger().log, root });
  assert.equal(others.length, 0, 'the demo storefront only in development');
  const built = readBuilt();
  assert.deepEqual([...admin!.files.keys()].sort(), built.files.map((f) => f.name).sort());
  for (const name of [built.entry, built.stylesheet, ...built.preload])
    assert.ok(admin!.html.bytes.includes(`/admin/assets/${name}`), name);
  for (const file of admin!.files.values()) assert.equal(file.hashed, true, file.name);
  assert.ok(
    built.files.some((f) => f.holds === 'src/console/screens/dashboard/dashboard.ts'),
    'each screen is a file of its own, loaded when first shown',
  );
  assert.ok(!built.preload.some((name) => name.startsWith('dashboard.')), 'and not before');
});

test('outside development, a build older than its sources stops the start naming the source and the command', async () => {
  const current = readBuilt();
  try {
    writeBuilt({ ...current, sources: { ...current.sources, 'src/console/main.ts': OLDER } });
    await assert.rejects(
      loadBrowserPages({ development: false, log: logger().log, root }),
      /the \/admin page's build \(.*admin\) is out of date: src\/console\/main\.ts changed since; run npm run build/,
    );
    writeBuilt({ ...current, sources: { ...current.sources, 'src/console/screens/gone.ts': OLDER } });
    await assert.rejects(loadBrowserPages({ development: false, log: logger().log, root }), /src\/console\/screens\/gone\.ts is gone/);
    rmSync(manifestPath);
    await assert.rejects(loadBrowserPages({ development: false, log: logger().log, root }), /out of date: it was never built/);
  } finally {
    writeBuilt(current);
  }
});

test('in development, a build older than its sources is bundled again at the start, in one line of the log', async () => {
  const current = readBuilt();
  writeBuilt({ ...current, sources: { ...current.sources, 'src/console/ui/dom.ts': OLDER } });
  const { log, lines } = logger();
  const pages = await loadBrowserPages({ development: true, log, root });
  assert.deepEqual(
    pages.map((page) => page.definition.path),
    ['/admin', '/dev/storefront'],
  );
  log.flush();
  const rebuilt = lines.filter((line) => String(line.msg).startsWith('browser page rebuilt'));
  assert.deepEqual(
    rebuilt.map((line) => [line.page, line.msg]),
    [
      ['/admin', 'browser page rebuilt: src/console/ui/dom.ts changed since'],
      ['/dev/storefront', 'browser page rebuilt: it was never built'],
    ],
  );
  assert.deepEqual(readBuilt().sources, current.sources, 'the build is current again');
});
