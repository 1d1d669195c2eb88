import type { Context } from 'hono';
import type { PlainAnswer } from '../serving/cached-json.ts';
import type { AppEnv } from './app-env.ts';
import { reply } from './reply.ts';
import { nodeRequest, requestHeader, requestTarget } from './request.ts';

/**
 * A GET as a route that answers from its target and headers alone reads it (route.ts, `answer`):
 * the same whether it came through the app or straight from Node's server (direct-lane.ts).
 */
export interface PlainRequest {
  method: 'GET' | 'HEAD';
  /** Path and query string as sent, undecoded. */
  target: string;
  /** A request header by its lowercase name; the lines of a repeated one joined by ", ". */
  header(name: string): string | undefined;
  /** The connection's peer address ('unknown' without one); the client is resolved from it (client-address.ts). */
  peer: string;
}

export function plainRequestOf(c: Context<AppEnv>): PlainRequest {
  return {
    method: c.req.method === 'HEAD' ? 'HEAD' : 'GET',
    target: requestTarget(c),
    header: (name) => requestHeader(c, name),
    peer: nodeRequest(c)?.socket.remoteAddress ?? 'unknown',
  };
}

export function replyPlain(c: Context<AppEnv>, answer: PlainAnswer): Response {
  return reply(c, answer.status, answer.body, answer.headers);
}
