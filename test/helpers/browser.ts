import { execFileSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { chromium, type Browser, type Page } from 'playwright-core';
import { packageDir, packagedOnly, unpackOnce } from './packaged.ts';

// Headless Chromium driven by playwright-core: CHROMIUM_PATH when set, else the machine's
// /usr/bin/chromium (Debian's `chromium`) when it is an executable file, else the one inside the
// @sparticuz/chromium package.

const SYSTEM_CHROMIUM = '/usr/bin/chromium';
/** Playwright's own default is three minutes; a healthy headless start takes about a second. */
const LAUNCH_TIMEOUT_MS = 30_000;
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];
/** The browser sees only the fonts named here (Noto Sans JP from npm), so Japanese renders on any machine. */
const FONTS = join(import.meta.dirname, 'fonts.conf');

/** Where screenshots go: test-artifacts/ at the root of the repository (gitignored). */
export const ARTIFACTS = join(import.meta.dirname, '..', '..', 'test-artifacts');

interface Chromium {
  executablePath: string;
  /** Folder of the shared libraries the packaged build brings (NSS, expat), for machines without them. */
  libraries?: string;
}

/**
 * The packaged build ships brotli-compressed: chromium.br is the binary, al2023.tar.br the libraries
 * it loads that a bare machine may lack. Unpacked once per version into the temp dir; the package's
 * own executablePath() unpacks to a fixed /tmp/chromium that concurrent test files would race on.
 */
function packagedChromium(): Chromium {
  const pkg = packageDir('@sparticuz/chromium');
  const { version } = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as { version: string };
  const dir = unpackOnce(`tenpo-chromium-${version}`, (scratch) => {
    writeFileSync(join(scratch, 'chromium'), brotliDecompressSync(readFileSync(join(pkg, 'bin', 'chromium.br'))), { mode: 0o755 });
    execFileSync('tar', ['-x', '-C', scratch], { input: brotliDecompressSync(readFileSync(join(pkg, 'bin', 'al2023.tar.br'))) });
  });
  return { executablePath: join(dir, 'chromium'), libraries: join(dir, 'lib') };
}

/** A file this process may run: a path left behind by an uninstall, or without its x bit, is not one. */
function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

export function findChromium(): Chromium {
  const configured = process.env.CHROMIUM_PATH;
  if (configured) {
    if (!existsSync(configured)) throw new Error(`CHROMIUM_PATH=${configured}: no such file`);
    if (!isExecutable(configured)) throw new Error(`CHROMIUM_PATH=${configured}: not an executable file`);
    return { executablePath: configured };
  }
  if (!packagedOnly && isExecutable(SYSTEM_CHROMIUM)) return { executablePath: SYSTEM_CHROMIUM };
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(`no Chromium: @sparticuz/chromium is built for linux-x64 only; set CHROMIUM_PATH to a Chromium or Chrome binary`);
  }
  return packagedChromium();
}

export async function launchBrowser(): Promise<Browser> {
  const { executablePath, libraries } = findChromium();
  const env: Record<string, string | undefined> = { ...process.env, FONTCONFIG_FILE: FONTS };
  if (libraries) env.LD_LIBRARY_PATH = [libraries, process.env.LD_LIBRARY_PATH].filter(Boolean).join(':');
  // launch() gives every browser a fresh, temporary profile. A browser that cannot start fails
  // the test file within LAUNCH_TIMEOUT_MS, naming the binary, instead of leaving it waiting.
  try {
    return await chromium.launch({ executablePath, args: ARGS, env, timeout: LAUNCH_TIMEOUT_MS });
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new Error(`Chromium at ${executablePath} could not be launched: ${reason} (set CHROMIUM_PATH to another binary)`, {
      cause: error,
    });
  }
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

/** The whole page into test-artifacts/<folder>/<name>.png; with `{ fullPage: false }` what the screen shows as scrolled. */
export async function screenshot(page: Page, folder: string, name: string, options = { fullPage: true }): Promise<void> {
  const dir = join(ARTIFACTS, folder);
  mkdirSync(dir, { recursive: true });
  const take = () => page.screenshot({ path: join(dir, `${name}.png`), fullPage: options.fullPage });
  // On a machine busy with other work Chromium now and then gives up a full-page capture
  // ("Unable to capture screenshot"); the page is as it was, so the second try takes it.
  await take().catch((error: Error) => {
    if (!error.message.includes('Unable to capture screenshot')) throw error;
    return take();
  });
}
