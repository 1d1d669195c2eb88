import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

// Debian's headless Chromium, driven by playwright-core (.ci/run installs the `chromium` package).

export const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

/** Where screenshots go: test-artifacts/ at the root of the repository (gitignored). */
export const ARTIFACTS = join(import.meta.dirname, '..', '..', 'test-artifacts');

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium package (apt-get install chromium), as .ci/run does`);
  // launch() gives every browser a fresh, temporary profile.
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}

/** Everything a page showed the outside world: its console lines, its errors and every URL it requested or visited. */
export interface PageRecord {
  console: string[];
  errors: string[];
  urls: string[];
}

export function recordPage(page: Page, record: PageRecord = { console: [], errors: [], urls: [] }): PageRecord {
  page.on('console', (message) => record.console.push(`${message.type()}: ${message.text()}`));
  page.on('pageerror', (error) => record.errors.push(String(error)));
  page.on('request', (request) => record.urls.push(request.url()));
  page.on('framenavigated', (frame) => record.urls.push(frame.url()));
  return record;
}

export async function screenshot(page: Page, folder: string, name: string): Promise<void> {
  const dir = join(ARTIFACTS, folder);
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
}
