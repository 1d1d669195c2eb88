import { execFileSync } from 'node:child_process';
import { bundleService } from '../scripts/service-bundle.ts';
import { serviceCode } from '../src/serving/bundle/service-manifest.ts';
import { createLogger } from '../src/log.ts';
import { loadBrowserPages } from '../src/web-assets/browser-page.ts';
import { findChromium } from './helpers/browser.ts';
import { startPostgres, type PostgresCluster } from './helpers/postgres.ts';

// One throwaway PostgreSQL cluster for the whole `npm test` run; each test file makes its own
// database in it (test/helpers/postgres.ts). Its URL reaches the test processes through the env.
// The browser is found (and unpacked, the first time it is the packaged one) before the test files
// start, so they do not all unpack it at once. The pages served to browsers are bundled again if
// their sources changed since `npm run build`, as a development start would: the tests run the
// console as it is now, and the test files that start the service in production find it current.
// So is the service's own bundle, with the code of a start kept beside it as `npm run build` keeps
// it, which every start of the service then runs, as `npm start` would.

let cluster: PostgresCluster | undefined;

export async function globalSetup(): Promise<void> {
  findChromium();
  await loadBrowserPages({ development: true, log: createLogger('silent') });
  if (!serviceCode().bundle) {
    await bundleService();
    execFileSync(process.execPath, ['scripts/keep-start-code.ts'], { stdio: ['ignore', 'ignore', 'inherit'] });
  }
  cluster = await startPostgres();
  process.env.TENPO_TEST_POSTGRES_URL = cluster.url;
}

export async function globalTeardown(): Promise<void> {
  cluster?.stop();
}
