import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { staticFile, type StaticFile } from '../../web-assets/static-file.ts';
import { loadBrowserModules } from '../../web-assets/browser-modules.ts';

export const CONSOLE_ASSETS_PREFIX = '/admin/assets/';

export interface ConsolePage {
  page: StaticFile;
  /** The page's Content-Security-Policy: this origin only, plus the page's own import map. */
  csp: string;
  /** Modules and the stylesheet, by their path under the assets prefix. */
  assets: Map<string, StaticFile>;
}

/** The console's one page and everything it loads; built on the first request for any of them. */
export function loadConsolePage(): ConsolePage {
  const modules = loadBrowserModules('admin-console/main.ts', CONSOLE_ASSETS_PREFIX);
  const style = staticFile('console.css', readFileSync(new URL('../console.css', import.meta.url)), { hashed: true });
  const assets = new Map(modules.files);
  assets.set(`admin-console/${style.name}`, style);

  const importMap = JSON.stringify(modules.importMap);
  const importMapHash = createHash('sha256').update(importMap).digest('base64');
  const html = `<!doctype html>
<html lang="ja">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>tenpo 管理</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${CONSOLE_ASSETS_PREFIX}admin-console/${style.name}">
<script type="importmap">${importMap}</script>
${modules.urls.map((url) => `<link rel="modulepreload" href="${url}">`).join('\n')}
<script type="module" src="${modules.entryUrl}"></script>
</head>
<body>
<div id="app" aria-live="polite"><p class="boot">読み込み中…</p></div>
<noscript>この管理画面には JavaScript が必要です。</noscript>
</body>
</html>
`;
  return {
    page: staticFile('admin.html', html, { hashed: false }),
    csp: `default-src 'none'; script-src 'self' 'sha256-${importMapHash}'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    assets,
  };
}
