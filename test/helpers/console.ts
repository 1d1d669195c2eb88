import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { createTenpoClient, type TenpoClient } from 'tenpo/client';
import { ADMIN_TOKEN, startTestApp, type TestApp } from './app.ts';
import { launchBrowser, recordPage, type PageRecord } from './browser.ts';

/** The two sizes every console screen is used at: a laptop's and a phone's. */
export const SIZES = [
  ['laptop', { width: 1366, height: 768 }],
  ['phone', { width: 390, height: 844 }],
] as const;

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
export async function startConsoleTest(options: Parameters<typeof startTestApp>[0] = {}): Promise<ConsoleTest> {
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
