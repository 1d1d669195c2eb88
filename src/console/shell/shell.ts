import { ApiError, type TenpoClient } from '../../client/tenpo-client.ts';
import { errorMessage, TOKEN_REJECTED } from '../api/errors.ts';
import { loadProducts } from '../api/products.ts';
import type { Screen, ScreenContext } from '../screen.ts';
import { h, replace } from '../ui/dom.ts';
import { SCREENS, type ScreenEntry } from './screens.ts';
import { shopWarning } from './shop-warning.ts';
import { readParams, screenHash } from './url-state.ts';

const SUCCESS_SHOWN_MS = 8_000;

/**
 * The signed-in console: header, navigation, the notice line and the screen the location hash names.
 * A screen's module is loaded on its first visit. Every change of the hash leaves the screen shown
 * (asking it first: it may refuse, and the URL is put back) and shows the one the hash names.
 * Returns what stops it, when the session ends.
 */
export function renderShell(root: HTMLElement, options: { api: TenpoClient; onSignOut: (message?: string) => void }): () => void {
  const { api } = options;
  const notice = h('p', { class: 'notice', role: 'status', hidden: true });
  const warning = shopWarning();
  const area = h('div', { class: 'screen' });
  const nav = h('nav', { 'aria-label': '画面' }, ...SCREENS.map((entry) => h('a', { href: entry.hash }, entry.label)));
  let fadeTimer: ReturnType<typeof setTimeout> | undefined;
  let context: ScreenContext | undefined;
  /** The screen shown now, once its module has loaded. */
  let current: Screen | undefined;
  /** Counts showings: a screen whose module arrives after another was asked for is not drawn. */
  let showing = 0;
  /** Leaving is asked one change at a time, in order. */
  let changes = Promise.resolve();

  const announce = (message: string, tone: 'success' | 'error') => {
    clearTimeout(fadeTimer);
    notice.textContent = message;
    notice.className = `notice ${tone}`;
    notice.setAttribute('role', tone === 'error' ? 'alert' : 'status');
    notice.hidden = false;
    if (tone === 'success') fadeTimer = setTimeout(() => (notice.hidden = true), SUCCESS_SHOWN_MS);
  };
  const fail = (error: unknown) => {
    if (error instanceof ApiError && error.status === 401) return options.onSignOut(TOKEN_REJECTED);
    announce(errorMessage(error), 'error');
  };

  async function show(entry: ScreenEntry, screenContext: ScreenContext): Promise<void> {
    const mine = ++showing;
    current = undefined;
    for (const link of nav.querySelectorAll('a')) link.toggleAttribute('aria-current', link.getAttribute('href') === entry.hash);
    notice.hidden = true;
    document.title = `${entry.label} | tenpo 管理`;
    const container = h('section', { class: 'view', 'aria-label': entry.label }, h('p', { class: 'loading' }, '読み込み中…'));
    replace(area, container);
    let module;
    try {
      module = await entry.load();
    } catch {
      // A chunk that is gone: the service was updated since this page loaded.
      if (mine !== showing) return;
      return replace(
        container,
        h(
          'p',
          { class: 'notice error', role: 'alert' },
          'この画面を読み込めませんでした。管理画面が更新された可能性があります。ページを再読み込みしてください。',
        ),
        h('button', { type: 'button', onClick: () => location.reload() }, '再読み込み'),
      );
    }
    if (mine !== showing) return;
    current = module.openScreen(screenContext);
    await current.show(container, readParams());
  }

  /** Whether the screen shown may be left now. */
  const mayLeave = async () => !current?.leave || (await current.leave());

  const onHashChange = (event: HashChangeEvent) => {
    changes = changes.then(async () => {
      if (!context || location.href === event.oldURL) return;
      if (!(await mayLeave())) return history.replaceState(history.state, '', event.oldURL);
      void show(entryOf(screenHash()), context);
    });
  };

  async function start(): Promise<void> {
    replace(area, h('p', { class: 'loading' }, '読み込み中…'));
    try {
      const [products, { shop }] = await Promise.all([loadProducts(api), api.call('/api/admin/shop/get', {})]);
      warning.show(shop);
      context = { api, products, announce, fail, shopChanged: warning.show };
      await show(entryOf(screenHash()), context);
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return options.onSignOut(TOKEN_REJECTED);
      replace(
        area,
        h('p', { class: 'notice error', role: 'alert' }, errorMessage(error)),
        h('button', { type: 'button', onClick: () => void start() }, '再試行'),
      );
    }
  }

  replace(
    root,
    h(
      'header',
      { class: 'top' },
      h('span', { class: 'brand' }, 'tenpo 管理'),
      nav,
      h('button', { type: 'button', class: 'sign-out', onClick: async () => (await mayLeave()) && options.onSignOut() }, 'ログアウト'),
    ),
    h('main', {}, warning.element, notice, area),
  );
  window.addEventListener('hashchange', onHashChange);
  void start();
  return () => {
    window.removeEventListener('hashchange', onHashChange);
    showing++;
  };
}

function entryOf(hash: string): ScreenEntry {
  return SCREENS.find((entry) => entry.hash === hash) ?? SCREENS[0]!;
}
