import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import type { Browser, BrowserContextOptions, Locator, Page } from 'playwright-core';
import { createTenpoClient, type TenpoClient } from 'tenpo/client';
import { ADMIN_TOKEN, startTestApp, type TestApp } from './app.ts';
import { launchBrowser, recordPage, type PageRecord } from './browser.ts';

/** The two sizes every console screen is used at: a laptop's and a phone's. */
export const LAPTOP = { width: 1366, height: 768 };
export const PHONE = { width: 390, height: 844 };
export const SIZES = [
  ['laptop', LAPTOP],
  ['phone', PHONE],
] as const;

type Viewport = { width: number; height: number };
type StartOptions = NonNullable<Parameters<typeof startTestApp>[0]>;

export interface ConsoleTest {
  app: TestApp;
  /** The typed client with the admin token, to arrange records and check what the screens did. */
  api: TenpoClient;
  browser: Browser;
}

/**
 * What every console test file starts in `before`: the whole service (SQLite unless told; no rate
 * limit, so a test's many clicks are not refused), the typed admin client and a browser.
 */
export async function startConsoleTest(options: StartOptions = {}): Promise<ConsoleTest> {
  const app = await startTestApp({ ...options, env: { RATE_LIMIT_PER_MINUTE: '0', ...options.env } });
  const api = createTenpoClient({ baseUrl: app.url, token: () => ADMIN_TOKEN });
  return { app, api, browser: await launchBrowser() };
}

/** `after`: closes what startConsoleTest started, whichever part of it did start. */
export async function closeConsoleTest(test: Partial<ConsoleTest>): Promise<void> {
  await test.browser?.close();
  await test.app?.close();
}

/**
 * A new tab (its own sessionStorage) signed in to the console at `baseUrl` with the admin token,
 * showing `view` (`reservations`, `messages?status=dead`), what it shows the world noted in `record`.
 */
export async function signedInConsole(
  browser: Browser,
  baseUrl: string,
  view: string,
  viewport: { width: number; height: number },
  record: PageRecord,
  options: BrowserContextOptions = {},
): Promise<Page> {
  const context = await browser.newContext({ ...options, viewport });
  const page = await context.newPage();
  recordPage(page, record);
  await page.goto(`${baseUrl}/admin`);
  await page.fill('#token', ADMIN_TOKEN);
  await page.press('#token', 'Enter');
  await page.waitForSelector('header.top');
  await page.goto(`${baseUrl}/admin#/${view}`);
  return page;
}

/**
 * A new browser context (cookies of its own) signed in to the console at `baseUrl` with a staff
 * account's address and password, showing `view`, what it shows the world noted in `record`.
 */
export async function accountConsole(
  browser: Browser,
  baseUrl: string,
  account: { email: string; password: string },
  view: string,
  viewport: { width: number; height: number },
  record: PageRecord,
): Promise<Page> {
  const page = await (await browser.newContext({ viewport })).newPage();
  recordPage(page, record);
  await page.goto(`${baseUrl}/admin`);
  await page.fill('#sign-in-email', account.email);
  await page.fill('#sign-in-password', account.password);
  await page.press('#sign-in-password', 'Enter');
  await page.waitForSelector('header.top');
  await page.goto(`${baseUrl}/admin#/${view}`);
  return page;
}

/** What a console suite uses, from the hooks consoleSuite registers. */
export interface ConsoleSuite extends ConsoleTest {
  /** What every page the suite opened showed the world. */
  record: PageRecord;
  /** signedInConsole on this suite's service: a new tab signed in with the admin token. */
  signedIn(view: string, viewport?: Viewport, options?: BrowserContextOptions): Promise<Page>;
  /** accountConsole on this suite's service: a new context signed in as a staff account. */
  asAccount(account: { email: string; password: string }, view: string, viewport?: Viewport): Promise<Page>;
}

/**
 * Registers the `before` that starts a console test (options, or a function giving them once the
 * receivers they name are up) and then runs `arrange` (the suite's records), and the `after` that
 * closes it. One hook for both: node:test starts a file's second top-level `before` without waiting
 * for the first. The parts are read when a test runs; reading one before the start throws.
 */
export function consoleSuite(
  options: StartOptions | (() => Promise<StartOptions>) = {},
  arrange: () => Promise<void> = async () => {},
): ConsoleSuite {
  let started: Partial<ConsoleTest> = {};
  const record: PageRecord = { console: [], errors: [], urls: [] };
  before(async () => {
    started = await startConsoleTest(typeof options === 'function' ? await options() : options);
    await arrange();
  });
  after(() => closeConsoleTest(started));
  const part = <K extends keyof ConsoleTest>(key: K): ConsoleTest[K] => {
    const value = started[key];
    if (value === undefined) throw new Error(`the console suite's ${key} is read before the suite has started`);
    return value as ConsoleTest[K];
  };
  return {
    get app() {
      return part('app');
    },
    get api() {
      return part('api');
    },
    get browser() {
      return part('browser');
    },
    record,
    signedIn: (view, viewport = LAPTOP, contextOptions = {}) =>
      signedInConsole(part('browser'), part('app').url, view, viewport, record, contextOptions),
    asAccount: (account, view, viewport = LAPTOP) => accountConsole(part('browser'), part('app').url, account, view, viewport, record),
  };
}

/** The page is no wider than the window: nothing on it scrolls sideways. */
export async function noSidewaysScroll(page: Page): Promise<void> {
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), await page.evaluate(() => window.innerWidth));
}

/** 再入荷通知 on 通知登録: picks `slug` and opens the confirmation; returns the open dialog. */
export async function openRestockConfirmation(page: Page, slug: string): Promise<Locator> {
  await page.selectOption('#restock-product', slug);
  await page.click('text=再入荷通知を送信…');
  const dialog = page.locator('dialog[open]');
  await dialog.waitFor();
  return dialog;
}
