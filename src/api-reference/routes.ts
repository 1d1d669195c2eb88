import { z } from 'zod';
import { serializeJson, type CachedJson } from '../serving/cached-json.ts';
import { sendCachedJson } from '../http/reply.ts';
import { defineRoute, type Route } from '../http/route.ts';
import { ERROR_CODES } from '../http/error-codes.ts';
import { errorResponses } from '../http/schemas.ts';
import { hashedFilesRoute, sendStaticFile } from '../http/send-file.ts';
import packageJson from '../../package.json' with { type: 'json' };
import { DOCS_CSP, loadDocsPage, type DocsPage } from './docs-page.ts';
import { openApiDocument } from './openapi-document.ts';

const TAG = 'API reference';

const DESCRIPTION = `The back end of a eurorack module shop: catalog, site search, reservations, restock subscriptions and their administration.

- Bodies are JSON, parsed as JSON whatever the Content-Type says; a body must be an object and at most 64 KiB (413 otherwise).
- Failures answer with the envelope \`{success: false, error, code, details?: [{field, message}]}\`; unknown paths with 404 \`Not found\`. \`code\` names the error for a program (below; each response lists the codes it can carry); \`error\` is the text for people, and may be reworded.
- Every path answers OPTIONS (CORS preflight, 204); GET paths also answer HEAD; other methods get 405 with an \`Allow\` header.
- Administrator routes need \`Authorization: Bearer <token>\`, checked before the body is read, and allow any origin. Public storefront routes allow the shop's own origins only.
- Every response carries \`X-Request-Id\` (the caller's own when it sends a short plain one); a 500 is logged under it.
- Timestamps are ISO 8601 strings in UTC with milliseconds.

## Error codes

A published code never changes meaning. Codes without a status name an item of a bulk answer (\`errors: [{id, error, code}]\`).

| code | status | meaning |
|---|---|---|
${Object.entries(ERROR_CODES)
  .map(([code, entry]) => `| \`${code}\` | ${'status' in entry ? entry.status : 'item'} | ${entry.meaning} |`)
  .join('\n')}`;

/** The document's shape, loosely: it is checked against the OpenAPI 3.1 schema by the tests. */
export const DocumentSchema = z.looseObject({
  openapi: z.string(),
  info: z.object({ title: z.string(), version: z.string(), description: z.string() }),
  paths: z.record(z.string(), z.record(z.string(), z.unknown())),
});

/**
 * GET /openapi.json and the interactive reference at /docs. `describedRoutes` is called on first
 * request, so the document can describe every route, these ones included; `publicBaseUrl` is the
 * document's server.
 */
export function apiReferenceRoutes(describedRoutes: () => Route[], publicBaseUrl: string): Route[] {
  let document: CachedJson | undefined;
  let docs: DocsPage | undefined;
  const docsPage = () => (docs ??= loadDocsPage());

  return [
    defineRoute({
      method: 'GET',
      path: '/openapi.json',
      tag: TAG,
      summary: 'This document: OpenAPI 3.1, generated from the schemas the handlers validate with',
      description:
        'Generated at run time from the same zod schemas the handlers validate with, so it cannot drift from the code (a test checks that the routes served and the routes documented are the same set, and that every answer of a full workflow matches its schema). ' +
        'The shared shapes are named components (`Product`, `Reservation`, `ArchivedReservation`, `Subscription`, `ArchivedSubscription`, `SearchResult`, `KeywordLogEntry`, `ErrorBody`, …: a schema declared with `.meta({ id })`), and its server is `PUBLIC_BASE_URL`. `Cache-Control: no-cache`.',
      cors: 'any',
      responses: {
        200: { description: 'The OpenAPI document', schema: DocumentSchema, headers: { 'Cache-Control': 'no-cache' } },
        ...errorResponses(405, 500),
      },
      handle: (c) => {
        document ??= serializeJson(
          openApiDocument(describedRoutes(), { title: 'tenpo', version: packageJson.version, description: DESCRIPTION }, publicBaseUrl),
        );
        return sendCachedJson(c, document, { 'Cache-Control': 'no-cache' });
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/docs',
      tag: TAG,
      summary: 'The interactive API reference (Swagger UI), served by the service itself',
      description: 'Served from `swagger-ui-dist`: no CDN, works offline; "Authorize" keeps the admin token in page memory.',
      cors: 'none',
      responses: {
        200: { description: 'The reference page; revalidated on every visit (ETag)', contentType: 'text/html' },
        ...errorResponses(405, 500),
      },
      handle: (c) => sendStaticFile(c, docsPage().page, { 'Content-Security-Policy': DOCS_CSP }),
    }),
    hashedFilesRoute({
      path: '/docs/assets/:file',
      tag: TAG,
      summary: 'A script or stylesheet of the reference page',
      files: 'The script or stylesheet',
      find: (c) => docsPage().assets.get(c.req.param('file') ?? ''),
    }),
  ];
}
