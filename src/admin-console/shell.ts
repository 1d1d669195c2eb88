import { ApiError, type TenpoClient } from '../client/tenpo-client.ts';
import { errorMessage, TOKEN_REJECTED } from './api-errors.ts';
import { h, replace } from './dom.ts';
import { loadProducts, type ProductOption } from './products.ts';
import { screenHash } from './url-state.ts';

/** What a screen gets from the shell around it. */
export interface ViewContext {
  api: TenpoClient;
  products: Map<string, ProductOption>;
  /** Shows a message above the screen: a success fades, an error stays until the next one. */
  announce(message: string, tone: 'success' | 'error'): void;
  /** Reports a failed call; a refused token ends the session. `labels` name the statuses its message may quote. */
  fail(error: unknown, labels?: Record<string, string>): void;
}

export interface View {
  /** The location hash that shows it; a screen may add its filters, page and view after it (url-state.ts). */
  hash: string;
  label: string;
  render(container: HTMLElement, context: ViewContext): void;
}

const SUCCESS_SHOWN_MS = 8_000;

/** The signed-in console: header, navigation, the notice line and the current screen. */
export function renderShell(
  root: HTMLElement,
  options: { api: TenpoClient; views: View[]; onSignOut: (message?: string) => void },
): () => void {
  const { api, views } = options;
  const notice = h('p', { class: 'notice', role: 'status', hidden: true });
  const screen = h('div', { class: 'screen' });
  const nav = h('nav', { 'aria-label': '画面' }, ...views.map((view) => h('a', { href: view.hash }, view.label)));
  let fadeTimer: ReturnType<typeof setTimeout> | undefined;
  let products: Map<string, ProductOption> | undefined;

  const announce = (message: string, tone: 'success' | 'error') => {
    clearTimeout(fadeTimer);
    notice.textContent = message;
    notice.className = `notice ${tone}`;
    notice.setAttribute('role', tone === 'error' ? 'alert' : 'status');
    notice.hidden = false;
    if (tone === 'success') fadeTimer = setTimeout(() => (notice.hidden = true), SUCCESS_SHOWN_MS);
  };
  const fail = (error: unknown, labels?: Record<string, string>) => {
    if (error instanceof ApiError && error.status === 401) return options.onSignOut(TOKEN_REJECTED);
    announce(errorMessage(error, labels), 'error');
  };
  const context = (): ViewContext => ({ api, products: products!, announce, fail });

  function current(): View {
    return views.find((view) => view.hash === screenHash()) ?? views[0]!;
  }

  function show(): void {
    const view = current();
    for (const link of nav.querySelectorAll('a')) link.toggleAttribute('aria-current', link.getAttribute('href') === view.hash);
    notice.hidden = true;
    document.title = `${view.label} | tenpo 管理`;
    const container = h('section', { class: 'view', 'aria-label': view.label });
    replace(screen, container);
    view.render(container, context());
  }

  async function start(): Promise<void> {
    replace(screen, h('p', { class: 'loading' }, '読み込み中…'));
    try {
      products = await loadProducts(api);
      show();
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return options.onSignOut(TOKEN_REJECTED);
      replace(
        screen,
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
      h('button', { type: 'button', class: 'sign-out', onClick: () => options.onSignOut() }, 'ログアウト'),
    ),
    h('main', {}, notice, screen),
  );
  const onHashChange = () => products && show();
  window.addEventListener('hashchange', onHashChange);
  void start();
  return () => window.removeEventListener('hashchange', onHashChange);
}
