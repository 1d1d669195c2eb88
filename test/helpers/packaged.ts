import { createRequire } from 'node:module';
import { chmodSync, existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

// The browser and the database the tests use come from npm packages when the machine has none of
// its own (test/helpers/browser.ts, test/helpers/postgres.ts). TENPO_TEST_PACKAGED=1 ignores the
// machine's, so a run can prove the packaged ones alone are enough.

export const packagedOnly = Boolean(process.env.TENPO_TEST_PACKAGED);

/**
 * The folder an installed package lives in, found from its entry point (its exports may hide
 * package.json), resolved from the file `from` (a package's dependency from that package).
 */
export function packageDir(name: string, from = import.meta.filename): string {
  let dir = dirname(createRequire(from).resolve(name));
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  return dir;
}

/**
 * A folder under the temp dir made once by `fill` and kept for later runs; `name` carries the
 * package version so an upgrade gets a new one. Several test processes may ask at the same time:
 * each fills a private folder and renames it into place, and the first rename wins, so no one ever
 * sees a half-filled folder. Readable by every account, as PostgreSQL runs as `nobody` under root.
 */
export function unpackOnce(name: string, fill: (dir: string) => void): string {
  const target = join(tmpdir(), name);
  if (existsSync(target)) return target;
  const scratch = mkdtempSync(`${target}.partial-`);
  try {
    fill(scratch);
    chmodSync(scratch, 0o755);
    renameSync(scratch, target);
  } catch (error) {
    rmSync(scratch, { recursive: true, force: true });
    if (!existsSync(target)) throw error;
  }
  return target;
}
