import { ApiError, type TenpoClient } from '../../client/tenpo-client.ts';
import { errorMessage, noAnswerMessage } from '../api/errors.ts';
import { loadProducts } from '../api/products.ts';
import type { ScreenContext } from '../screen.ts';
import { h, replace } from '../ui/dom.ts';
import { LEAVING, SIGNING_OUT, unsavedWork } from '../ui/unsaved.ts';
import { SCREENS, type ScreenEntry } from './screens.ts';
import { roleOf, type SignedIn } from './session.ts';
import { shopWarning } from './shop-warning.ts';
import { readParams, screenHash } from './url-state.ts';

const SUCCESS_SHOWN_MS = 8_000;

const ROLE_LABELS = { owner: 'オーナー', staff: 'スタッフ' } as const;

/**
 * The signed-in console: header (the navigation, who is signed in, sign-out), the notice line and
 * the screen the location hash names. A screen's module is loaded on its first visit. Every change
 * of the hash leaves the screen shown (asking first while it holds unsaved work: staff may stay, and
 * the URL is put back) and shows the one the hash names; so does signing out. The navigation holds only the screens the signed-in role may open;
 * one it may not, reached by its URL, is refused without loading. Returns what stops it, when the
 * tab signs out.
 */
export function renderShell(
  root: HTMLElement,
  options: {
    api: TenpoClient;
    who: SignedIn;
    /** Signs out on purpose (the header's button). */
    signOut: () => Promise<void>;
    /** The service refused the tab's session or token (401). */
    onRefused: () => void;
  },
): () => void {
  const { api, who } = options;
  // The notice line: in the page's flow (never over the filters), each message closed by its button.
  const noticeText = h('span', { class: 'notice-text' });
  const notice = h(
    'div',
    { class: 'notice', role: 'status', hidden: true },
    noticeText,
    h('button', { type: 'button', class: 'dismiss', 'aria-label': 'このお知らせを閉じる', title: '閉じる', onClick: () => hideNotice() }),
  );
  const hideNotice = () => {
    clearTimeout(fadeTimer);
    notice.hidden = true;
  };
  const warning = shopWarning({ mayEdit: roleOf(who) === 'owner' });
  const area = h('div', { class: 'screen' });
  const mayOpen = (entry: ScreenEntry) =>
    entry.audience === undefined || (entry.audience === 'owners' ? roleOf(who) === 'owner' : who.kind === 'account');
  const nav = h(
    'nav',
    { 'aria-label': '画面' },
    ...SCREENS.filter((entry) => entry.inNavigation !== false && mayOpen(entry)).map((entry) => h('a', { href: entry.hash }, entry.label)),
  );
  let fadeTimer: ReturnType<typeof setTimeout> | undefined;
  let context: ScreenContext | undefined;
  const unsaved = unsavedWork();
  /** Counts showings: a screen whose module arrives after another was asked for is not drawn. */
  let showing = 0;
  /** Leaving is asked one change at a time, in order. */
  let changes = Promise.resolve();

  const announce = (message: string, tone: 'success' | 'error') => {
    clearTimeout(fadeTimer);
    noticeText.textContent = message;
    notice.className = `notice ${tone}`;
    notice.setAttribute('role', tone === 'error' ? 'alert' : 'status');
    notice.hidden = false;
    if (tone === 'success') fadeTimer = setTimeout(hideNotice, SUCCESS_SHOWN_MS);
    // Scrolled to when out of sight (a phone far down a list): it stays where it is in the page.
    else if (notice.getBoundingClientRect().bottom < 0) notice.scrollIntoView({ block: 'nearest' });
  };
  const fail = (error: unknown) => {
    if (error instanceof ApiError && error.status === 401) return options.onRefused();
    announce(errorMessage(error), 'error');
  };

  async function show(entry: ScreenEntry, screenContext: ScreenContext): Promise<void> {
    const mine = ++showing;
    unsaved.clear();
    for (const link of nav.querySelectorAll('a')) link.toggleAttribute('aria-current', link.getAttribute('href') === entry.hash);
    hideNotice();
    document.title = `${entry.label} | tenpo 管理`;
    const container = h('section', { class: 'view', 'aria-label': entry.label }, h('p', { class: 'loading' }, '読み込み中…'));
    replace(area, container);
    if (!mayOpen(entry)) return replace(container, h('h1', {}, entry.label), refusal(entry));
    let module;
    try {
      module = await entry.load();
    } catch {
      if (mine !== showing) return;
      const failure = await whyNotLoaded();
      if (mine !== showing) return;
      return replace(
        container,
        h('p', { class: 'notice error', role: 'alert' }, failure.said),
        failure.updated
          ? h('button', { type: 'button', onClick: () => location.reload() }, '再読み込み')
          : h('button', { type: 'button', onClick: () => void show(entry, screenContext) }, '再試行'),
      );
    }
    if (mine !== showing) return;
    await module.openScreen(screenContext).show(container, readParams());
  }

  const onHashChange = (event: HashChangeEvent) => {
    changes = changes.then(async () => {
      if (!context || location.href === event.oldURL) return;
      if (!(await unsaved.mayDiscard(LEAVING))) return history.replaceState(history.state, '', event.oldURL);
      void show(entryOf(screenHash()), context);
    });
  };

  async function start(): Promise<void> {
    replace(area, h('p', { class: 'loading' }, '読み込み中…'));
    try {
      // Everyone is warned while the shop is unset; only an owner may change it.
      const [products, { shop }] = await Promise.all([loadProducts(api), api.call('/api/admin/shop/get', {})]);
      warning.show(shop);
      context = { api, who, products, announce, fail, shopChanged: warning.show, unsaved };
      await show(entryOf(screenHash()), context);
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return options.onRefused();
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
      h(
        'div',
        { class: 'signed-in' },
        signedInAs(who),
        h(
          'button',
          { type: 'button', class: 'sign-out', onClick: async () => (await unsaved.mayDiscard(SIGNING_OUT)) && (await options.signOut()) },
          'ログアウト',
        ),
      ),
    ),
    h('main', {}, warning.element, notice, area),
  );
  window.addEventListener('hashchange', onHashChange);
  void start();
  return () => {
    window.removeEventListener('hashchange', onHashChange);
    unsaved.close();
    showing++;
  };
}

