import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { Logger } from '../log.ts';
import type { AppEnv } from './app-env.ts';
import { AppError } from './app-error.ts';
import { INTERNAL_SERVER_ERROR } from './route.ts';

/**
 * The one place a thrown error becomes a response. AppError carries its own status and message;
 * anything else is a bug or an outage: logged with the request id, answered with the route's
 * generic 500 message and never a stack trace or SQL.
 */
export function errorHandler(log: Logger): ErrorHandler<AppEnv> {
  return (error, c) => {
    if (error instanceof AppError) return c.json(error.toBody(), error.status, error.headers);
    if (error instanceof HTTPException && error.status < 500) {
      return c.json({ success: false, error: error.message || 'Bad request' }, error.status);
    }
    (c.var.log ?? log).error({ err: error }, 'request failed');
    return c.json({ success: false, error: c.var.serverErrorMessage ?? INTERNAL_SERVER_ERROR }, 500);
  };
}

export const notFound: NotFoundHandler<AppEnv> = (c: Context<AppEnv>) => c.json({ success: false, error: 'Not found' }, 404);

export const payloadTooLarge = (c: Context<AppEnv>) => c.json({ success: false, error: 'Payload too large' }, 413);
