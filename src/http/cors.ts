import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import type { Config } from '../config.ts';
import type { CorsPolicy } from './route.ts';

const LOCAL_DEVELOPMENT = /^http:\/\/(?:[a-z0-9-]+\.)*localhost:34434$/;

/** The shop's own origins: production, any preview deployment, and local development on port 34434. */
export function shopOrigins(settings: Config['cors']): (origin: string) => boolean {
  const production = settings.productionOrigin ? new URL(settings.productionOrigin).origin : undefined;
  const preview = settings.previewOriginPattern;
  return (origin) => origin === production || LOCAL_DEVELOPMENT.test(origin) || (preview?.test(origin) ?? false);
}

/**
 * CORS for one path. Preflight (OPTIONS) answers 204 with the methods the path serves; a disallowed
 * origin simply gets no Access-Control-Allow-Origin, so the browser keeps the response from it.
 */
export function corsFor(policy: CorsPolicy, methods: string[], isShopOrigin: (origin: string) => boolean): MiddlewareHandler | undefined {
  if (policy === 'none') return undefined;
  return cors({
    origin: policy === 'any' ? '*' : (origin) => (isShopOrigin(origin) ? origin : null),
    allowMethods: methods,
    allowHeaders: ['Content-Type', 'Authorization'],
    exposeHeaders: ['X-Request-Id', 'Retry-After'],
    maxAge: 600,
  });
}
