import { ADMIN_TOKEN } from './app.ts';
import { createTestDatabase } from './postgres.ts';
import { startServiceProcess, type ServiceProcess } from './service-process.ts';

/**
 * Two service processes started together on one fresh PostgreSQL, as instances behind a balancer,
 * with no rate or per-client connection limit (every customer is this machine's one address) and
 * no drain when stopped.
 */
export async function startTwoInstances(): Promise<[ServiceProcess, ServiceProcess]> {
  const env = {
    DATABASE_URL: await createTestDatabase(),
    PREORDER_API_TOKEN: ADMIN_TOKEN,
    RATE_LIMIT_PER_MINUTE: '0',
    MAX_CONNECTIONS_PER_CLIENT: '0',
    SHUTDOWN_DRAIN_SECONDS: '0',
  };
  return Promise.all([startServiceProcess({ env }), startServiceProcess({ env })]);
}
