import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { builtCodeFile } from '../src/serving/bundle/load-bundle.ts';
import { serviceCode } from '../src/serving/bundle/service-manifest.ts';
import { PROJECT_ROOT } from '../src/serving/bundle/sources.ts';
import { buildIndexFile, heapIndexFile, heapIndexPath } from '../src/search/prebuilt-index.ts';
import { outOfDate, readManifest, WEB_BUILD_ROOT } from '../src/web-assets/page-manifest.ts';
import { enginesRange } from '../src/node-versions.ts';
import packageJson from '../package.json' with { type: 'json' };

// `npm run release` (after `npm run build`): writes release/, what a server installs. It holds the
// built service, the console's build, the search index, the catalog and the content, and a
// package.json and lock of the production dependencies only: on the server `npm ci --omit=dev`
// installs those (some 40 packages, no compiler, browser, database or second Node) and the start
// command runs it. Nothing in it is built on the server, and no source is there to build from: the
// builds' manifests name no sources, so a start takes them as they are.

/** release/, or the directory given (a test writes its own). */
const RELEASE = resolve(process.argv[2] ?? join(PROJECT_ROOT, 'release'));
const START = packageJson.scripts.start;

/** What a release holds as it is in the project. */
const COPIED = ['data', 'content', '.env.example'];

/** The bundle's files (build/service): the entry, the start, the service, the store's commands. */
const SERVICE_FILES = ['main.js', 'start.js', 'run.cjs', 'db.js'];

try {
  // Released only as built from the sources as they are: `npm run release` builds first.
  const service = serviceCode();
  const admin = outOfDate(readManifest(join(WEB_BUILD_ROOT, 'admin')));
  if (!service.bundle || admin) throw new Error(`the build is not that of the sources (${service.why ?? admin}): run npm run build`);
  rmSync(RELEASE, { recursive: true, force: true });
  mkdirSync(join(RELEASE, 'build', 'service'), { recursive: true });
  for (const path of COPIED) cpSync(join(PROJECT_ROOT, path), join(RELEASE, path), { recursive: true });
  // With the code V8 compiled at a start of the bundle (scripts/keep-start-code.ts), which the first
  // start of the release runs with on a server with the build's Node.
  const keptCode = basename(builtCodeFile(service.bundle, service.bundleHash));
  for (const file of [...SERVICE_FILES, keptCode])
    cpSync(join(PROJECT_ROOT, 'build', 'service', file), join(RELEASE, 'build', 'service', file));
  writeWithoutSources(join('build', 'service', 'manifest.json'));
  // The pages production serves (the demo storefront is development's only).
  cpSync(join(PROJECT_ROOT, 'build', 'web', 'admin'), join(RELEASE, 'build', 'web', 'admin'), { recursive: true });
  writeWithoutSources(join('build', 'web', 'admin', 'manifest.json'));
  // The search index of the content released, where a start looks for it by default.
  const index = await buildIndexFile(join(RELEASE, 'content'));
  writeFileSync(join(RELEASE, 'build', 'search-index.json'), index.file);
  writeFileSync(heapIndexPath(join(RELEASE, 'build', 'search-index.json')), heapIndexFile(index));

  const manifest = {
    name: packageJson.name,
    version: packageJson.version,
    description: packageJson.description,
    private: true,
    type: 'module',
    engines: { node: enginesRange() },
    // swagger-ui-dist's analytics ping, turned off (as in the project's package.json).
    allowScripts: { '@scarf/scarf': false },
    scripts: {
      start: START,
      'db:status': 'node build/service/db.js status',
      'db:migrate': 'node build/service/db.js migrate',
      'db:backup': 'node build/service/db.js backup',
      'db:restore': 'node build/service/db.js restore',
    },
    dependencies: packageJson.dependencies,
  };
  writeFileSync(join(RELEASE, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  // The project's lock, pruned to the production dependencies: the same versions, found offline.
  cpSync(join(PROJECT_ROOT, 'package-lock.json'), join(RELEASE, 'package-lock.json'));
  execFileSync('npm', ['install', '--package-lock-only', '--omit=dev', '--ignore-scripts', '--offline', '--no-audit', '--no-fund'], {
    cwd: RELEASE,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  process.stdout.write(
    `release: ${relative(process.cwd(), RELEASE)}/ (${Math.round(size(RELEASE) / 1024)} KiB); on the server: npm ci --omit=dev && ${START}\n`,
  );
} catch (error) {
  process.stderr.write(`release: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}

/** A build's manifest, as the release holds it: with no sources, which a start would find gone. */
function writeWithoutSources(path: string): void {
  const built = JSON.parse(readFileSync(join(PROJECT_ROOT, path), 'utf8')) as { sources: unknown };
  writeFileSync(join(RELEASE, path), `${JSON.stringify({ ...built, sources: {} })}\n`);
}

function size(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path).reduce((sum, name) => sum + size(join(path, name)), 0);
}
