import { EMAIL_BODY_STYLE } from '../messaging/templates/render.ts';

// The pages the service serves from its own browser code (the staff console, the demo storefront):
// each is one HTML page at its path, and the files `npm run build` bundled for it (bundle.ts) under
// `<path>/assets/` (browser-page.ts), with a strict content security policy that allows scripts and
// styles from this origin only.

export interface BrowserPageDefinition {
  path: string;
  /** The entry module, project-relative (`src/console/main.ts`). */
  entry: string;
  /** The stylesheet, project-relative. */
  stylesheet: string;
  /** Served in development only (and not checked elsewhere). */
  developmentOnly?: boolean;
  title: string;
  /** The HTML inside <body>. */
  body: string;
  /** Style attribute values the page may show in frames of its own making (an email's preview); all others are refused. */
  inlineStyles?: string[];
  /** For the API reference. */
  tag: string;
  summary: string;
  description: string;
}

export const BROWSER_PAGES = {
  /** The staff's web console (src/console/). The page itself holds no data and needs no token. */
  admin: {
    path: '/admin',
    entry: 'src/console/main.ts',
    stylesheet: 'src/console/console.css',
    // The email preview's frame inherits the page's policy: it may show the email's own body style.
    inlineStyles: [EMAIL_BODY_STYLE],
    title: 'tenpo 管理',
    body: `<div id="app" aria-live="polite"><p class="boot">読み込み中…</p></div>
<noscript>この管理画面には JavaScript が必要です。</noscript>`,
    tag: 'Admin console',
    summary: 'The administration console (Japanese), for the shop’s staff',
    description:
      'The staff console ([console.md](console.md)). Signs in with the admin token, which it keeps in the tab’s sessionStorage and sends only as a bearer header.',
  },
  /**
   * The storefront developer's working example (src/dev-storefront/), tenpo/client and
   * tenpo/search-browser in use; served in development only, elsewhere a 404.
   */
  'dev-storefront': {
    path: '/dev/storefront',
    entry: 'src/dev-storefront/main.ts',
    stylesheet: 'src/dev-storefront/storefront.css',
    developmentOnly: true,
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
    tag: 'Development',
    summary: 'A demo storefront (development only): catalog, search in the page with tenpo/search-browser, reservation and restock forms',
    description:
      'Served in `development` only (404 in `preview` and `production`): [storefront-package.md](storefront-package.md#the-demo-storefront-development-only).',
  },
} satisfies Record<string, BrowserPageDefinition>;

export type PageName = keyof typeof BROWSER_PAGES;
