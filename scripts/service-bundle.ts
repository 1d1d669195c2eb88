import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { build, type BuildOptions, type Plugin } from 'esbuild';
import { indexCodeFiles, indexCodeHash } from '../src/search/prebuilt-index.ts';
import { PROJECT_ROOT, stampSources } from '../src/serving/bundle/sources.ts';
import { SERVICE_BUILD_DIR, type ServiceManifest } from '../src/serving/bundle/service-manifest.ts';

// The service (src/run.ts and all it imports) bundled by esbuild at `npm run build` into one
// CommonJS file, build/service/run.cjs, beside main.js (src/main.ts, the Node version check) and
// start.js (src/start.ts, plain JavaScript, so no TypeScript stripper is loaded): a start loads one
// file instead of linking some 800 modules. CommonJS so that start.js can load it with the V8 code
// cache made after a start (load-bundle.ts), which ES modules' cache lacks. What a start does not
// need (PostgreSQL's driver, SMTP, the content parsers, prom-client) runs on first use. Minified
// whitespace, names kept for stack traces; ASCII, which V8 keeps in half the memory. The figures:
// docs/performance.md, Starting.

/** This file's options decide what a build holds, so it is one of the build's sources. */
const THIS_FILE = relative(PROJECT_ROOT, import.meta.filename);

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
 * zod's namespace object (`z`) carries every language's error messages (`z.locales`), some 50 files
 * and half of zod's code, which a start would compile and keep though the service speaks only the
 * English ones zod sets up by itself (from its own `locales/en.js`): in the bundle `z.locales` holds
 * English alone.
 */
const englishOnly: Plugin = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, ({ importer, resolveDir }) =>
      /[\\/]node_modules[\\/]zod[\\/]/.test(importer)
        ? { path: join(resolveDir, '..', 'locales', 'index.js'), namespace: 'zod-english-only' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, ({ path }) => ({
      contents: "export { default as en } from './en.js';",
      resolveDir: dirname(path),
      loader: 'js',
    }));
  },
};

/**
 * main.js is the runtime check alone (src/main.ts): it imports start.js rather than holding it, since
 * an ES module's static imports (`enableCompileCache` from `node:module`) are linked before any of
 * its code runs, and an unsupported Node would fail there, before the check could say why.
 */
const startApart: Plugin = {
  name: 'start-apart',
  setup(build) {
    build.onResolve({ filter: /^\.\/start\.ts$/ }, () => ({ path: './start.js', external: true }));
  },
};

/** Where the bundle's files are, relative to the project: our modules' paths are written relative to it. */
const TO_PROJECT = JSON.stringify(relative(SERVICE_BUILD_DIR, PROJECT_ROOT));

/**
 * Written at the top of start.js: the project-relative paths above, and `require` for what esbuild
 * keeps calling it for (Node's own modules, from dependencies written as CommonJS modules).
 */
const MAIN_PRELUDE = [
  "import { join as __tenpoJoin } from 'node:path';",
  "import { createRequire as __tenpoRequire } from 'node:module';",
  'const require = __tenpoRequire(import.meta.url);',
  `const __tenpoPath = (path) => __tenpoJoin(import.meta.dirname, ${TO_PROJECT}, path);`,
].join(' ');

/**
 * Written at the top of run.cjs: strict, as the ES modules it is made of were (the CommonJS ones
 * among them say so themselves), and the project-relative paths.
 */
const RUN_PRELUDE = `'use strict'; const __tenpoPath = (path) => require('node:path').join(__dirname, ${TO_PROJECT}, path);`;

/**
 * esbuild escapes what lies beyond ASCII in strings, not in regular expressions: escaped there too
 * (`\uFF0A` is `＊` to a regular expression, with or without the u flag, a surrogate pair included),
 * the file is ASCII (see the top of this file). A character escaped as it is (`\「`) loses its
 * backslash, which an escaped backslash before it (`\\「`) keeps.
 */
function asciiOnly(file: string): void {
  const text = readFileSync(file, 'utf8');
  const ascii = text.replace(/(\\*)([^\0-\x7f])/g, (_, backslashes: string, unit: string) => {
    const kept = backslashes.length % 2 === 1 ? backslashes.slice(1) : backslashes;
    return `${kept}\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
  if (ascii !== text) writeFileSync(file, ascii);
}

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
  const common: BuildOptions & { metafile: true } = {
    absWorkingDir: PROJECT_ROOT,
    outdir: staging,
    bundle: true,
    platform: 'node',
    target: 'node24',
    // pg's optional native binding, never installed; esbuild builds the console's pages in development only.
    external: ['pg-native', 'esbuild'],
    minifyWhitespace: true,
    charset: 'ascii',
    plugins: [sourcePaths, englishOnly],
    metafile: true,
    legalComments: 'none',
    logLevel: 'silent',
  };
  try {
    const builds = await Promise.all([
      build({ ...common, entryPoints: { main: 'src/main.ts' }, format: 'esm', plugins: [startApart] }),
      build({ ...common, entryPoints: { start: 'src/start.ts' }, format: 'esm', banner: { js: MAIN_PRELUDE } }),
      // The store's commands (npm run db:…), for a release, which holds no sources to run them from.
      build({ ...common, entryPoints: { db: 'scripts/db.ts' }, format: 'esm', banner: { js: MAIN_PRELUDE } }),
      build({
        ...common,
        entryPoints: { run: 'src/run.ts' },
        format: 'cjs',
        outExtension: { '.js': '.cjs' },
        // Written as the function Node would wrap a CommonJS module in (src/serving/bundle/load-bundle.ts
        // runs it), so a start reads the script as one string instead of copying 2 MB to wrap it.
        banner: { js: `(function (exports, require, module, __filename, __dirname) { ${RUN_PRELUDE}` },
        footer: { js: '\n})' },
        define: { __TENPO_INDEX_CODE_HASH__: JSON.stringify(indexCodeHash()) },
      }),
    ]);
    // The search index's code is written into the bundle as its hash: each of its files is a source.
    const inputs = new Set([THIS_FILE, ...indexCodeFiles().map((file) => relative(PROJECT_ROOT, file))]);
    for (const { metafile } of builds) {
      for (const file of Object.keys(metafile.outputs)) asciiOnly(join(PROJECT_ROOT, file));
      for (const input of Object.keys(metafile.inputs)) inputs.add(input);
    }
    const entry = 'run.cjs';
    const manifest: ServiceManifest = {
      entry,
      entryHash: createHash('sha256')
        .update(readFileSync(join(staging, entry)))
        .digest('base64url'),
      sources: stampSources(ownSources([...inputs])),
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
