import { AppError } from '../../http/app-error.ts';
import { defineRoute, type Route } from '../../http/route.ts';
import { errorResponses } from '../../http/schemas.ts';
import { sendStaticFile } from '../../web-assets/static-file.ts';
import { CONSOLE_ASSETS_PREFIX, loadConsolePage, type ConsolePage } from './console-page.ts';

const TAG = 'Admin console';

/** The staff's web console: one page and its modules. The page itself holds no data and needs no token. */
export function adminConsoleRoutes(): Route[] {
  let built: ConsolePage | undefined;
  const consolePage = () => (built ??= loadConsolePage());

  return [
    defineRoute({
      method: 'GET',
      path: '/admin',
      tag: TAG,
      summary: 'The administration console (Japanese), for the shop’s staff',
      description: 'Signs in with the admin token, which it keeps in the tab’s sessionStorage and sends only as a bearer header.',
      cors: 'none',
      responses: {
        200: { description: 'The console’s page; revalidated on every visit (ETag)', contentType: 'text/html' },
        ...errorResponses(405, 500),
      },
      handle: (c) => {
        const { page, csp } = consolePage();
        return sendStaticFile(c, page, { 'Content-Security-Policy': csp, 'Referrer-Policy': 'no-referrer' });
      },
    }),
    defineRoute({
      method: 'GET',
      path: `${CONSOLE_ASSETS_PREFIX}:dir/:file`,
      tag: TAG,
      summary: 'A module or the stylesheet of the console',
      description: 'Named by a hash of its content, so it is cached for a year (immutable); gzipped when the client accepts it.',
      cors: 'none',
      responses: {
        200: { description: 'The module or stylesheet', contentType: 'text/*' },
        ...errorResponses(404, 405, 500),
      },
      handle: (c) => {
        const file = consolePage().assets.get(`${c.req.param('dir')}/${c.req.param('file')}`);
        if (!file) throw new AppError(404, 'Not found');
        return sendStaticFile(c, file);
      },
    }),
  ];
}
