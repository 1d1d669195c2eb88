import { rmSync, renameSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { stampSources } from '../serving/bundle/sources.ts';
import { PROJECT_ROOT, WEB_BUILD_ROOT, type PageManifest } from './page-manifest.ts';
import { BROWSER_PAGES, type PageName } from './pages.ts';

// A browser page's code bundled by esbuild: at `npm run build` (scripts/build-web.ts), and in
// development when a start finds the build older than its sources (built-page.ts). The entry module
// and everything it imports become ES modules, split where the code imports dynamically (the
// console's screens) and into shared files for code several of them use, minified, each named by a
// hash of its content; the stylesheet is bundled beside them. The manifest lists the files, what the
// page preloads, and every source read with its hash, which is how a start knows the build is current.

/** The browsers the console and the storefront support: the last two years of each engine. */
const TARGET = ['chrome120', 'edge120', 'firefox121', 'safari17'];

/** This file's options decide what a build holds, so it is one of every build's sources. */
const THIS_FILE = relative(PROJECT_ROOT, import.meta.filename);

/** Bundles one page into `<root>/<name>/` (build/web/), replacing what was there, and returns its manifest. */
export async function bundlePage(name: PageName, root = WEB_BUILD_ROOT): Promise<PageManifest> {
  const { entry, stylesheet } = BROWSER_PAGES[name];
  const outdir = join(root, name);
  const staging = `${outdir}.${process.pid}.tmp`;
  rmSync(staging, { recursive: true, force: true });
  try {
    const { metafile } = await build({
      absWorkingDir: PROJECT_ROOT,
      entryPoints: [entry, stylesheet],
      outdir: staging,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'browser',
      target: TARGET,
      minify: true,
      // Flat, so that one route serves every file: `main.4KX7TQ2B.js`, a screen's `dashboard.P3QZ6XUE.js`, code
      // several of them share in `chunk.…js`.
      entryNames: '[name].[hash]',
      chunkNames: '[name].[hash]',
      metafile: true,
      legalComments: 'none',
      logLevel: 'silent',
    });
    const manifest = manifestOf(metafile, entry, stylesheet);
    writeFileSync(join(staging, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    // The folder whole: a service starting meanwhile reads the old build or the new one.
    mkdirSync(join(outdir, '..'), { recursive: true });
    rmSync(outdir, { recursive: true, force: true });
    renameSync(staging, outdir);
    return manifest;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

function manifestOf(metafile: Metafile, entry: string, stylesheet: string): PageManifest {
  const outputs = Object.entries(metafile.outputs);
  const outputOf = (source: string) => {
    const found = outputs.find(([, output]) => output.entryPoint === source);
    if (!found) throw new Error(`esbuild wrote nothing for ${source}`);
    return found;
  };
  const [entryPath] = outputOf(entry);
  const [stylePath] = outputOf(stylesheet);
  // What the entry needs before it runs: its static imports, and theirs.
  const preload = new Set<string>();
  const pending = [entryPath];
  while (pending.length > 0) {
    for (const { path, kind } of metafile.outputs[pending.pop()!]!.imports) {
      if (kind !== 'import-statement' || preload.has(path)) continue;
      preload.add(path);
      pending.push(path);
    }
  }
  return {
    entry: basename(entryPath),
    stylesheet: basename(stylePath),
    preload: [...preload].map((path) => basename(path)),
    files: outputs.map(([path, output]) => ({ name: basename(path), ...(output.entryPoint ? { holds: output.entryPoint } : {}) })),
    sources: stampSources([...Object.keys(metafile.inputs), THIS_FILE].sort()),
  };
}
