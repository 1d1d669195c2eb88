import { CompiledQuery } from 'kysely';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import type { Database } from '../db/database.ts';
import type { Budgets } from './rate-limit.ts';

/**
 * Request counts shared by every instance on one PostgreSQL, so a client has one budget however
 * the load balancer spreads its requests: rate-limiter-flexible's PostgreSQL limiter, one upsert a
 * request in its own table (`rate_limits`, created at start if missing; expired rows are deleted
 * by the limiter; `keyPrefix` keeps one budget's counts apart from another's). Its windows are ours: a minute (or `windowSeconds`) from the client's first request, every request
 * counted. Its statements run through the service's own pool. While PostgreSQL does not answer,
 * each instance counts in its own memory instead (the limiter's insurance), rather than refusing
 * or letting everyone through.
 */
export async function sharedBudgets(database: Database, perWindow: number, keyPrefix: string, windowSeconds = 60): Promise<Budgets> {
  // The limiter speaks to a pg pool; this is one, carried by Kysely's.
  const pool = {
    query: async ({ text, values }: { text: string; values?: unknown[] }) => {
      const { rows } = await database.db.executeQuery(CompiledQuery.raw(text, values ?? []));
      return { rows, rowCount: rows.length };
    },
  };
  const limiter = await new Promise<RateLimiterPostgres>((resolve, reject) => {
    const created: RateLimiterPostgres = new RateLimiterPostgres(
      {
        storeClient: pool,
        storeType: 'pool',
        tableName: 'rate_limits',
        keyPrefix,
        points: perWindow,
        duration: windowSeconds,
        insuranceLimiter: new RateLimiterMemory({ points: perWindow, duration: windowSeconds }),
      },
      (error?: Error) => (error ? reject(error) : resolve(created)),
    );
  });
  return {
    take: async (client) => {
      try {
        await limiter.consume(client);
        return 0;
      } catch (refusal) {
        if (!(refusal instanceof RateLimiterRes)) throw refusal;
        return secondsLeft(refusal);
      }
    },
    exhausted: async (client) => {
      const counted = await limiter.get(client);
      return counted && counted.consumedPoints >= perWindow ? secondsLeft(counted) : 0;
    },
    giveBack: async (client) => {
      await limiter.reward(client, 1);
    },
  };
}

function secondsLeft(counted: RateLimiterRes): number {
  return Math.max(1, Math.ceil(counted.msBeforeNext / 1000));
}
