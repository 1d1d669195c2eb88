import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { ADMIN_TOKEN, startTestApp, type TestApp } from './helpers/app.ts';
import { launchBrowser, recordPage, screenshot, type PageRecord } from './helpers/browser.ts';

// The demo storefront at /dev/storefront: in development only; in Chromium at a laptop's
// and a phone's size, its catalog filters, search in the page with suggestions, and the two forms.

const SIZES = { laptop: { width: 1366, height: 768 }, phone: { width: 390, height: 844 } };

describe('the demo storefront', () => {
  let app: TestApp;
  let browser: Browser;
  before(async () => {
    // The forms post from the page's own origin, which the public forms refuse (as any cross-site
    // form post) unless it is one of the shop's: allowed here as a developer would (README: the demo storefront).
    app = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '0', PREVIEW_ORIGIN_PATTERN: String.raw`http://127\.0\.0\.1:[0-9]+` } });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await app?.close();
  });

  async function open(size: keyof typeof SIZES): Promise<{ page: Page; record: PageRecord }> {
    const context = await browser.newContext({ viewport: SIZES[size] });
    const page = await context.newPage();
    const record = recordPage(page);
    await page.goto(`${app.url}/dev/storefront`);
    await page.waitForSelector('body[data-ready="yes"]');
    return { page, record };
  }

  for (const size of ['laptop', 'phone'] as const) {
    test(`at ${size} size: the catalog filters by keyword and tag as GET /api/products does`, async () => {
      const { page, record } = await open(size);
      const slugs = () => page.$$eval('#catalog .product', (cards) => cards.map((card) => card.getAttribute('data-slug')));
      const all = (await (await app.request('/api/products?per_page=200')).json()) as {
        products: { slug: string }[];
        availableTags: string[];
      };
      assert.deepEqual(
        await slugs(),
        all.products.map((p) => p.slug),
      );
      await screenshot(page, 'dev-storefront', `catalog-${size}`);

      await page.click('#tags button:text-is("vco")');
      await page.waitForFunction(() => document.querySelector('#tags button[aria-pressed="true"]'));
      const vco = (await (await app.request('/api/products?per_page=200&tag=vco')).json()) as { products: { slug: string }[] };
      await page.waitForFunction((n) => document.querySelectorAll('#catalog .product').length === n, vco.products.length);
      assert.deepEqual(
        await slugs(),
        vco.products.map((p) => p.slug),
      );

      await page.fill('#catalog-q', 'しんせ');
      const both = (await (await app.request(`/api/products?per_page=200&tag=vco&q=${encodeURIComponent('しんせ')}`)).json()) as {
        products: { slug: string }[];
      };
      await page.waitForFunction((n) => document.querySelectorAll('#catalog .product').length === n, both.products.length);
      assert.deepEqual(
        await slugs(),
        both.products.map((p) => p.slug),
      );
      assert.deepEqual(record.errors, []);
    });

    test(`at ${size} size: search runs in the page as GET /api/search answers, with suggestions from the service`, async () => {
      const { page, record } = await open(size);
      await page.type('#search-q', 'ふぃるた', { delay: 20 });
      await page.waitForFunction(() => document.querySelectorAll('#suggestions button').length > 0);
      const served = (await (await app.request(`/api/search?q=${encodeURIComponent('ふぃるた')}&excerpt_length=120`)).json()) as {
        results: { highlighted_title: string; highlighted_excerpt: string }[];
      };
      assert.ok(served.results.length > 0);
      const shown = await page.$$eval('#results li', (items) =>
        items.map((item) => [item.querySelector('a')!.innerHTML, item.querySelector('p')!.innerHTML]),
      );
      assert.deepEqual(
        shown,
        served.results.map((r) => [r.highlighted_title, r.highlighted_excerpt]),
      );
      await screenshot(page, 'dev-storefront', `search-${size}`);

      // A suggestion completes the last word.
      const suggestion = (await page.textContent('#suggestions button'))!;
      await page.click('#suggestions button');
      assert.equal(await page.inputValue('#search-q'), suggestion);
      // The search never asked the service: only the index and the suggestions went over the network.
      const paths = record.urls.filter((url) => url.startsWith(app.url)).map((url) => new URL(url).pathname);
      assert.ok(paths.includes('/api/search-index'));
      assert.ok(!paths.includes('/api/search'), paths.join(', '));
      assert.deepEqual(record.errors, []);
    });
  }

  test('the forms show each field’s error, then take a reservation and a restock signup', async () => {
    const { page, record } = await open('phone');
    const product = (await page.getAttribute('#catalog .product', 'data-slug'))!;
    await page.click('#catalog .product:first-child button:text-is("予約する")');
    await page.click('#order button[type="submit"]');
    await page.waitForFunction(() => document.querySelector('[data-error-for="email"]')!.textContent !== '');
    assert.equal(await page.textContent('#order-result'), '入力内容に誤りがあります');
    assert.equal(await page.textContent('[data-error-for="name"]'), 'お名前を入力してください');
    assert.equal(await page.textContent('[data-error-for="email"]'), '有効なメールアドレスを入力してください');
    await screenshot(page, 'dev-storefront', 'form-errors-phone');

    await page.fill('#name', '山田 太郎');
    await page.fill('#email', 'taro@example.com');
    await page.click('#order button[type="submit"]');
    await page.waitForFunction(() => document.querySelector('#order-result')!.className === 'ok');
    const reservationNumber = Number(/ご予約番号 (\d+)/.exec((await page.textContent('#order-result'))!)![1]);
    assert.equal(await page.textContent('[data-error-for="email"]'), '');
    const listed = (await (await app.admin('/api/admin-reservations-list', { productSlug: product })).json()) as {
      reservations: { number: number; name: string }[];
    };
    assert.deepEqual(
      listed.reservations.map((r) => [r.number, r.name]),
      [[reservationNumber, '山田 太郎']],
    );

    await page.click('#catalog .product:first-child button:text-is("再入荷を知らせる")');
    assert.equal(await page.isVisible('#name'), false, 'a restock signup asks no name');
    await page.fill('#email', 'not an address');
    await page.click('#order button[type="submit"]');
    await page.waitForFunction(() => document.querySelector('[data-error-for="email"]')!.textContent !== '');
    await page.fill('#email', 'hanako@example.com');
    await page.click('#order button[type="submit"]');
    await page.waitForFunction(() => document.querySelector('#order-result')!.className === 'ok');
    assert.match((await page.textContent('#order-result'))!, /ntf_\d+-[a-z0-9]{10}/);
    await screenshot(page, 'dev-storefront', 'form-done-phone');
    assert.deepEqual(record.errors, []);
  });

  test('a product with a preorder campaign shows its state; the others show none', async () => {
    const products = (await (await app.request('/api/products?per_page=200')).json()) as { products: { slug: string }[] };
    const slug = products.products[1]!.slug;
    const upsert = await app.admin('/api/admin/preorders/upsert', { productSlug: slug, capacity: 30, shipsIn: '2027年2月下旬' });
    assert.equal(upsert.status, 200, await upsert.text());
    const { page, record } = await open('laptop');
    assert.equal(await page.textContent(`.product[data-slug="${slug}"] .preorder`), '予約受付中 · 残り 30 · 2027年2月下旬 発送予定');
    assert.equal(await page.locator('.product .preorder').count(), 1);
    await screenshot(page, 'dev-storefront', 'preorder-laptop');
    assert.deepEqual(record.errors, []);
    assert.equal((await app.admin('/api/admin/preorders/delete', { productSlug: slug })).status, 200);
  });

  test('is not served in production', async () => {
    const production = await startTestApp({
      env: {
        APP_ENV: 'production',
        PREORDER_API_TOKEN: `${ADMIN_TOKEN}-long-enough-for-production`,
        UNSUBSCRIBE_SECRET: 'an-unsubscribe-secret-of-32-characters!',
        PUBLIC_BASE_URL: 'https://tenpo.shop.example',
        STOREFRONT_URL: 'https://shop.example',
      },
    });
    try {
      for (const path of ['/dev/storefront', '/dev/storefront/assets/main.js']) {
        const response = await production.request(path);
        assert.equal(response.status, 404);
        assert.deepEqual(await response.json(), { success: false, error: 'Not found', code: 'not_found' });
      }
      assert.equal((await app.request('/dev/storefront')).status, 200, 'served in development');
    } finally {
      await production.close();
    }
  });
});
