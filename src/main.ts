import { enableCompileCache } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadBundle } from './built/load-bundle.ts';
import { serviceCode } from './built/service-manifest.ts';

// The process entry (`npm start` runs this file as built into build/service/main.js, which Node
// loads without stripping types; `node src/main.ts` runs it as it is). Before anything else is
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
