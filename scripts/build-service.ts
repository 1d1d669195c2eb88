import { relative } from 'node:path';
import { bundleService } from './service-bundle.ts';
import { PROJECT_ROOT } from '../src/serving/bundle/sources.ts';
import { SERVICE_BUILD_DIR } from '../src/serving/bundle/service-manifest.ts';

// `npm run build` (and `npm install`, through `prepare`): bundles the service into build/service/,
// which a start runs when it is current (src/main.ts).

try {
  const started = performance.now();
  const manifest = await bundleService();
  process.stdout.write(
    `service: src/run.ts → ${relative(PROJECT_ROOT, SERVICE_BUILD_DIR)} (${Object.keys(manifest.sources).length} sources, ${Math.round(performance.now() - started)} ms)\n`,
  );
} catch (error) {
  process.stderr.write(`service: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
