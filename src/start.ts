import { enableCompileCache } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { loadBundle } from './built/load-bundle.ts';
import { serviceCode } from './built/service-manifest.ts';

// The start, once main.ts found a supported Node (`npm start` runs it as built into
// build/service/start.js, which Node loads without stripping types). Before anything else is
// loaded, V8's compiled code for every module is kept in an on-disk cache, so a start after the
// first reuses it (if the cache directory cannot be written the start simply goes without it). Then
// the service runs from its bundle (build/service/run.cjs, made by `npm run build`) when that is the
// bundle of the sources as they are now: one file to load instead of some 800 modules to resolve
// and link, with the code V8 compiled for it at an earlier start (built/load-bundle.ts). Otherwise
// (a source edited since, no build) it runs from the sources, slower to start but never stale.
enableCompileCache();
const code = serviceCode();
if (code.bundle) {
  const bundle = loadBundle(code.bundle, code.bundleHash);
  await (bundle.exports as typeof import('./run.ts')).run(code);
  bundle.keepCompiledCode();
} else {
  const { run } = (await import(pathToFileURL(join(import.meta.dirname, 'run.ts')).href)) as typeof import('./run.ts');
  await run(code);
}
// V8 allocates the objects of an allocation site (an object or array literal) straight into its old
// generation once most of those it sampled outlived a young collection. Under sustained load it
// came to that for sites of every request's own objects: most of what a request allocated then went
// to the old generation (some 2 MB per young collection), which filled and was collected every
// second or two. Measured under 50 connections, an answer from the cache took about 30% more CPU in
// that state, and a search about 10% more (docs/performance.md). Turned off a tenth of a second after
// the start: set before it, the flag changes V8's flag hash, so that the compiled-code caches made
// with the defaults (Node's own modules' and the bundle's) are refused, 25 ms more for each start;
// set as the service starts listening, its first answer came 18 ms later.
setTimeout(() => setFlagsFromString('--no-allocation-site-pretenuring'), 100).unref();
