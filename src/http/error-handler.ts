import type { Context, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { Logger } from '../log.ts';
import type { AppEnv } from './app-env.ts';
import { AppError, errorBody } from './app-error.ts';
import { replyJson } from './reply.ts';
import { requestLog } from './request-context.ts';
import { INTERNAL_SERVER_ERROR } from './route.ts';

/**
 * The one place a thrown error becomes a response. AppError carries its own status and message;
 * anything else is a bug or an outage: logged with the request id, answered with the route's
 * generic 500 message and never a stack trace or SQL.
 */
export function errorHandler(log: Logger): (error: unknown, c: Context<AppEnv>) => Response {
  return (error, c) => {
    if (error instanceof AppError) return replyJson(c, error.status, error.toBody(), error.headers);
    if (error instanceof HTTPException && error.status < 500) {
      return replyJson(c, error.status, errorBody('bad_request', error.message || 'Bad request'));
    }
    (c.get('baseLog') ? requestLog(c) : log).error({ err: error }, 'request failed');
    return replyJson(c, 500, errorBody('internal_error', c.get('serverErrorMessage') ?? INTERNAL_SERVER_ERROR));
  };
}

export const notFound: NotFoundHandler<AppEnv> = (c: Context<AppEnv>) => replyJson(c, 404, errorBody('not_found', 'Not found'));