/**
 * Why a screen's file did not arrive, asked of the service itself: the device offline, the service
 * out of reach or not answering, or (the service answering) a file gone since this page was loaded,
 * which a new release of the console does.
 */
async function whyNotLoaded(): Promise<{ said: string; updated: boolean }> {
  if (navigator.onLine === false) return { said: noAnswerMessage(), updated: false };
  try {
    const answer = await fetch('/livez', { cache: 'no-store' });
    if (!answer.ok)
      return { said: `サーバーが正常に応答していません（HTTP ${answer.status}）。しばらくしてから再度お試しください。`, updated: false };
  } catch {
    return { said: noAnswerMessage(), updated: false };
  }
  return {
    said: 'この画面を読み込めませんでした（管理画面が更新されたか、読み込みが途中で途切れました）。ページを再読み込みしてください。',
    updated: true,
  };
}

/** Who is signed in, in the header: an account's name and role, linked to its password change; or the token. */
function signedInAs(who: SignedIn): HTMLElement {
  if (who.kind === 'token') return h('span', { class: 'who', title: 'スクリプト用の管理トークン（オーナーの権限）' }, '管理トークン');
  return h(
    'a',
    { class: 'who', href: '#/password', title: `${who.staff.email}（パスワードを変更）` },
    h('span', { class: 'who-name' }, who.staff.name),
    h('span', { class: 'role' }, ROLE_LABELS[who.staff.role]),
  );
}

function refusal(entry: ScreenEntry): HTMLElement {
  return h(
    'p',
    { class: 'notice error', role: 'alert' },
    entry.audience === 'owners'
      ? 'この画面はオーナーだけが使えます。必要なときはオーナーに依頼してください。'
      : 'この画面は担当者のアカウントでログインしたときに使えます（管理トークンにはパスワードがありません）。',
  );
}

function entryOf(hash: string): ScreenEntry {
  return SCREENS.find((entry) => entry.hash === hash) ?? SCREENS[0]!;
}
