import type { Browser, Page } from 'playwright-core';
import { ADMIN_TOKEN } from './app.ts';
import { recordPage, type PageRecord } from './browser.ts';

/**
 * A new tab (its own sessionStorage) signed in to the console at `baseUrl` with the admin token,
 * showing `view` (`reservations`, `messages?status=dead`), what it shows the world noted in `record`.
 */
export async function signedInConsole(browser: Browser, baseUrl: string, view: string, viewport: { width: number; height: number }, record: PageRecord): Promise<Page> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  recordPage(page, record);
  await page.goto(`${baseUrl}/admin`);
  await page.fill('#token', ADMIN_TOKEN);
  await page.click('button[type=submit]');
  await page.waitForSelector('header.top');
  await page.goto(`${baseUrl}/admin#/${view}`);
  return page;
}
