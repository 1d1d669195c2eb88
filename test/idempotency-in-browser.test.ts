import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { launchBrowser } from './helpers/browser.ts';

// A storefront page on the shop's own origin, in Chromium, posting the public forms to the service
// with an Idempotency-Key: the browser first asks (a CORS preflight) whether it may send that header,
// and without the service's yes it sends nothing at all. The storefront's page comes from a server of
// its own (another origin, which the service allows as a preview deployment); its requests to the
// service go over real HTTP.

let app: TestApp;
let browser: Browser;
let shop: Server;
let shopUrl: string;
before(async () => {
  shop = createServer((_, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><title>shop</title>'));
  await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
  shopUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;
  const env = { RATE_LIMIT_PER_MINUTE: '0', PREVIEW_ORIGIN_PATTERN: shopUrl.replaceAll('.', String.raw`\.`) };
  [app, browser] = await Promise.all([startTestApp({ env }), launchBrowser()]);
});
after(async () => {
  await browser?.close();
  await app?.close();
  shop?.close();
});

test('a browser storefront sends Idempotency-Key, and its retry answers the first reservation and signup again', async () => {
  const page = await browser.newPage();
  await page.goto(`${shopUrl}/products/kumo-vco-2`);
  const answers = await page.evaluate(async (service) => {
    const post = async (path: string, body: unknown, key: string) => {
      const response = await fetch(`${service}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Idempotency-Key': key },
        body: JSON.stringify(body),
      });
      return (await response.json()) as Record<string, unknown>;
    };
    const reservation = { name: '山田 太郎', email: 'taro@example.com', productSlug: 'kumo-vco-2' };
    const signup = { email: 'taro@example.com', productSlug: 'kumo-vco-2' };
    return [
      await post('/api/reservation', reservation, 'key-reservation-1'),
      await post('/api/reservation', reservation, 'key-reservation-1'),
      await post('/api/notify', signup, 'key-signup-1'),
      await post('/api/notify', signup, 'key-signup-1'),
    ];
  }, app.url);
  const [first, retry, signup, signupRetry] = answers;
  assert.equal(first!.success, true, JSON.stringify(first));
  assert.deepEqual(retry, first);
  assert.equal(signup!.success, true, JSON.stringify(signup));
  assert.deepEqual(signupRetry, signup);
  const listed = (await (await app.admin('/api/admin-reservations-list', {})).json()) as { reservations: unknown[] };
  assert.equal(listed.reservations.length, 1, 'the retry wrote nothing');
  await page.close();
});
