import { readFileSync } from 'node:fs';
import { stripTypeScriptTypes } from 'node:module';
import { posix } from 'node:path';

// The project's TypeScript modules as plain JavaScript, by Node's own type stripping: the console
// serves them to browsers that way, and the package build (scripts/build-packages.ts) writes them
// to dist/. Stripping keeps every line where it was, so a stack trace points at the source line.

/**
 * Static imports and re-exports (`import x from './a.ts'`, `export { y } from './b.ts'`, `import './c.ts'`),
 * the keyword starting a statement: a string such as `'/api/admin/personal-data/export'` names none.
 */
const STATIC_IMPORT = /(?<=^|[\s;])((?:import|export)\s*(?:[\w*{}\s,$]*?\s*from\s*)?)(['"])([^'"]+)\2/g;
const DYNAMIC_IMPORT = /\bimport\s*\(/;

export interface Module {
  /** The module's code: stripped of its types, or as written (see moduleGraph's `strip`). */
  code: string;
  /** Every static import's specifier, as written. */
  imports: string[];
}

/**
 * The entry module (a path under `sourceRoot`) and every module of the project it imports, by path.
 * Stripped (the default), type-only imports vanish with the types, so the graph is what runs; not
 * stripped, it also holds the modules imported for their types. Relative imports are followed,
 * packages are only listed in `imports`. `checkPath` may refuse a path before it is read; dynamic
 * imports are refused, since no graph can follow them.
 */
export function moduleGraph(
  entry: string,
  sourceRoot: string,
  options: { strip?: boolean; checkPath?: (path: string) => void; stopAt?: (path: string) => boolean } = {},
): Map<string, Module> {
  const modules = new Map<string, Module>();
  const pending = [entry];
  while (pending.length > 0) {
    const path = pending.pop()!;
    if (modules.has(path)) continue;
    options.checkPath?.(path);
    if (path.startsWith('../')) throw new Error(`module ${path} is outside ${sourceRoot}`);
    const source = readFileSync(posix.join(sourceRoot, path), 'utf8');
    const code = options.strip === false ? source : stripTypeScriptTypes(source, { mode: 'strip' });
    if (DYNAMIC_IMPORT.test(code)) throw new Error(`module ${path} imports dynamically; only static imports can be followed`);
    const imports = [...code.matchAll(STATIC_IMPORT)].map((match) => match[3]!);
    modules.set(path, { code, imports });
    if (options.stopAt?.(path)) continue;
    for (const specifier of imports) if (isRelative(specifier)) pending.push(posix.join(posix.dirname(path), specifier));
  }
  return modules;
}

export function isRelative(specifier: string): boolean {
  return specifier.startsWith('./') || specifier.startsWith('../');
}

/** The code with each static import's specifier replaced (`./a.ts` → `./a.js`, say). */
export function replaceImports(code: string, replace: (specifier: string) => string): string {
  return code.replace(
    STATIC_IMPORT,
    (_match, head: string, quote: string, specifier: string) => `${head}${quote}${replace(specifier)}${quote}`,
  );
}
