import { AppError } from '../http/app-error.ts';
import { defineRoute, type Route } from '../http/route.ts';
import { errorResponses } from '../http/schemas.ts';
import { sendStaticFile } from '../web-assets/static-file.ts';
import { loadStorefrontPage, STOREFRONT_ASSETS_PREFIX, type StorefrontPage } from './page.ts';

const TAG = 'Development';

/** The demo storefront: mounted in development only (app.ts), so elsewhere it is a 404. */
export function devStorefrontRoutes(): Route[] {
  let built: StorefrontPage | undefined;
  const storefront = () => (built ??= loadStorefrontPage());

  return [
    defineRoute({
      method: 'GET',
      path: '/dev/storefront',
      tag: TAG,
      summary: 'A demo storefront (development only): catalog, search in the page with tenpo/search-browser, reservation and restock forms',
      cors: 'none',
      responses: {
        200: { description: 'The page; revalidated on every visit (ETag)', contentType: 'text/html' },
        ...errorResponses(405, 500),
      },
      handle: (c) => {
        const { page, csp } = storefront();
        return sendStaticFile(c, page, { 'Content-Security-Policy': csp, 'Referrer-Policy': 'no-referrer' });
      },
    }),
    defineRoute({
      method: 'GET',
      path: `${STOREFRONT_ASSETS_PREFIX}:dir/:file`,
      tag: TAG,
      summary: 'A module, MiniSearch or the stylesheet of the demo storefront',
      description: 'Named by a hash of its content, so it is cached for a year (immutable); gzipped when the client accepts it.',
      cors: 'none',
      responses: {
        200: { description: 'The module or stylesheet', contentType: 'text/*' },
        ...errorResponses(404, 405, 500),
      },
      handle: (c) => {
        const file = storefront().assets.get(`${c.req.param('dir')}/${c.req.param('file')}`);
        if (!file) throw new AppError(404, 'Not found');
        return sendStaticFile(c, file);
      },
    }),
  ];
}
