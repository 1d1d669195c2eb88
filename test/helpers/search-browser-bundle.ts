import { build } from 'esbuild';
import { join } from 'node:path';

/**
 * tenpo/search-browser from its source, bundled for a browser page as a storefront's bundler would
 * (esbuild, platform browser): a script that puts `loadSiteSearch` on `window`. The source, not the
 * built package, so a test always runs the code it checks (the package itself:
 * search-browser-package.test.ts).
 */
export async function bundleSiteSearch(): Promise<string> {
  const result = await build({
    stdin: {
      contents: "import { loadSiteSearch } from './src/search/site-search.ts'; window.loadSiteSearch = loadSiteSearch;",
      resolveDir: join(import.meta.dirname, '..', '..'),
      loader: 'ts',
    },
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'chrome120',
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}
