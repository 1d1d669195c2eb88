import type { Environment } from '../config.ts';
import { reply } from '../http/reply.ts';
import { defineRoute, type Route } from '../http/route.ts';
import { HTML_PAGE_HEADERS, htmlPage } from '../text/html-page.ts';

/** The pages a visitor of the service's own address may be looking for; the demo storefront runs in development only. */
function links(environment: Environment): { href: string; text: string }[] {
  return [
    { href: '/docs', text: 'API リファレンス（/docs）: every endpoint, from /openapi.json' },
    { href: '/admin', text: '管理画面（/admin）: the staff console' },
    ...(environment === 'development'
      ? [{ href: '/dev/storefront', text: '開発用デモストア（/dev/storefront）: the demo storefront' }]
      : []),
    { href: '/healthz', text: '稼働状況（/healthz）: the health check' },
  ];
}

/**
 * GET /: a small page saying what answers at this address and where to go from here, so that
 * someone who opens the service's URL in a browser finds the reference and the console instead of
 * a bare 404.
 */
export function frontPageRoutes(environment: Environment): Route[] {
  const page = htmlPage(
    'tenpo（店舗）',
    [
      '<p>ユーロラック・モジュールのオンラインショップのバックエンドです。商品カタログ、サイト内検索、ご予約、入荷通知、メールとチャットの通知、スタッフ用の管理機能を提供します。</p>',
      '<p lang="en">The back end of an online shop for eurorack modules: catalog, site search, reservations, restock notices, emails and chat notices, and the staff’s admin tools.</p>',
      '<ul>',
      ...links(environment).map(({ href, text }) => `<li><a href="${href}">${text}</a></li>`),
      '</ul>',
    ].join('\n'),
  );
  return [
    defineRoute({
      method: 'GET',
      path: '/',
      tag: 'Service',
      summary: 'A page saying what this service is, with links to the API reference and the console',
      description:
        'A small HTML page saying what the service is, with links to `/docs`, `/admin`, `/healthz` and, in `development`, `/dev/storefront`.',
      cors: 'none',
      responses: { 200: { description: 'The page (HTML)', contentType: 'text/html' } },
      handle: (c) => reply(c, 200, page, HTML_PAGE_HEADERS),
    }),
  ];
}
