import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { firstChanged, PROJECT_ROOT, type SourceStamp } from './sources.ts';

/** Where `npm run build` writes the service's bundle (service-bundle.ts) and its manifest. */
export const SERVICE_BUILD_DIR = join(PROJECT_ROOT, 'build', 'service');

export interface ServiceManifest {
  /** The file that holds src/run.ts, in SERVICE_BUILD_DIR. */
  entry: string;
  /** Its content's hash, which names the code V8 compiled from it (load-bundle.ts). */
  entryHash: string;
  /** Every source the bundle was made of (project-relative, dependencies included). */
  sources: Record<string, SourceStamp>;
}

/** The code a start runs: the bundle when it is that of today's sources, else the sources themselves and why. */
export type ServiceCode = { bundle: string; bundleHash: string; why?: undefined } | { bundle?: undefined; why: string };

export function serviceCode(dir = SERVICE_BUILD_DIR): ServiceCode {
  let manifest: ServiceManifest;
  try {
    manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as ServiceManifest;
  } catch {
    return { why: 'it was never built' };
  }
  const changed = firstChanged(manifest.sources);
  return changed ? { why: changed } : { bundle: join(dir, manifest.entry), bundleHash: manifest.entryHash };
}
