// npm runs this after every install of a checkout, with whatever Node it finds first: the pinned Node
// of the dev dependencies, or, in an install without them, the machine's own, which may not run
// TypeScript. Plain JavaScript, so the second case ends in one line saying what to do instead of a
// stack trace from the build.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

if (!existsSync(new URL('../node_modules/esbuild/package.json', import.meta.url))) {
  console.error(
    'tenpo: a checkout installed without its dev dependencies cannot build the service. ' +
      'A server runs a release: `npm ci && npm run release` on a build machine, then `npm ci --omit=dev` ' +
      'in release/ (docs/operations.md, Deploying).',
  );
  process.exit(1);
}
const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
process.exit(build.status ?? 1);
