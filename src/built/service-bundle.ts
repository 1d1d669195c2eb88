import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { PROJECT_ROOT, stampSources } from './sources.ts';
import { SERVICE_BUILD_DIR, type ServiceManifest } from './service-manifest.ts';

// The service's code, src/run.ts and everything it imports (our modules and our dependencies'), bundled
// by esbuild into a few ES modules in build/service/ at `npm run build`, with the process entry
// src/main.ts as main.js (what `npm start` runs: plain JavaScript, so Node loads no TypeScript
// stripper, a fifth of a start's time): a start then loads one file
// instead of resolving, reading and linking some 800 modules, which was most of its time (kysely alone
// is 257 files). What a start does not need at once stays in files of their own, loaded when first
// used (PostgreSQL's driver, SMTP, the content parsers). Not minified: stack traces stay readable.

/** This file's options decide what a build holds, so it is one of the build's sources. */
const THIS_FILE = relative(PROJECT_ROOT, import.meta.filename);

/** The process entry, which picks the bundle or the sources, and the service it runs. */
const ENTRIES = { main: 'src/main.ts', run: 'src/run.ts' };

/**
 * Our modules find files beside their source (the search code they fingerprint, the project root):
 * in the bundle `import.meta.dirname` and `.filename` would name build/service/, so each module's
 * own are written in, relative to the bundle's place in the project.
 */
const sourcePaths: Plugin = {
  name: 'source-paths',
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, ({ path }) => {
      const source = relative(PROJECT_ROOT, path);
      const inProject = (part: string) => `__tenpoPath(${JSON.stringify(part)})`;
      const contents = readFileSync(path, 'utf8')
        .replaceAll('import.meta.dirname', inProject(dirname(source)))
        .replaceAll('import.meta.filename', inProject(source));
      return { contents, loader: 'ts' };
    });
  },
};

/**
 * Written at the top of every file of the bundle: the project-relative paths above, and `require` for
 * the dependencies written as CommonJS modules, which esbuild keeps calling it for Node's own modules.
 */
const PRELUDE = [
  "import { join as __tenpoJoin } from 'node:path';",
  "import { createRequire as __tenpoRequire } from 'node:module';",
  'const require = __tenpoRequire(import.meta.url);',
  `const __tenpoPath = (path) => __tenpoJoin(import.meta.dirname, ${JSON.stringify(relative(SERVICE_BUILD_DIR, PROJECT_ROOT))}, path);`,
].join(' ');

/**
 * The files whose change makes a build stale: ours one by one, and the dependencies by npm's record
 * of what it installed (node_modules/.package-lock.json, rewritten by every install), which spares a
 * start some 600 checks of files under node_modules.
 */
function ownSources(inputs: string[]): string[] {
  const own = inputs.filter((path) => !path.startsWith('node_modules/'));
  return [...own, ...(own.length < inputs.length ? [INSTALLED] : [])].sort();
}

const INSTALLED = 'node_modules/.package-lock.json';

/** Bundles the service into build/service/ (or `outdir`), replacing what was there, and returns its manifest. */
export async function bundleService(outdir = SERVICE_BUILD_DIR): Promise<ServiceManifest> {
  const staging = `${outdir}.${process.pid}.tmp`;
  rmSync(staging, { recursive: true, force: true });
  try {
    const { metafile } = await build({
      absWorkingDir: PROJECT_ROOT,
      entryPoints: ENTRIES,
      outdir: staging,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node24',
      // pg's optional native binding, never installed; esbuild builds the console's pages in development only.
      external: ['pg-native', 'esbuild'],
      banner: { js: PRELUDE },
      plugins: [sourcePaths],
      metafile: true,
      legalComments: 'none',
      logLevel: 'silent',
    });
    const manifest: ServiceManifest = {
      entry: 'run.js',
      sources: stampSources(ownSources([...Object.keys(metafile.inputs), THIS_FILE])),
    };
    writeFileSync(join(staging, 'manifest.json'), `${JSON.stringify(manifest)}\n`);
    // The folder whole: a service starting meanwhile finds the old build or the new one.
    mkdirSync(dirname(outdir), { recursive: true });
    rmSync(outdir, { recursive: true, force: true });
    renameSync(staging, outdir);
    return manifest;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
