import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

// What a build read, and the one check of whether it is still the build of the sources as they are:
// the service's bundle (service-bundle.ts) and the browser pages' (src/web-assets) keep their
// sources this way, and a start checks them before it uses the build.

export const PROJECT_ROOT = join(import.meta.dirname, '..', '..', '..');

/** A source as a build read it: its content's hash, and its size and modification time then. */
export interface SourceStamp {
  hash: string;
  size: number;
  mtimeMs: number;
}

/** Each source (project-relative) stamped as it is now; a source that cannot be read is left out. */
export function stampSources(paths: string[], root = PROJECT_ROOT): Record<string, SourceStamp> {
  const stamps: Record<string, SourceStamp> = {};
  for (const path of paths) {
    try {
      const { size, mtimeMs } = statSync(join(root, path));
      stamps[path] = { hash: contentHash(join(root, path)), size, mtimeMs };
    } catch {
      continue;
    }
  }
  return stamps;
}

/**
 * Why the stamped sources are not the sources of today, or undefined when they are: the first one
 * changed or gone. A source whose size and modification time are those stamped is taken as
 * unchanged without being read (as make and git do), so the check of a build of a thousand files
 * costs a thousand stat calls, about a millisecond; one whose time moved (a checkout, a touch) is
 * read and compared by its content.
 */
export function firstChanged(stamps: Record<string, SourceStamp>, root = PROJECT_ROOT): string | undefined {
  for (const [path, stamp] of Object.entries(stamps)) {
    const file = join(root, path);
    const now = statSync(file, { throwIfNoEntry: false });
    if (!now) return `${path} is gone`;
    if (now.size === stamp.size && now.mtimeMs === stamp.mtimeMs) continue;
    if (now.size !== stamp.size || contentHash(file) !== stamp.hash) return `${path} changed since`;
  }
  return undefined;
}

function contentHash(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex').slice(0, 32);
}
