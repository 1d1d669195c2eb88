import { startPostgres, type PostgresCluster } from './helpers/postgres.ts';

// One throwaway PostgreSQL cluster for the whole `npm test` run; each test file makes its own
// database in it (test/helpers/postgres.ts). Its URL reaches the test processes through the env.

let cluster: PostgresCluster | undefined;

export async function globalSetup(): Promise<void> {
  cluster = await startPostgres();
  process.env.TENPO_TEST_POSTGRES_URL = cluster.url;
}

export async function globalTeardown(): Promise<void> {
  cluster?.stop();
}
