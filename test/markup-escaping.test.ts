import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { z } from 'zod';
import { ADMIN_TOKEN, startTestApp, type TestApp } from './helpers/app.ts';
import { launchBrowser } from './helpers/browser.ts';
import { startHttpReceiver, type HttpReceiver } from './helpers/http-receiver.ts';
import { SlackBody } from './helpers/sent-bodies.ts';
import { startSmtpReceiver, type ReceivedMail, type SmtpReceiver } from './helpers/smtp-receiver.ts';
import type { DispatcherTimings } from '../src/messaging/delivery/dispatcher.ts';

// Markup in what customers type and in what the catalog and content hold is shown as text wherever
// it is shown: search results, the reservation and restock emails (as the SMTP receiver
// got them), chat payloads, the unsubscribe page and the admin console. The HTML is rendered in
// headless Chromium with scripts on and, for the pages, under their own CSP: every payload would set
// `__pwned` or add an <x-pwn> element if it became markup, and each must show as the text it is.

const PWN = '<img src=x onerror=__pwned=1><script>__pwned=1</script><x-pwn>"\'&amp;';
/** What the form takes: markup itself it refuses (test/customer-names.test.ts), so a name's `<`, `>`, `&` and quotes. */
const NAME = `"'&amp; &lt;x-pwn&gt; 1<2 >_< <3`;
/** A name kept from elsewhere (an import) may hold markup; the console shows it as text. */
const STORED_NAME = `${PWN}<svg onload=__pwned=1>`;
const NOTES = `</textarea><script>__pwned=1</script><x-pwn><img src=x onerror=__pwned=1> &lt;b&gt; "'`;
const EMAIL = "o'hara+x-pwn@example.com";
const PRODUCT = `Evil <x-pwn>VCO</x-pwn> <img src=x onerror=__pwned=1> "II" & co`;
const SLUG = 'evil-vco';
const KEYWORD = '<img src=x onerror=__pwned=1><x-pwn>';
const TITLE = '<script>__pwned=1</script> モジュラー <x-pwn>太字</x-pwn> &amp; "q"';
const DESCRIPTION = '<img src=x onerror=__pwned=1>';
const BODY = 'モジュラー入門。&lt;img src=x onerror=__pwned=1&gt; と `<x-pwn>code</x-pwn>` と <x-pwn>tag</x-pwn> "quoted" \'single\'';
const BASE = 'https://shop.example.jp';
const FAST: Partial<DispatcherTimings> = { pollIntervalMs: 25, retryBaseMs: 40, retryCapMs: 150, leaseMs: 5_000, maxAttempts: 5 };

/** What rendering showed: whether any payload ran or became an element, and the text. */
interface Rendered {
  pwned: boolean;
  injected: number;
  violations: string[];
  text: string;
}

async function inspect(page: Page): Promise<Rendered> {
  return page.evaluate(() => ({
    pwned: 'pwned' in window || '__pwned' in window,
    injected: document.querySelectorAll('x-pwn, img[src="x"], [onerror], [onload], iframe, script:not([src]):not([type="importmap"])')
      .length,
    violations: ((window as unknown as { __violations?: string[] }).__violations ?? []).slice(),
    text: document.body.innerText,
  }));
}

