import { EMAIL_BODY_STYLE } from '../../messaging/templates/render.ts';
import type { Route } from '../../http/route.ts';
import { browserPageRoutes } from '../../web-assets/browser-page.ts';

/** The staff's web console: one page and its modules. The page itself holds no data and needs no token. */
export function adminConsoleRoutes(): Route[] {
  return browserPageRoutes({
    path: '/admin',
    entry: 'admin-console/main.ts',
    stylesheet: new URL('../console.css', import.meta.url),
    // The email preview's frame inherits the page's policy: it may show the email's own body style.
    inlineStyles: [EMAIL_BODY_STYLE],
    title: 'tenpo 管理',
    body: `<div id="app" aria-live="polite"><p class="boot">読み込み中…</p></div>
<noscript>この管理画面には JavaScript が必要です。</noscript>`,
    tag: 'Admin console',
    summary: 'The administration console (Japanese), for the shop’s staff',
    description: 'Signs in with the admin token, which it keeps in the tab’s sessionStorage and sends only as a bearer header.',
  });
}
