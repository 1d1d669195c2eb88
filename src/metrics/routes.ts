import { reply } from '../http/reply.ts';
import { defineRoute, type Route } from '../http/route.ts';
import { errorResponses } from '../http/schemas.ts';
import type { Metrics } from './metrics.ts';

/** GET /metrics for Prometheus, behind the admin token or, when set, METRICS_TOKEN (so a scraper need not hold the admin's). */
export function metricsRoutes(metrics: Metrics, metricsToken: string | undefined): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/metrics',
      tag: 'Health',
      summary: 'Prometheus metrics: requests, outbox, deliveries, keyword log, process',
      description:
        'Prometheus text format. Accepts the admin token, or METRICS_TOKEN when that is set. Requests are labelled with the route template as mounted (`unmatched` when none), never the raw URL. What each metric means and the alerts on them: [operations.md](operations.md#metrics-and-alerts).',
      // As every admin route: the bearer token, not the origin, is what guards it.
      cors: 'any',
      admin: true,
      alsoAccepts: metricsToken,
      responses: {
        200: { description: 'The metrics', contentType: metrics.contentType, headers: { 'Cache-Control': 'no-store' } },
        ...errorResponses(401, 405),
      },
      handle: async (c) => reply(c, 200, await metrics.render(), { 'Content-Type': metrics.contentType, 'Cache-Control': 'no-store' }),
    }),
  ];
}