describe('markup shown as text, rendered in Chromium', () => {
  let dir: string;
  let app: TestApp;
  let smtp: SmtpReceiver;
  let chat: HttpReceiver;
  let browser: Browser;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tenpo-markup-'));
    const products = z.array(z.looseObject({})).parse(JSON.parse(readFileSync('data/products.json', 'utf8')));
    writeFileSync(
      join(dir, 'products.json'),
      JSON.stringify([{ ...products[0], slug: SLUG, name: PRODUCT, detailHref: '"><x-pwn>' }, ...products.slice(1)]),
    );
    mkdirSync(join(dir, 'content', 'articles'), { recursive: true });
    const frontMatter = [
      `title: ${JSON.stringify(TITLE)}`,
      `description: ${JSON.stringify(DESCRIPTION)}`,
      'tags: ["<x-pwn>"]',
      'createdAt: "2026-01-02"',
    ];
    writeFileSync(join(dir, 'content', 'articles', 'hostile.md'), `---\n${frontMatter.join('\n')}\n---\n\n${BODY}\n`);
    smtp = await startSmtpReceiver();
    chat = await startHttpReceiver();
    app = await startTestApp({
      env: {
        RATE_LIMIT_PER_MINUTE: '0',
        CATALOG_PATH: join(dir, 'products.json'),
        CONTENT_DIR: join(dir, 'content'),
        SEARCH_INDEX_PATH: join(dir, 'no-prebuilt-index.bin'),
        SMTP_URL: smtp.url,
        RESERVATION_WEBHOOK_URL: `${chat.url}/reservation`,
        RESTOCK_WEBHOOK_URL: `${chat.url}/restock`,
        PUBLIC_WEBHOOK_URL: `${chat.url}/public`,
        PUBLIC_BASE_URL: BASE,
      },
      dispatcher: FAST,
    });
    browser = await launchBrowser();

    const reserved = (
      await app.read('/api/reservation', await app.post('/api/reservation', { name: NAME, email: EMAIL, productSlug: SLUG }))
    ).success();
    assert.equal(
      (
        await app.admin('/api/admin-reservations-status', {
          id: reserved.reservationId,
          productSlug: SLUG,
          status: 'pending',
          notes: NOTES,
        })
      ).status,
      200,
    );
    assert.equal((await app.post('/api/notify', { email: EMAIL, productSlug: SLUG })).status, 200);
    assert.equal((await app.admin('/api/admin/notify/send', { productSlug: SLUG })).status, 200);
    await app.request(`/api/search?q=${encodeURIComponent(KEYWORD)}`);
  });

  after(async () => {
    await browser?.close();
    await app?.close();
    await smtp?.close();
    await chat?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A page with scripts on and no CSP, holding `html`: the escaping alone must keep the payloads inert. */
  async function render(html: string): Promise<Rendered> {
    const page = await browser.newPage();
    await page.setContent(html, { waitUntil: 'load' });
    await page.waitForTimeout(50);
    const rendered = await inspect(page);
    await page.close();
    return rendered;
  }

  test('search results: only <mark> is markup; the title and excerpt read as written', async () => {
    const answer = (await app.read('/api/search', await app.request(`/api/search?q=${encodeURIComponent('モジュラー')}`))).success();
    const [result] = answer.results;
    assert.equal(result?.title, TITLE);
    assert.equal(result?.description, DESCRIPTION);
    const page = await browser.newPage();
    await page.setContent(
      `<!doctype html><body><h1 id="t">${result!.highlighted_title}</h1><p id="e">${result!.highlighted_excerpt}</p></body>`,
    );
    const shown = await page.evaluate(() => ({
      title: document.getElementById('t')!.textContent,
      excerpt: document.getElementById('e')!.textContent,
      tags: [...document.querySelectorAll('#t *, #e *')].map((element) => element.tagName),
      pwned: '__pwned' in window,
    }));
    await page.close();
    assert.equal(shown.title, TITLE);
    assert.equal(shown.excerpt, result!.excerpt);
    assert.ok(
      String(result!.excerpt).includes('<img src=x onerror=__pwned=1>'),
      'a character reference in the body is its character in the excerpt',
    );
    assert.ok(shown.tags.length > 0 && shown.tags.every((tag) => tag === 'MARK'), shown.tags.join());
    assert.equal(shown.pwned, false);
  });

  test('the reservation confirmation and the restock email show the name and product as text', async () => {
    const mails = await smtp.waitForMails(2);
    const subject = (mail: ReceivedMail) => mail.parsed.subject ?? '';
    const confirmation = mails.find((mail) => subject(mail).startsWith('ご予約を受け付けました'))!;
    const restock = mails.find((mail) => subject(mail).startsWith('【入荷のお知らせ】'))!;
    assert.ok(confirmation && restock, mails.map(subject).join(' | '));
    for (const [mail, expected] of [
      [confirmation, [`${NAME} 様`, PRODUCT]],
      [restock, [PRODUCT]],
    ] as const) {
      const rendered = await render(String(mail.parsed.html));
      assert.deepEqual({ pwned: rendered.pwned, injected: rendered.injected }, { pwned: false, injected: 0 }, subject(mail));
      for (const text of expected) assert.ok(rendered.text.includes(text), `${subject(mail)} shows ${text}`);
      assert.equal(subject(mail).includes(PRODUCT), true, 'the subject is text already');
    }
    // Every link of the restock email stays on the shop's site: an odd detailHref makes no new attribute.
    const page = await browser.newPage();
    await page.setContent(String(restock.parsed.html));
    const links = await page.evaluate(() =>
      [...document.querySelectorAll('a')].map((a) => [
        a.getAttribute('href'),
        ...a.getAttributeNames().filter((name) => name !== 'href' && name !== 'style'),
      ]),
    );
    await page.close();
    assert.equal(links.length, 2);
    for (const [href, ...others] of links)
      assert.ok(String(href).startsWith(`${BASE}/`) && others.length === 0, `${href} ${others.join()}`);
  });

  test('chat payloads carry no markup Slack would read: plain text, no mention, no link, no entity of the customer’s', async () => {
    const posts = await chat.waitForAccepted(3);
    for (const post of posts) {
      const slack = SlackBody.parse(post.body);
      const mrkdwn = [
        slack.text,
        ...slack.blocks.flatMap((block) => [...(block.fields ?? []), ...(block.elements ?? [])].map((f) => f.text)),
      ];
      for (const text of mrkdwn) assert.doesNotMatch(text, /[<>]|&(?!amp;|lt;|gt;)/, `${post.path}: ${text}`);
      // Shown literally: no block text is mrkdwn or turns :codes: into emoji, and the notification text is not mrkdwn;
      // but the one block that is the service's own link to the record's page in the console, made of nothing the customer wrote.
      const [links, blocks] = [
        slack.blocks.filter((block) => block.text?.type === 'mrkdwn'),
        slack.blocks.filter((block) => block.text?.type !== 'mrkdwn'),
      ];
      for (const link of links)
        assert.match(
          link.text!.text,
          /^<https:\/\/shop\.example\.jp\/admin#\/(reservations|subscriptions)\?record=(res|ntf)_[\w-]+\|管理画面で(予約|登録)を開く>$/,
        );
      const blockTexts = blocks
        .flatMap((block) => [block.text, ...(block.fields ?? []), ...(block.elements ?? [])])
        .filter((t) => t !== undefined);
      assert.deepEqual(new Set(blockTexts.map((t) => `${t.type} ${t.emoji}`)), new Set(['plain_text false']), post.path);
      assert.equal(slack.mrkdwn, false, post.path);
    }
    const reservation = posts.find((post) => post.path === '/reservation')!;
    assert.ok(
      SlackBody.parse(reservation.body).text.includes(NAME.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;')),
      'the name, escaped as Slack asks',
    );
  });

  test('the unsubscribe page shows the product name as text, under its own CSP and without it', async () => {
    const restock = smtp.mails.find((mail) => (mail.parsed.subject ?? '').startsWith('【入荷のお知らせ】'))!;
    const head = restock.raw.slice(0, restock.raw.search(/\r?\n\r?\n/)).replace(/\r?\n[ \t]+/g, ' ');
    const link = /^List-Unsubscribe: *<([^>]+)>/im.exec(head)![1]!;
    const local = link.replace(BASE, app.url);
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    page.on('pageerror', (error) => errors.push(String(error)));
    await page.goto(local);
    const served = await inspect(page);
    const html = await page.content();
    await page.close();
    assert.deepEqual({ pwned: served.pwned, injected: served.injected, errors }, { pwned: false, injected: 0, errors: [] });
    assert.ok(served.text.includes(`「${PRODUCT}」の入荷通知の配信を停止しました。`), served.text);
    const bare = await render(html);
    assert.deepEqual({ pwned: bare.pwned, injected: bare.injected }, { pwned: false, injected: 0 });
  });

  test('the admin console shows hostile names, notes, addresses, products and keywords as text', async () => {
    await app.services.database.db.updateTable('reservations').set({ name: STORED_NAME }).execute();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        const holder = window as unknown as { __violations?: string[] };
        (holder.__violations ??= []).push(`${event.violatedDirective} ${event.sample}`);
      });
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    await page.goto(`${app.url}/admin`);
    await page.fill('#token', ADMIN_TOKEN);
    await page.press('#token', 'Enter');
    await page.waitForSelector('.cards');

    await page.goto(`${app.url}/admin#/reservations`);
    const row = page.locator('table.records tbody tr').first();
    await row.waitFor();
    assert.equal(await row.locator('td[data-label="お名前"]').textContent(), STORED_NAME);
    assert.equal(await row.locator('td[data-label="メール"] .address').textContent(), EMAIL);
    assert.equal(await row.locator('td[data-label="商品"]').textContent(), PRODUCT);
    assert.equal(await row.locator('.notes-text').textContent(), NOTES);
    // And in the memo editor, opened on demand.
    await row.locator('button.edit-notes').click();
    assert.equal(await row.locator('textarea').inputValue(), NOTES);
    assert.ok((await page.locator('#filter-product option').allTextContents()).includes(PRODUCT));
    const reservations = await inspect(page);

    await page.goto(`${app.url}/admin#/subscriptions`);
    const subscription = page.locator('table.records tbody tr').first();
    await subscription.waitFor();
    assert.equal(await subscription.locator('td[data-label="メール"] .address').textContent(), EMAIL);
    assert.equal(await subscription.locator('td[data-label="商品"]').textContent(), PRODUCT);
    const subscriptions = await inspect(page);

    await page.goto(`${app.url}/admin#/dashboard`);
    const keywords = page.locator('.chart', { hasText: 'よく検索されたキーワード' });
    await keywords.locator('svg').waitFor();
    assert.ok((await keywords.locator('svg text').allTextContents()).includes(KEYWORD));
    assert.ok((await page.locator('.chart', { hasText: '商品別' }).locator('svg text').allTextContents()).includes(PRODUCT));
    const dashboard = await inspect(page);
    await context.close();

    for (const [view, rendered] of Object.entries({ reservations, subscriptions, dashboard })) {
      assert.deepEqual(
        { pwned: rendered.pwned, injected: rendered.injected, violations: rendered.violations },
        { pwned: false, injected: 0, violations: [] },
        view,
      );
    }
    assert.deepEqual(errors, []);
  });
});
