import { Context, type Env } from 'hono';
import type { Lane, NodeAnswer } from './node-adapter.ts';

/** What the app serves one path with: the whole chain its router would call (src/http/mount.ts). */
export type PathHandler<E extends Env> = (c: Context<E>) => Response | NodeAnswer | Promise<Response | NodeAnswer>;

/**
 * The direct lane: a GET or HEAD (which reaches the app as its GET) whose path is written exactly as
 * one the app mounted is answered by that path's handler, called with a Hono Context made here:
 * the same function, so the same bytes, as through the app, less Hono's router and the compose
 * around it. For a search they cost more than the search itself did (docs/performance.md). Anything
 * else goes to the app: another method, a path written another way (a percent-escape, a trailing
 * slash, an absolute URL), a path with parameters.
 */
export function directLane<E extends Env>(paths: ReadonlyMap<string, PathHandler<E>>): Lane {
  return (request, bindings) => {
    if (request.method !== 'GET') return undefined;
    const target = bindings.incoming.url ?? '';
    const queryAt = target.indexOf('?');
    const path = queryAt === -1 ? target : target.slice(0, queryAt);
    const handler = paths.get(path);
    return handler?.(new Context<E>(request as unknown as Request, { env: bindings as E['Bindings'], path }));
  };
}
