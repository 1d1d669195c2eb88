import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadBrowserModules } from '../web-assets/browser-modules.ts';
import { staticFile, type StaticFile } from '../web-assets/static-file.ts';

export const STOREFRONT_ASSETS_PREFIX = '/dev/storefront/assets/';

export interface StorefrontPage {
  page: StaticFile;
  csp: string;
  /** Modules, MiniSearch and the stylesheet, by their path under the assets prefix. */
  assets: Map<string, StaticFile>;
}

/**
 * The demo storefront (main.ts) as one page, built on its first request as the console is: its
 * modules stripped of their types behind an import map, and MiniSearch's ES modules (each a
 * file importing nothing) for tenpo/search-browser, which imports them.
 */
export function loadStorefrontPage(): StorefrontPage {
  const modules = loadBrowserModules('dev-storefront/main.ts', STOREFRONT_ASSETS_PREFIX, {
    packages: Object.fromEntries(['minisearch', 'minisearch/SearchableMap'].map((name) => [name, fileURLToPath(import.meta.resolve(name))])),
  });
  const style = staticFile('storefront.css', readFileSync(new URL('./storefront.css', import.meta.url)), { hashed: true });
  const assets = new Map(modules.files);
  assets.set(`dev-storefront/${style.name}`, style);
  const importMap = JSON.stringify(modules.importMap);
  const importMapHash = createHash('sha256').update(importMap).digest('base64');
  const html = `<!doctype html>
<html lang="ja">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>tenpo ストア（開発用デモ）</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${STOREFRONT_ASSETS_PREFIX}dev-storefront/${style.name}">
<script type="importmap">${importMap}</script>
${modules.urls.map((url) => `<link rel="modulepreload" href="${url}">`).join('\n')}
<script type="module" src="${modules.entryUrl}"></script>
</head>
<body>
<header><h1>tenpo</h1><p>開発用のデモストア: tenpo/client と tenpo/search-browser の使い方の見本</p></header>
<main>
<section id="search" aria-labelledby="search-heading">
  <h2 id="search-heading">サイト内検索 <span id="search-count" class="count"></span></h2>
  <input id="search-q" type="search" autocomplete="off" aria-label="サイト内検索" placeholder="検索インデックスを読み込み中…" disabled>
  <ul id="suggestions" aria-label="候補"></ul>
  <ol id="results"></ol>
</section>
<section id="shop" aria-labelledby="catalog-heading">
  <h2 id="catalog-heading">商品 <span id="catalog-count" class="count"></span></h2>
  <input id="catalog-q" type="search" autocomplete="off" aria-label="商品を絞り込む" placeholder="キーワードで絞り込む">
  <div id="tags" aria-label="タグ"></div>
  <div id="catalog"></div>
</section>
</main>
<form id="order" hidden novalidate>
  <h2 id="order-title"></h2>
  <label id="name-field">お名前<input id="name" name="name" autocomplete="name"><span class="field-error" data-error-for="name"></span></label>
  <label>メールアドレス<input id="email" name="email" type="email" autocomplete="email"><span class="field-error" data-error-for="email"></span></label>
  <span class="field-error" data-error-for="productSlug"></span>
  <p id="order-result" role="status"></p>
  <div class="actions"><button type="submit">送信する</button><button type="button" id="order-close">閉じる</button></div>
</form>
</body>
</html>
`;
  return {
    page: staticFile('storefront.html', html, { hashed: false }),
    csp: `default-src 'none'; script-src 'self' 'sha256-${importMapHash}'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    assets,
  };
}
