import { readFileSync } from 'node:fs';
import { stripTypeScriptTypes } from 'node:module';
import { posix } from 'node:path';

// The package build's modules (build-packages.ts): each exported module and the project's modules it
// imports, as plain JavaScript by Node's own type stripping, which keeps every line where it was, so
// a stack trace in a storefront points at the source line. The pages the service serves are bundled
// by esbuild instead (src/web-assets/bundle.ts).

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
 * packages are only listed in `imports`. Dynamic imports are refused, since no graph can follow them.
 */
export function moduleGraph(
  entry: string,
  sourceRoot: string,
  options: { strip?: boolean; stopAt?: (path: string) => boolean } = {},
): Map<string, Module> {
  const modules = new Map<string, Module>();
  const pending = [entry];
  while (pending.length > 0) {
    const path = pending.pop()!;
    if (modules.has(path)) continue;
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
