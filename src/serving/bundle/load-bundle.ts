import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire, getCompileCacheDir } from 'node:module';
import { dirname, join } from 'node:path';
import { constants, Script } from 'node:vm';

// The service's bundle (build/service/run.cjs, a CommonJS script) run with V8's code for it: the
// bytecode of every function the start called, kept in a file beside Node's own compile cache. Node's
// cache of a module holds what V8 compiled when the module was compiled, which is its top level
// only: every function a start calls (the routes' declarations, zod's, Kysely's, the HTTP layer's)
// was compiled again at every start, about a fifth of it. A script's code can be taken after it ran,
// so here it is taken once the service listens, and the starts after it compile nothing they find in it.

export interface LoadedBundle {
  /** What the bundle exports (src/run.ts's exports). */
  exports: unknown;
  /**
   * Keeps what V8 compiled so far for the next start, unless this start found it kept: call once the
   * start is done, so it holds every function the start called. Does nothing when Node's compile
   * cache is off (NODE_DISABLE_COMPILE_CACHE) or its directory cannot be written.
   */
  keepCompiledCode(): void;
}

/**
 * Runs the bundle at `file`. `hash` is its content's, from the build's manifest: V8 checks a kept
 * code's source only by its length, so the file the code is kept in is named by the content, after
 * the bundle's place (`tenpo-service-<place>-<content>`): writing it deletes the code kept for the
 * builds before at that place, while other checkouts on the machine keep theirs.
 */
export function loadBundle(file: string, hash: string): LoadedBundle {
  const cacheDir = getCompileCacheDir();
  const place = `tenpo-service-${createHash('sha256').update(file).digest('hex').slice(0, 12)}-`;
  const codeFile = cacheDir === undefined ? undefined : join(cacheDir, place + hash);
  // With Node's compile cache off, or its directory not writable, no code at all, as with Node's own.
  const kept = codeFile === undefined ? undefined : (readIfThere(codeFile) ?? readIfThere(builtCodeFile(file, hash)));
  // The build writes the bundle as a CommonJS module's wrapping function, in ASCII only (it checks).
  const script = new Script(readFileSync(file, 'latin1'), {
    filename: file,
    cachedData: kept,
    importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const module = { exports: {} };
  (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, createRequire(file), module, file, dirname(file));
  const found = kept !== undefined && !script.cachedDataRejected;
  return {
    exports: module.exports,
    keepCompiledCode: () => {
      if (found || codeFile === undefined) return;
      // Written whole, then renamed: a start reading it meanwhile finds none or all of it.
      const partial = `${codeFile}.${process.pid}`;
      try {
        writeFileSync(partial, script.createCachedData());
        renameSync(partial, codeFile);
        for (const name of readdirSync(dirname(codeFile))) {
          if (name.startsWith(place) && join(dirname(codeFile), name) !== codeFile) rmSync(join(dirname(codeFile), name), { force: true });
        }
      } catch {
        // Like Node's own cache: a start without it compiles as it goes.
      }
    },
  };
}

/**
 * Where the build keeps the code of a start of the bundle it made (scripts/keep-start-code.ts): a
 * start whose compile cache holds none for this bundle (the first after a build or a release is
 * installed, or one whose cache directory does not outlive it) runs with it when its Node is the
 * build's, instead of compiling everything it calls.
 */
export function builtCodeFile(bundle: string, hash: string): string {
  return join(dirname(bundle), `run-${hash}.code`);
}

function readIfThere(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}
