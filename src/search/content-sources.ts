import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SLUG_PATTERN } from '../catalog/product.ts';

/** One content file as read, before parsing: `<dir>/<contentType>/<fileSlug>.md`. */
export interface ContentSource {
  path: string;
  contentType: string;
  fileSlug: string;
  text: string;
}

/**
 * Reads every `<dir>/<contentType>/<fileSlug>.md`, sorted by type then slug. Throws an Error
 * naming the directory or file at fault: the start stops rather than serve a site with pages
 * missing from search.
 */
export function readContentSources(dir: string): ContentSource[] {
  let types: string[];
  try {
    types = readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
  } catch (error) {
    throw new Error(`content ${dir}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  const sources: ContentSource[] = [];
  for (const contentType of types.sort()) {
    for (const file of readdirSync(join(dir, contentType))
      .filter((name) => name.endsWith('.md'))
      .sort()) {
      const path = join(dir, contentType, file);
      const fileSlug = file.slice(0, -'.md'.length);
      for (const part of [contentType, fileSlug]) {
        if (!SLUG_PATTERN.test(part))
          throw new Error(`content ${path}: "${part}" must be lowercase letters and digits separated by single hyphens`);
      }
      sources.push({ path, contentType, fileSlug, text: readFileSync(path, 'utf8') });
    }
  }
  return sources;
}

/** Where the synonyms live (synonyms-file.ts reads them): optional. */
const SYNONYMS_FILE = 'synonyms.yaml';

/** `<dir>/synonyms.yaml` as text, or undefined when there is none. */
export function readSynonymsSource(dir: string): { path: string; text: string } | undefined {
  const path = join(dir, SYNONYMS_FILE);
  try {
    return { path, text: readFileSync(path, 'utf8') };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`synonyms ${path}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}
