import { readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isRelative, moduleGraph } from './module-graph.ts';
import { staticFile, type StaticFile } from './static-file.ts';

// The console and the development storefront are TypeScript under src/, type-checked with the rest
// (tsc --noEmit), and turned into browser JavaScript here, at the first request, by Node's own type stripping: no bundler, no
// build step, and the browser gets the same module files the editor shows (line for line, so its
// developer tools point at the right lines). Each module is served under a name that carries a
// hash of its content, cached for good; an import map sends the `./x.ts` imports, unchanged, to
// those names, and the page preloads them all at once. A package may be imported only when it is
// given as one ES module file (MiniSearch's), served the same way under its bare name.

const SOURCE_ROOT = fileURLToPath(new URL('../', import.meta.url));

/** Modules live one folder deep under src/ (`admin-console/main.ts`, `client/tenpo-client.ts`). */
const MODULE_PATH = /^[a-z0-9-]+\/[a-z0-9-]+\.ts$/;

export interface BrowserModules {
  /** The entry module's URL. */
  entryUrl: string;
  /** Every module's URL, for `<link rel="modulepreload">`. */
  urls: string[];
  /** From the URL an import resolves to (`…/dom.ts`) to the module's hashed URL. */
  importMap: { imports: Record<string, string> };
  /** The modules by their path under the URL prefix (`admin-console/dom.1a2b3c4d5e6f.js`). */
  files: Map<string, StaticFile>;
}

/**
 * The entry module (a path under src/) and every module it imports at run time, stripped of their
 * types. Type-only imports vanish with the types, so the server's code and zod stay on the server;
 * a run-time import of a package not in `packages` (name → the file of its ES module build, which
 * must import nothing) or of a file outside this layout is refused with its culprit named.
 */
export function loadBrowserModules(
  entry: string,
  urlPrefix: string,
  options: { sourceRoot?: string; packages?: Record<string, string> } = {},
): BrowserModules {
  const { sourceRoot = SOURCE_ROOT, packages = {} } = options;
  const modules = moduleGraph(entry, sourceRoot, {
    checkPath: (path) => {
      if (!MODULE_PATH.test(path)) throw new Error(`browser module ${path} is not a .ts file one folder under src/`);
    },
  });
  for (const [path, { imports }] of modules) {
    const pkg = imports.find((specifier) => !isRelative(specifier) && !(specifier in packages));
    if (pkg) throw new Error(`browser module ${path} imports '${pkg}' at run time; only the project's own modules can be served`);
  }

  const files = new Map<string, StaticFile>();
  const imports: Record<string, string> = {};
  for (const [path, { code }] of modules) {
    const file = staticFile(posix.basename(path, '.ts') + '.js', code, { hashed: true });
    const servedPath = `${posix.dirname(path)}/${file.name}`;
    files.set(servedPath, file);
    imports[urlPrefix + path] = urlPrefix + servedPath;
  }
  for (const [name, path] of Object.entries(packages)) {
    const file = staticFile(`${name.replaceAll('/', '-')}.js`, readFileSync(path), { hashed: true });
    files.set(`packages/${file.name}`, file);
    imports[name] = `${urlPrefix}packages/${file.name}`;
  }
  return { entryUrl: imports[urlPrefix + entry]!, urls: Object.values(imports), importMap: { imports }, files };
}
