import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { bundlePage } from '../src/web-assets/bundle.ts';
import { PROJECT_ROOT, WEB_BUILD_ROOT } from '../src/web-assets/page-manifest.ts';
import { BROWSER_PAGES, type PageName } from '../src/web-assets/pages.ts';

// `npm run build` (and `npm install`, through `prepare`): bundles each page the service serves from
// its own browser code (src/web-assets/pages.ts) into build/web/<name>/, which a start serves as it is.

try {
  for (const name of Object.keys(BROWSER_PAGES) as PageName[]) {
    const started = performance.now();
    const manifest = await bundlePage(name);
    const dir = join(WEB_BUILD_ROOT, name);
    const gzipped = (file: string) => gzipSync(readFileSync(join(dir, file))).length;
    const first = [manifest.stylesheet, manifest.entry, ...manifest.preload].reduce((sum, file) => sum + gzipped(file), 0);
    process.stdout.write(
      `web: ${BROWSER_PAGES[name].path} → ${relative(PROJECT_ROOT, dir)} (${manifest.files.length} files, ${(first / 1024).toFixed(1)} KiB gzipped before its first screen, ${Math.round(performance.now() - started)} ms)\n`,
    );
  }
} catch (error) {
  process.stderr.write(`web: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
