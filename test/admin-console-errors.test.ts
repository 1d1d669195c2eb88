import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import type { Route } from 'playwright-core';
import { ADMIN_TOKEN } from './helpers/app.ts';
import { recordPage, screenshot } from './helpers/browser.ts';
import { consoleSuite, SIZES } from './helpers/console.ts';
import { startHttpReceiver, type HttpReceiver } from './helpers/http-receiver.ts';
import { waitUntil } from './helpers/wait.ts';

// Errors staff can act on, in headless Chromium at a laptop's and a phone's size, against the whole
// service with its emails going to a real HTTP email API that refuses them: a provider's long
// answer in 送信履歴 is readable in full; a resend of a message a colleague resent first is said in
// Japanese, never in the service's English; and signing out while an email's preview is on its way
// says nothing about the token or the session, and asks the service nothing more.

const SHOTS = 'admin-console-errors';
const OWNER = { email: 'tencho@example.jp', name: '店長 一郎', password: 'tencho no pasuwado 1' };
/** What an email API says of a field it did not take: long, and all of it needed to fix the cause. */
const REFUSAL = {
  name: 'validation_error',
  message: `The \`reply_to\` field is invalid: ${'a'.repeat(40)}@example.jp is not a valid address. Addresses must follow RFC 5322 and be at most 254 characters.`,
  statusCode: 422,
};

let provider: HttpReceiver;

const ui = consoleSuite(
  async () => {
    provider = await startHttpReceiver();
    return {
      env: { EMAIL_PROVIDER_API_KEY: 're_test_key', EMAIL_API_URL: `${provider.url}/emails` },
      dispatcher: { pollIntervalMs: 25, retryBaseMs: 40, retryCapMs: 100, maxAttempts: 2 },
    };
  },
  async () => {
    await ui.api.call('/api/admin/staff/create', { ...OWNER, role: 'owner' });
  },
);
after(() => provider?.close());

const emailsAbout = async (id: string) => (await ui.api.call('/api/admin/messages/list', { recordId: id, channel: 'email' })).messages;

/** A reservation whose receipt the email API refused (422: given up at once) with its long answer. */
async function refusedReceipt(email: string): Promise<{ id: string; messageId: string }> {
  provider.failNext(1, 422, { path: '/emails', body: REFUSAL });
  const { reservationId: id } = await ui.api.call('/api/reservation', { name: '山田 太郎', email, productSlug: 'kumo-vco-2' });
  const [dead] = await waitUntil(async () => {
    const messages = await emailsAbout(id);
    return messages[0]?.status === 'dead' ? messages : undefined;
  });
  return { id, messageId: dead!.id };
}

