import { enableCompileCache } from 'node:module';
import { setFlagsFromString } from 'node:v8';

/**
 * Keeps V8's compiled code for every module in Node's on-disk cache, so that a start after the first
 * reuses it (a start that cannot write the cache goes without; NODE_DISABLE_COMPILE_CACHE=1 turns it
 * off). Called before anything else is loaded.
 */
export function keepCompiledModules(): void {
  enableCompileCache();
}

/**
 * Turns off V8's allocation-site pretenuring a tenth of a second after the start: under sustained
 * load it sent every request's objects to the old generation (docs/performance.md, Memory). Set any
 * earlier, the flag would change V8's flag hash and the compiled-code caches made with the defaults
 * would be refused.
 */
export function tuneForLoad(): void {
  setTimeout(() => setFlagsFromString('--no-allocation-site-pretenuring'), 100).unref();
}
