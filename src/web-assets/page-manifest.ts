import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { firstChanged, PROJECT_ROOT, type SourceStamp } from '../serving/bundle/sources.ts';

// What a page's build (bundle.ts) leaves beside its files, and the one check of whether it is still
// the build of the sources as they are now.

export { PROJECT_ROOT };

/** Where `npm run build` writes each page's files and manifest: build/web/<name>/. */
export const WEB_BUILD_ROOT = join(PROJECT_ROOT, 'build', 'web');

export interface PageManifest {
  /** The entry module's file, loaded by the page's script tag. */
  entry: string;
  stylesheet: string;
  /** The files the entry imports statically, at any depth: the page preloads them. */
  preload: string[];
  /** Every file of the build; `holds` names the module a file starts from (the entry, a screen). */
  files: { name: string; holds?: string }[];
  /** Every source the build read (project-relative, packages included), as it was then (src/built/sources.ts). */
  sources: Record<string, SourceStamp>;
}

/**
 * Why a build is not the build of today's sources, or undefined when it is: no manifest, or the
 * first source changed or gone since. A source added is found through the one that imports it,
 * which changed.
 */
export function outOfDate(manifest: PageManifest | undefined): string | undefined {
  if (!manifest) return 'it was never built';
  return firstChanged(manifest.sources);
}

/** The manifest of the build in `dir`, if there is one. */
export function readManifest(dir: string): PageManifest | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as PageManifest;
  } catch {
    return undefined;
  }
}
