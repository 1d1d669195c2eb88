import type { Output, TenpoClient } from '../client/tenpo-client.ts';
import type { ProductOption } from './api/products.ts';
import type { SignedIn } from './shell/session.ts';
import type { UnsavedWork } from './ui/unsaved.ts';

// The one contract between the shell and a screen: how it is shown, and how it is left.

/** What a screen gets from the shell around it. */
export interface ScreenContext {
  api: TenpoClient;
  /** Who the tab is signed in as: a staff account, or the token holder. */
  who: SignedIn;
  products: Map<string, ProductOption>;
  /** Shows a message above the screen: a success fades, an error stays until the next one. */
  announce(message: string, tone: 'success' | 'error'): void;
  /** Reports a failed call in staff's words (api/errors.ts); a refused session or token signs the tab out. */
  fail(error: unknown): void;
  /** The shop's settings were saved: the warning above every screen follows them. */
  shopChanged(shop: Output<'/api/admin/shop/get'>['shop']): void;
  /**
   * Where a form that edits holds its typed work (ui/unsaved.ts): the shell asks before leaving the
   * screen or signing out while some is unsaved, and the browser before a reload or closing the tab.
   */
  unsaved: UnsavedWork;
}

/** A screen as it is shown once: made for each visit (openScreen), so its state is that visit's own. */
export interface Screen {
  /** Draws the screen into `container`; `params` are the URL's after the screen's hash (`#/messages?status=dead`). */
  show(container: HTMLElement, params: URLSearchParams): Promise<void> | void;
}

/** What every screen's module exports (screens/<name>/<name>.ts), loaded when it is first visited. */
export interface ScreenModule {
  openScreen(context: ScreenContext): Screen;
}
