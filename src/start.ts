import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadBundle } from './serving/bundle/load-bundle.ts';
import { serviceCode } from './serving/bundle/service-manifest.ts';
import { keepCompiledModules, tuneForLoad } from './serving/v8-settings.ts';

// The start, once main.ts found a supported Node (`npm start` runs it as built into
// build/service/start.js, which Node loads without stripping types). It runs the service from its
// bundle when that is the bundle of the sources as they are now, else from the sources, slower to
// start but never stale. What each of these buys, and how to turn it off: src/serving/README.md.
keepCompiledModules();
const code = serviceCode();
if (code.bundle) {
  const bundle = loadBundle(code.bundle, code.bundleHash);
  await (bundle.exports as typeof import('./run.ts')).run(code);
  bundle.keepCompiledCode();
} else {
  const { run } = (await import(pathToFileURL(join(import.meta.dirname, 'run.ts')).href)) as typeof import('./run.ts');
  await run(code);
}
tuneForLoad();
