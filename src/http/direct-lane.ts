import type { IncomingMessage } from 'node:http';
import type { Logger } from '../log.ts';
import type { DirectLane } from '../serving/node-server.ts';
import { corsHeaders } from './cors.ts';
import type { PlainAnswer } from '../serving/cached-json.ts';
import type { PlainRequest } from './plain.ts';
import { everyAnswerHeaders, requestAnswered, requestIdOf, type RequestObserver } from './request-context.ts';
import { nodeHeader } from './request.ts';
import type { Route } from './route.ts';

interface LaneOptions {
  log: Logger;
  metrics: RequestObserver;
  /** For routes whose CORS policy is the shop's allow-list (cors.ts). */
  isShopOrigin: (origin: string) => boolean;
}

/**
 * The GETs of the routes that answer from their target and headers alone (`answer`, route.ts),
 * answered straight from Node's request. For a search, the app's routing, its context and the web
 * Request and Response objects around them cost more than the search itself (docs/performance.md).
 * What the app adds to every answer is added here the same way: the request id and
 * X-Content-Type-Options (request-context.ts), the route's CORS headers (cors.ts), the request
 * metrics and the access line. Anything else is left to the app, which answers it as always: another
 * method (HEAD, OPTIONS, POST…), a path written any other way than the route's own (a percent-escape,
 * a trailing slash), and an answer that throws, which the app then answers as the error it is.
 */
export function directLane(routes: Route[], options: LaneOptions): DirectLane {
  const answered = requestAnswered(options.log, options.metrics);
  const byPath = new Map(routes.filter((route) => route.answer && route.method === 'GET').map((route) => [route.path, route]));
  return (request, response) => {
    if (request.method !== 'GET' || byPath.size === 0) return false;
    const started = performance.now();
    const target = request.url ?? '';
    const queryAt = target.indexOf('?');
    const path = queryAt === -1 ? target : target.slice(0, queryAt);
    const route = byPath.get(path);
    if (!route) return false;
    let answer: PlainAnswer;
    try {
      answer = route.answer!(plainRequest(request, target));
    } catch {
      return false;
    }
    const reqId = requestIdOf(nodeHeader(request, 'x-request-id'));
    const headers: Record<string, string | number> = {
      ...everyAnswerHeaders(reqId),
      ...corsHeaders(route.cors, nodeHeader(request, 'origin'), options.isShopOrigin),
      ...answer.headers,
    };
    if (answer.body) headers['Content-Length'] = answer.body.byteLength;
    response.writeHead(answer.status, headers);
    endsOfThisTurn.push(() => {
      response.end(answer.body);
      answered({ reqId, route: route.path, method: 'GET', path, status: answer.status, started });
    });
    if (endsOfThisTurn.length === 1) setImmediate(endAll);
    return true;
  };
}

/**
 * The lane's answers of one turn of the event loop, sent together once the requests that turn read
 * are answered (setImmediate runs right after them). Under load a turn reads many requests; each
 * answer written as soon as it is made would wake the client (or the proxy in front, on the same
 * machine) once per answer, and the service would pay for that wake-up in its write: sent together,
 * they wake it once. A lone request waits for nothing: its turn ends with it.
 */
let endsOfThisTurn: (() => void)[] = [];

function endAll(): void {
  const ends = endsOfThisTurn;
  endsOfThisTurn = [];
  for (const end of ends) end();
}

function plainRequest(request: IncomingMessage, target: string): PlainRequest {
  return { method: 'GET', target, header: (name) => nodeHeader(request, name), peer: request.socket.remoteAddress ?? 'unknown' };
}