for (const [size, viewport] of SIZES) {
  describe(`errors staff can act on (${size})`, () => {
    test('a provider’s long answer in 送信履歴: its start in the row, and the whole of it on demand, wrapping and selectable', async () => {
      const { id } = await refusedReceipt(`long-${size}@example.jp`);
      const stored = (await emailsAbout(id))[0]!.lastError!;
      assert.equal(stored, `HTTP 422: ${JSON.stringify(REFUSAL)}`, 'the provider’s whole answer is kept');
      const page = await ui.signedIn(`messages?record=${id}`, viewport);
      const error = page.locator('table.records tbody tr:not(.row-note) .last-error');
      await error.waitFor();
      const excerpt = error.locator('.excerpt');
      assert.equal(await excerpt.textContent(), `${stored.slice(0, 60)}…`);
      const full = error.locator('.full-error');
      assert.equal(await full.isVisible(), false);
      await error.locator('summary').click();
      await full.waitFor();
      assert.equal(await full.textContent(), stored, 'the whole answer');
      assert.equal(await excerpt.isVisible(), false);
      const shown = await full.evaluate((element) => {
        const style = getComputedStyle(element);
        const cell = element.closest('td')!.getBoundingClientRect();
        const box = element.getBoundingClientRect();
        return { select: style.userSelect, wrap: style.whiteSpace, inside: box.right <= cell.right + 1, tall: box.height };
      });
      assert.deepEqual([shown.select, shown.wrap, shown.inside], ['text', 'pre-wrap', true], 'selectable, wrapping within its cell');
      assert.ok(shown.tall > 40, 'on several lines');
      // Selected and copied as it is.
      const selected = await full.evaluate((element) => {
        getSelection()!.selectAllChildren(element);
        return getSelection()!.toString();
      });
      assert.equal(selected, stored);
      assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), viewport.width, 'nothing wider than the screen');
      await screenshot(page, SHOTS, `01-provider-error-${size}`);
      await error.locator('summary').click();
      await full.waitFor({ state: 'hidden' });
      await page.context().close();
    });

    test('a resend of a message a colleague resent first is said in Japanese, never in the service’s English', async () => {
      const { id, messageId } = await refusedReceipt(`twice-${size}@example.jp`);
      const page = await ui.signedIn(`messages?record=${id}`, viewport);
      const row = page.locator('table.records tbody tr:not(.row-note)');
      await row.locator('button.retry').waitFor();
      await ui.api.call('/api/admin/messages/retry', { ids: [messageId] });
      await row.locator('button.retry').click();
      const note = page.locator('tr.row-note.error');
      await note.waitFor();
      assert.equal(
        await note.textContent(),
        '再送できませんでした（送信失敗ではないため、再送できません）。一覧を再読み込みしてください。',
      );
      assert.doesNotMatch((await page.locator('main').textContent())!, /Message is not dead|is not dead/);
      await page.context().close();
    });

    test('signing out with the token while the preview is still to be asked: nothing is said, nothing more is asked', async () => {
      const context = await ui.browser.newContext({ viewport });
      await context.clock.install();
      const page = await context.newPage();
      recordPage(page, ui.record);
      await page.goto(`${ui.app.url}/admin#/email-templates`);
      await page.fill('#token', ADMIN_TOKEN);
      await page.press('#token', 'Enter');
      const subject = page.locator('#template-subject');
      await page.locator('#preview-subject', { hasText: 'ご予約を受け付けました' }).waitFor();
      // The clock stands still: a change typed (and undone, so nothing is unsaved) leaves the preview's request to be made later.
      await context.clock.pauseAt(Date.now() + 60_000);
      await subject.press('End');
      await subject.press('x');
      await subject.press('Backspace');
      const asked: string[] = [];
      page.on('request', (request) => void (request.url().includes('/api/admin/') && asked.push(request.url())));
      await page.click('button.sign-out');
      await page.locator('#token').waitFor();
      await context.clock.runFor(2_000);
      // A request made after the preview's time came: had the preview been asked for, it was asked first.
      await page.evaluate(() => fetch('/healthz').then((answer) => answer.text()));
      assert.deepEqual(asked, [], 'the preview is not asked for after signing out');
      assert.equal(await page.locator('.login-page .notice').isVisible(), false, 'no message on the sign-in form');
      assert.doesNotMatch((await page.locator('body').textContent())!, /変更された可能性があります|ログインが終了しました/);
      await screenshot(page, SHOTS, `02-signed-out-token-${size}`);
      await context.close();
    });

    test('signing out an account while the preview is on its way: its answer, refused now, says nothing', async () => {
      const page = await ui.asAccount(OWNER, 'dashboard', viewport);
      // The first preview is held on its way until the session has ended.
      let held: (route: Route) => void = () => undefined;
      const arrived = new Promise<Route>((resolve) => (held = resolve));
      await page.route('**/api/admin/email-templates/preview', (route) => held(route));
      await page.click('nav a[href="#/email-templates"]');
      const route = await arrived;
      const ending = new Promise<string>((resolve) => {
        page.on('requestfinished', (request) => void (request.url().endsWith('/preview') && resolve('answered')));
        page.on('requestfailed', (request) => void (request.url().endsWith('/preview') && resolve('ended')));
      });
      const ended = page.waitForResponse((response) => response.url().endsWith('/api/admin/session/end'));
      await page.click('button.sign-out');
      await page.locator('#sign-in-email').waitFor();
      assert.equal((await ended).status(), 200);
      // Let through now, the service would refuse it (the session has ended): the console ended it instead.
      await route.continue().catch(() => undefined);
      assert.equal(await ending, 'ended');
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
      assert.equal(await page.locator('.login-page .notice').isVisible(), false, 'no message on the sign-in form');
      assert.doesNotMatch((await page.locator('body').textContent())!, /ログインが終了しました/);
      await page.context().close();
    });
  });
}

describe('the page', () => {
  test('had no errors', () => {
    assert.deepEqual(ui.record.errors, []);
  });
});
