import { findChromium } from './helpers/browser.ts';
import { startPostgres, type PostgresCluster } from './helpers/postgres.ts';

// One throwaway PostgreSQL cluster for the whole `npm test` run; each test file makes its own
// database in it (test/helpers/postgres.ts). Its URL reaches the test processes through the env.
// The browser is found (and unpacked, the first time it is the packaged one) before the test files
// start, so they do not all unpack it at once.

let cluster: PostgresCluster | undefined;

export async function globalSetup(): Promise<void> {
  findChromium();
  cluster = await startPostgres();
  process.env.TENPO_TEST_POSTGRES_URL = cluster.url;
}

export async function globalTeardown(): Promise<void> {
  cluster?.stop();
}
