import { fileURLToPath } from 'node:url';
import type { Route } from '../http/route.ts';
import { browserPageRoutes } from '../web-assets/browser-page.ts';

/**
 * The demo storefront (main.ts): mounted in development only (app.ts), so elsewhere it is a 404.
 * tenpo/search-browser imports MiniSearch, whose ES modules (each a file importing nothing) are
 * served beside the page's own.
 */
export function devStorefrontRoutes(): Route[] {
  return browserPageRoutes({
    path: '/dev/storefront',
    entry: 'dev-storefront/main.ts',
    stylesheet: new URL('./storefront.css', import.meta.url),
    title: 'tenpo ストア（開発用デモ）',
    body: `<header><h1>tenpo</h1><p>開発用のデモストア: tenpo/client と tenpo/search-browser の使い方の見本</p></header>
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
</form>`,
    packages: Object.fromEntries(
      ['minisearch', 'minisearch/SearchableMap'].map((name) => [name, fileURLToPath(import.meta.resolve(name))]),
    ),
    tag: 'Development',
    summary: 'A demo storefront (development only): catalog, search in the page with tenpo/search-browser, reservation and restock forms',
  });
}
