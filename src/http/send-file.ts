import type { Context } from 'hono';
import { fileAnswer, type StaticFile } from '../serving/static-file.ts';
import type { AppEnv } from './app-env.ts';
import { AppError } from './app-error.ts';
import { reply } from './reply.ts';
import { requestHeader } from './request.ts';
import { defineRoute, type Route } from './route.ts';
import { errorResponses } from './schemas.ts';

/** Sends a file as the serving layer answers it (src/serving/static-file.ts): ETag, gzip, 304. */
export async function sendStaticFile(c: Context<AppEnv>, file: StaticFile, extraHeaders: Record<string, string> = {}): Promise<Response> {
  const request = { acceptEncoding: requestHeader(c, 'accept-encoding'), ifNoneMatch: requestHeader(c, 'if-none-match') };
  const { status, headers, body } = await fileAnswer(file, request, extraHeaders);
  return reply(c, status, body, headers);
}

/**
 * The route of a page's content-hashed files (modules, scripts, stylesheets): each `find`s its file
 * from the request's path parameters; any other name is 404.
 */
export function hashedFilesRoute(options: {
  path: string;
  tag: string;
  summary: string;
  files: string;
  find: (c: Context<AppEnv>) => StaticFile | undefined;
}): Route {
  return defineRoute({
    method: 'GET',
    path: options.path,
    tag: options.tag,
    summary: options.summary,
    description:
      'Named by a hash of its content, so it is cached for a year (`Cache-Control: public, max-age=31536000, immutable`) with a strong `ETag`; gzipped when the client accepts it; an unknown name is 404.',
    cors: 'none',
    errors: ['not_found'],
    responses: {
      200: { description: options.files, contentType: 'text/*' },
      ...errorResponses(404, 405, 500),
    },
    handle: (c) => {
      const file = options.find(c);
      if (!file) throw new AppError('not_found', 'Not found');
      return sendStaticFile(c, file);
    },
  });
}
