import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { launchBrowser, recordPage, screenshot } from './helpers/browser.ts';

// GET /: someone who opens the service's address finds what it is and the way to the API reference
// and the console (and, in development, the demo storefront), instead of a bare 404.

const SIZES = { laptop: { width: 1366, height: 768 }, phone: { width: 390, height: 844 } };

function linksOf(html: string): string[] {
  return [...html.matchAll(/<a href="([^"]+)"/g)].map((match) => match[1]!);
}

describe('the front page', () => {
  let development: TestApp;
  let preview: TestApp;
  let browser: Browser;
  before(async () => {
    [development, preview] = await Promise.all([startTestApp(), startTestApp({ env: { APP_ENV: 'preview' } })]);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await Promise.all([development?.close(), preview?.close()]);
  });

  test('says what the service is and links to the reference, the console, the demo storefront and the health check', async () => {
    const response = await development.request('/');
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type')!, /^text\/html; charset=utf-8/);
    assert.match(response.headers.get('content-security-policy')!, /frame-ancestors 'none'/);
    const html = await response.text();
    assert.match(html, /ユーロラック・モジュールのオンラインショップのバックエンド/);
    assert.deepEqual(linksOf(html), ['/docs', '/admin', '/dev/storefront', '/healthz']);
  });

  test('outside development the demo storefront, which is not served there, is not offered', async () => {
    const html = await (await preview.request('/')).text();
    assert.deepEqual(linksOf(html), ['/docs', '/admin', '/healthz']);
    assert.equal((await preview.request('/dev/storefront')).status, 404);
  });

  test('HEAD answers without a body, and another method is 405 naming the ones allowed', async () => {
    const head = await development.request('/', { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(await head.text(), '');
    const post = await development.request('/', { method: 'POST' });
    assert.equal(post.status, 405);
    assert.equal(post.headers.get('allow'), 'GET, HEAD, OPTIONS');
  });

  for (const size of ['laptop', 'phone'] as const) {
    test(`in Chromium at ${size} size, every link it shows leads to a page that answers`, async () => {
      const context = await browser.newContext({ viewport: SIZES[size] });
      const page = await context.newPage();
      const record = recordPage(page);
      await page.goto(`${development.url}/`);
      await screenshot(page, 'front-page', size);
      const hrefs = await page.$$eval('a', (anchors) => anchors.map((anchor) => anchor.getAttribute('href')!));
      assert.deepEqual(hrefs, ['/docs', '/admin', '/dev/storefront', '/healthz']);
      // Nothing is wider than the screen: the page reads on a phone without sideways scrolling.
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth));
      for (const href of hrefs) {
        await page.goto(`${development.url}/`);
        await Promise.all([page.waitForURL(`${development.url}${href}`), page.click(`a[href="${href}"]`)]);
        const status = await page.evaluate(
          () => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).responseStatus,
        );
        assert.equal(status, 200, href);
      }
      assert.deepEqual(record.errors, []);
      await context.close();
    });
  }
});
