import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPostgres } from '../../test/helpers/postgres.ts';

export type Store = 'sqlite' | 'postgres';

/**
 * Runs `measure` on each store in turn: a new SQLite file, then a new durable PostgreSQL cluster
 * (fsync on, as in production); both are removed afterwards, whatever happens.
 */
export async function onBothStores(name: string, measure: (store: Store, databaseUrl: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), `tenpo-bench-${name}-`));
  const cluster = await startPostgres({ durable: true });
  try {
    for (const store of ['sqlite', 'postgres'] as const)
      await measure(store, store === 'sqlite' ? `sqlite:${join(dir, 'tenpo.db')}` : cluster.url);
  } finally {
    await cluster.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
