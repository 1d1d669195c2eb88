import assert from 'node:assert/strict';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { ADMIN_TOKEN, DIALECTS } from './helpers/app.ts';
import { recordPage, screenshot } from './helpers/browser.ts';
import { consoleSuite, LAPTOP, PHONE } from './helpers/console.ts';

// Staff accounts in the console, in headless Chromium against the whole service, on both databases:
// the first owner made by the token holder, signing in with an address and a password (the session
// kept across reloads and tabs, who is signed in in the header), the 担当者 screen (invite with a
// first password, role, disable, password reset), two staff in two browsers each named on their
// own changes in one reservation's history, a disabled account's open console signed out at its
// next action, a staff account kept from the owners' screens and routes, sign-out in every tab,
// one account's sign-in locked by 20 wrong passwords from 20 addresses (the others' not), and
// another page's form post with the signed-in cookie refused. Laptop (1366x768) and phone (390x844).

const OWNER = { email: 'tencho@example.jp', name: '店長 一郎', password: 'tencho no pasuwado 1' };
const AIKO = { email: 'mori.aiko@example.jp', name: '森 愛子', password: 'aiko first password' };
const KEN = { email: 'hayashi.ken@example.jp', name: '林 健', password: 'ken first password 1' };
const PRODUCT = 'kumo-vco-2';
const SESSION_ENDED = /ログインが終了しました/;

for (const dialect of DIALECTS) {
  describe(`staff accounts in the console (${dialect})`, () => {
    const shots = `admin-console-accounts-${dialect}`;
    const shot = (page: Page, name: string) => (dialect === 'sqlite' ? screenshot(page, shots, name) : Promise.resolve());

    // Behind one trusted proxy, so a test can be a browser at another address (X-Forwarded-For).
    const ui = consoleSuite({ dialect, env: { TRUST_PROXY: 'true' } });

    async function newPage(viewport: { width: number; height: number }, context?: BrowserContext): Promise<Page> {
      const page = await (context ?? (await ui.browser.newContext({ viewport }))).newPage();
      recordPage(page, ui.record);
      return page;
    }

    async function signIn(page: Page, account: { email: string; password: string }): Promise<void> {
      await page.goto(`${ui.app.url}/admin`);
      await page.fill('#sign-in-email', account.email);
      await page.fill('#sign-in-password', account.password);
      await page.press('#sign-in-password', 'Enter');
    }

    const loginMessage = (page: Page) => page.locator('.login-page .notice.error');
    const header = (page: Page) => page.locator('header.top .who');
    const navLabels = (page: Page) => page.locator('header.top nav a').allTextContents();
    const accountRow = (page: Page, email: string) => page.locator(`table.staff tr[data-staff="${email}"]`);

    test('the first setup: with no account yet, the token holder creates the first owner in 担当者, who then signs in; the session survives a reload and opens a new tab', async () => {
      assert.deepEqual((await ui.api.call('/api/admin/staff/list')).staff, []);
      for (const [size, viewport] of [
        ['laptop', LAPTOP],
        ['phone', PHONE],
      ] as const) {
        const page = await newPage(viewport);
        await page.goto(`${ui.app.url}/admin`);
        await page.locator('#sign-in-email').waitFor();
        assert.ok(await page.locator('#token').isVisible(), 'the token form stays, below');
        await shot(page, `01-sign-in-${size}`);
        await page.context().close();
      }

      const page = await newPage(LAPTOP);
      await page.goto(`${ui.app.url}/admin`);
      await page.fill('#token', ADMIN_TOKEN);
      await page.press('#token', 'Enter');
      await header(page).filter({ hasText: '管理トークン' }).waitFor();
      assert.ok((await navLabels(page)).includes('担当者'), 'the token acts as an owner');
      await page.click('header.top nav >> text=担当者');
      await page.locator('.first-owner', { hasText: '最初のオーナーを作成してください' }).waitFor();
      assert.equal(await page.locator('#staff-role').inputValue(), 'owner', 'the first account is offered as an owner');
      await page.fill('#staff-name', OWNER.name);
      await page.fill('#staff-email', OWNER.email);
      await page.fill('#staff-password', 'short');
      await page.click('.staff-invite button[type=submit]');
      await page.locator('main > .notice.error', { hasText: '入力内容に誤りがあります（パスワード）' }).waitFor();
      await page.fill('#staff-password', OWNER.password);
      await page.click('.staff-invite button[type=submit]');
      await page.locator('main > .notice.success', { hasText: `${OWNER.name}（${OWNER.email}）をオーナーとして追加しました。` }).waitFor();
      await accountRow(page, OWNER.email).waitFor();
      assert.ok(await page.locator('.first-owner').isHidden());
      const [owner] = (await ui.api.call('/api/admin/staff/list')).staff;
      assert.deepEqual([owner?.email, owner?.name, owner?.role, owner?.disabled], [OWNER.email, OWNER.name, 'owner', false]);
      await page.click('button.sign-out');
      await page.locator('#sign-in-email').waitFor();
      assert.equal(await page.evaluate(() => sessionStorage.length), 0, 'the token is forgotten');

      await page.fill('#sign-in-email', OWNER.email);
      await page.fill('#sign-in-password', 'not the password!');
      await page.press('#sign-in-password', 'Enter');
      await loginMessage(page).filter({ hasText: 'メールアドレスまたはパスワードが正しくありません' }).waitFor();
      await page.fill('#sign-in-password', OWNER.password);
      await page.press('#sign-in-password', 'Enter');
      await header(page).filter({ hasText: OWNER.name }).waitFor();
      assert.equal(await header(page).textContent(), `${OWNER.name}オーナー`);
      await page.locator('.shop-warning:not([hidden])', { hasText: '店舗情報の' }).waitFor();
      assert.deepEqual(
        await page.evaluate(() => ({ cookie: document.cookie, session: sessionStorage.length })),
        { cookie: '', session: 0 },
        'the session cookie is out of the page’s reach, and no token is kept',
      );
      await page.reload();
      await header(page).filter({ hasText: OWNER.name }).waitFor();
      // A Ctrl-click on a record opens a new tab: signed in, no form.
      const tab = await newPage(LAPTOP, page.context());
      await tab.goto(`${ui.app.url}/admin#/reservations`);
      await header(tab).filter({ hasText: OWNER.name }).waitFor();
      assert.equal(await tab.locator('#sign-in-email').count(), 0);
      await page.context().close();
    });

    test('an owner invites two staff with first passwords; in two browsers each changes one reservation and each sees their own name on their change in its history', async () => {
      const owner = await newPage(LAPTOP);
      await signIn(owner, OWNER);
      await header(owner).filter({ hasText: OWNER.name }).waitFor();
      await owner.goto(`${ui.app.url}/admin#/staff`);
      for (const person of [AIKO, KEN]) {
        await owner.fill('#staff-name', person.name);
        await owner.fill('#staff-email', person.email);
        await owner.selectOption('#staff-role', 'staff');
        await owner.fill('#staff-password', person.password);
        await owner.click('.staff-invite button[type=submit]');
        await accountRow(owner, person.email).waitFor();
      }
      assert.equal(await accountRow(owner, AIKO.email).locator('select').inputValue(), 'staff');
      await shot(owner, '02-staff-laptop');

      const { reservationId: id } = await ui.api.call('/api/reservation', {
        name: '客 太郎',
        email: 'kyaku@example.jp',
        productSlug: PRODUCT,
      });
      const aiko = await newPage(LAPTOP);
      const ken = await newPage(PHONE);
      await Promise.all([signIn(aiko, AIKO), signIn(ken, KEN)]);
      await header(aiko).filter({ hasText: AIKO.name }).waitFor();
      await header(ken).filter({ hasText: KEN.name }).waitFor();
      assert.equal(await header(ken).textContent(), `${KEN.name}スタッフ`);
      const recordPage = `${ui.app.url}/admin#/reservations?record=${id}`;
      await Promise.all([aiko.goto(recordPage), ken.goto(recordPage)]);

      // Aiko confirms it; Ken, whose page is now stale, reloads and writes the memo.
      await aiko.locator('.record-actions .action.status select').selectOption('confirmed');
      await aiko.locator('dialog[open] button.primary').click();
      await aiko.locator('.page-note.success', { hasText: 'ステータスを「確定」に変更しました。' }).waitFor();
      await ken.reload();
      await ken.locator('.timeline li', { hasText: 'ステータスを「未対応」から「確定」に変更' }).waitFor();
      await ken.click('.record-actions button.edit-notes');
      await ken.fill('.record-actions textarea', '入金確認済み');
      await ken.click('.record-actions .notes-actions button.primary');
      await ken.locator('.page-note.success', { hasText: 'メモを保存しました。' }).waitFor();
      await aiko.reload();

      const entry = (page: Page, what: string) => page.locator('.timeline li', { hasText: what }).locator('.who');
      for (const page of [aiko, ken]) {
        await entry(page, 'メモを変更').waitFor();
        assert.equal(await entry(page, 'ステータスを「未対応」から「確定」に変更').textContent(), AIKO.name);
        assert.equal(await entry(page, 'メモを変更').textContent(), KEN.name);
      }
      const history = (await ui.api.call('/api/admin/reservations/get', { id })).history.filter((e) => e.type !== 'message');
      assert.deepEqual(
        history.map((e) => e.staffName),
        [AIKO.name, KEN.name],
      );
      await shot(aiko, '03-history-laptop');
      await shot(ken, '03-history-phone');
      await Promise.all([owner.context().close(), aiko.context().close(), ken.context().close()]);
    });

    test('a staff account sees no 個人情報, 店舗情報 or 担当者, cannot open them by their URL, and its direct calls to the owners’ routes get 403; the unset shop’s warning asks it to tell an owner', async () => {
      const page = await newPage(PHONE);
      await signIn(page, AIKO);
      await header(page).filter({ hasText: AIKO.name }).waitFor();
      const labels = await navLabels(page);
      assert.ok(labels.includes('予約') && labels.includes('送信履歴'), labels.join());
      for (const hidden of ['個人情報', '店舗情報', '担当者']) assert.ok(!labels.includes(hidden), `${hidden} is not offered`);
      // The unset shop's warning, which it may not act on: it says to ask an owner, and links nowhere.
      const warning = page.locator('.shop-warning:not([hidden])');
      await warning.filter({ hasText: 'オーナーに設定を依頼してください。' }).waitFor();
      assert.equal(await warning.locator('a').count(), 0);
      for (const [hash, label] of [
        ['#/personal-data', '個人情報'],
        ['#/shop', '店舗情報'],
        ['#/staff', '担当者'],
      ]) {
        await page.goto(`${ui.app.url}/admin${hash}`);
        await page.locator('.view h1', { hasText: label }).waitFor();
        await page.locator('.view .notice.error', { hasText: 'この画面はオーナーだけが使えます' }).waitFor();
        assert.equal(await page.locator('#personal-email, table.staff, .staff-invite, .shop-settings').count(), 0);
      }
      await shot(page, '04-owner-only-phone');
      // The lists are staff's work, but not the CSV of every customer: bulk personal data is an owner's to take.
      await page.goto(`${ui.app.url}/admin#/reservations`);
      await page.locator('table.records tbody tr').first().waitFor();
      assert.equal(await page.locator('.filters button.export').count(), 0);
      const owners: [string, unknown][] = [
        ['/api/admin/reservations/export', {}],
        ['/api/admin/staff/list', {}],
        ['/api/admin/staff/create', { email: 'x@example.jp', name: 'x', role: 'owner', password: 'x'.repeat(12) }],
        ['/api/admin/staff/update', { id: 'stf_x', role: 'owner' }],
        ['/api/admin/personal-data/export', { email: 'kyaku@example.jp' }],
        ['/api/admin/personal-data/erase', { email: 'kyaku@example.jp' }],
        ['/api/admin/shop/update', { name: '乗っ取り' }],
        ['/api/admin-reservations-delete', { id: 'res_x', productSlug: PRODUCT }],
      ];
      const answers = await page.evaluate(
        (calls) =>
          Promise.all(
            calls.map(async ([path, body]) => {
              const response = await fetch(path, {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify(body),
              });
              return [path, response.status, (await response.json()).code];
            }),
          ),
        owners,
      );
      assert.deepEqual(
        answers,
        owners.map(([path]) => [path, 403, 'forbidden']),
      );
      assert.deepEqual(
        (await ui.api.call('/api/admin/staff/list')).staff.map((s) => s.email),
        [OWNER.email, AIKO.email, KEN.email],
        'nothing was created',
      );
      await page.context().close();
    });

    test('an owner disables an account: its open console is signed out at its next action, and it cannot sign in; a reset password signs out the other, who signs in with the new one', async () => {
      const aiko = await newPage(LAPTOP);
      await signIn(aiko, AIKO);
      await aiko.goto(`${ui.app.url}/admin#/reservations`);
      await aiko.locator('table.records tbody tr').first().waitFor();
      const ken = await newPage(LAPTOP);
      await signIn(ken, KEN);
      await ken.locator('.cards').waitFor();

      const owner = await newPage(PHONE);
      await signIn(owner, OWNER);
      await header(owner).filter({ hasText: OWNER.name }).waitFor();
      await owner.goto(`${ui.app.url}/admin#/staff`);
      await accountRow(owner, AIKO.email).locator('button', { hasText: '無効にする' }).click();
      await owner.locator('dialog[open] .confirm-message', { hasText: '開いている管理画面も次の操作でログアウトされます' }).waitFor();
      await shot(owner, '05-disable-phone');
      await owner.locator('dialog[open] button.primary').click();
      await accountRow(owner, AIKO.email).locator('td[data-label=状態]', { hasText: '無効' }).waitFor();
      await shot(owner, '06-staff-phone');

      await aiko.click('text=再読み込み');
      await loginMessage(aiko).filter({ hasText: SESSION_ENDED }).waitFor();
      await aiko.fill('#sign-in-email', AIKO.email);
      await aiko.fill('#sign-in-password', AIKO.password);
      await aiko.press('#sign-in-password', 'Enter');
      await loginMessage(aiko).filter({ hasText: 'メールアドレスまたはパスワードが正しくありません' }).waitFor();

      // A new password for Ken, set in its dialog; and the role changed in its select.
      const NEW_PASSWORD = 'ken second password';
      await accountRow(owner, KEN.email).locator('button.reset-password').click();
      await owner.fill('#reset-password', NEW_PASSWORD);
      await owner.locator('dialog[open] button.primary').click();
      await owner.locator('main > .notice.success', { hasText: `${KEN.name}のパスワードを再設定しました。` }).waitFor();
      await accountRow(owner, KEN.email).locator('select').selectOption('owner');
      await owner.locator('main > .notice.success', { hasText: `${KEN.name}の役割をオーナーにしました。` }).waitFor();
      await ken.click('header.top nav >> text=予約');
      await loginMessage(ken).filter({ hasText: SESSION_ENDED }).waitFor();
      await signIn(ken, { email: KEN.email, password: NEW_PASSWORD });
      await header(ken)
        .filter({ hasText: `${KEN.name}オーナー` })
        .waitFor();
      assert.ok((await navLabels(ken)).includes('担当者'), 'an owner now');
      // The last owner but one may go back to staff; the console says why the service refuses more.
      await accountRow(owner, KEN.email).locator('select').selectOption('staff');
      await owner.locator('main > .notice.success', { hasText: `${KEN.name}の役割をスタッフにしました。` }).waitFor();
      await accountRow(owner, OWNER.email).locator('select').selectOption('staff');
      await owner.locator('main > .notice.error', { hasText: '有効なオーナーが一人もいなくなるため、変更できません' }).waitFor();
      assert.equal(await accountRow(owner, OWNER.email).locator('select').inputValue(), 'owner', 'the select is put back');
      // Aiko enabled again, for the tests after.
      await accountRow(owner, AIKO.email).locator('button', { hasText: '有効にする' }).click();
      await accountRow(owner, AIKO.email).locator('td[data-label=状態]', { hasText: '有効' }).waitFor();
      await Promise.all([aiko.context().close(), ken.context().close(), owner.context().close()]);
      KEN.password = NEW_PASSWORD;
    });

    test('one’s own password, from one’s name in the header: the current one is asked, and the new one signs in', async () => {
      for (const [size, viewport] of [
        ['laptop', LAPTOP],
        ['phone', PHONE],
      ] as const) {
        const page = await newPage(viewport);
        await signIn(page, KEN);
        await header(page).click();
        await page.locator('.view h1', { hasText: 'パスワード変更' }).waitFor();
        await page.fill('#current-password', 'not my password');
        await page.fill('#next-password', 'ken third password');
        await page.fill('#next-password-again', 'ken third password');
        await page.click('.password-change button[type=submit]');
        await page.locator('main > .notice.error', { hasText: '現在のパスワードが正しくありません' }).waitFor();
        await shot(page, `07-password-${size}`);
        await page.context().close();
      }
      const page = await newPage(LAPTOP);
      await signIn(page, KEN);
      await header(page).click();
      await page.fill('#current-password', KEN.password);
      await page.fill('#next-password', 'ken third password');
      await page.fill('#next-password-again', 'ken third password');
      await page.click('.password-change button[type=submit]');
      await page.locator('main > .notice.success', { hasText: 'パスワードを変更しました。' }).waitFor();
      KEN.password = 'ken third password';
      // The sign-in form shows before the session ends on the service: a page loaded sooner would find it alive.
      const ended = page.waitForResponse((response) => response.url().endsWith('/api/admin/session/end'));
      await page.click('button.sign-out');
      await ended;
      await signIn(page, KEN);
      await header(page).filter({ hasText: KEN.name }).waitFor();
      await page.context().close();
    });

    test('signing out in one tab signs out every tab, and the session is over on the service', async () => {
      const first = await newPage(LAPTOP);
      await signIn(first, AIKO);
      await header(first).filter({ hasText: AIKO.name }).waitFor();
      const second = await newPage(LAPTOP, first.context());
      await second.goto(`${ui.app.url}/admin#/dashboard`);
      await header(second).filter({ hasText: AIKO.name }).waitFor();
      // Its screen loaded: no call of its own is left to find the session ended before the other tab says so.
      await second.locator('.cards').waitFor();
      const [cookie] = await first.context().cookies();
      assert.deepEqual([cookie?.name, cookie?.httpOnly, cookie?.sameSite], ['tenpo_session', true, 'Strict']);

      await first.click('button.sign-out');
      await first.locator('#sign-in-email').waitFor();
      await second.locator('#sign-in-email').waitFor();
      await loginMessage(second).filter({ hasText: '別のタブでログアウトしました' }).waitFor();
      const replayed = await ui.app.request('/api/admin/session/get', {
        method: 'POST',
        headers: { cookie: `tenpo_session=${cookie!.value}` },
        body: '{}',
      });
      assert.equal(replayed.status, 401, 'the old cookie, sent again, is refused');
      // Signing in again in one tab signs the other in too.
      await signIn(first, AIKO);
      await header(second).filter({ hasText: AIKO.name }).waitFor();
      await first.context().close();
    });

    test('20 wrong passwords for one account from 20 addresses lock that account’s sign-in, not the others’', async () => {
      const target = { email: 'kobayashi@example.jp', name: '小林 翔', role: 'staff', password: 'kobayashi password' } as const;
      await ui.api.call('/api/admin/staff/create', target);
      const page = await newPage(PHONE);
      await page.goto(`${ui.app.url}/admin`);
      const said: string[] = [];
      for (let i = 1; i <= 20; i++) {
        await page.setExtraHTTPHeaders({ 'x-forwarded-for': `203.0.113.${i}` });
        await page.fill('#sign-in-email', target.email);
        await page.fill('#sign-in-password', `guess number ${i}`);
        const answered = page.waitForResponse((response) => response.url().endsWith('/api/admin/session'));
        await page.press('#sign-in-password', 'Enter');
        await answered;
        await page.locator('#account-sign-in button[type=submit]:not([disabled])').waitFor();
        said.push((await loginMessage(page).textContent())!);
      }
      const refused = 'メールアドレスまたはパスワードが正しくありません。';
      const locked = 'このメールアドレスでのログインの失敗が続いたため、しばらくログインできません。';
      assert.deepEqual(
        said.map((text) => (text.startsWith(refused) ? 'refused' : text.startsWith(locked) ? 'locked' : text)),
        [...Array(10).fill('refused'), ...Array(10).fill('locked')],
      );
      await shot(page, '08-locked-phone');
      await page.setExtraHTTPHeaders({ 'x-forwarded-for': '203.0.113.99' });
      await page.fill('#sign-in-password', target.password);
      await page.press('#sign-in-password', 'Enter');
      await page.locator('#account-sign-in button[type=submit]:not([disabled])').waitFor();
      await loginMessage(page).filter({ hasText: locked }).waitFor();
      assert.equal(await page.locator('header.top').count(), 0, 'the right password too, from another address');
      // The other accounts sign in, from the same addresses.
      await page.fill('#sign-in-email', KEN.email);
      await page.fill('#sign-in-password', KEN.password);
      await page.press('#sign-in-password', 'Enter');
      await header(page).filter({ hasText: KEN.name }).waitFor();
      await page.context().close();
    });

    test('a form another page posts with the signed-in browser’s cookie is refused: 403, nothing done', async () => {
      const page = await newPage(LAPTOP);
      await signIn(page, OWNER);
      await header(page).filter({ hasText: OWNER.name }).waitFor();
      // Another origin on the same host (another port): the same site, so the browser sends even a
      // SameSite=Strict cookie with its post; only the Origin check stands in the way.
      const target = `${ui.app.url}/api/admin/staff/create`;
      const attacker = await listen((_request, response) => {
        response.setHeader('content-type', 'text/html; charset=utf-8');
        response.end(
          `<form method="post" action="${target}" enctype="text/plain">` +
            `<input name='{"email":"intruder@example.jp","name":"x","role":"owner","password":"' value='intruder password"}'>` +
            `</form><script>document.forms[0].submit()</script>`,
        );
      });
      try {
        const sent = page.waitForRequest(target);
        const answered = page.waitForResponse(target);
        await page.goto(`http://127.0.0.1:${(attacker.address() as AddressInfo).port}/`);
        const request = await sent;
        assert.match((await request.allHeaders()).cookie ?? '', /tenpo_session=/, 'the cookie went with it');
        const response = await answered;
        assert.equal(response.status(), 403);
        assert.deepEqual(await response.json(), { success: false, error: 'Origin not allowed', code: 'origin_not_allowed' });
      } finally {
        attacker.close();
      }
      assert.ok(!(await ui.api.call('/api/admin/staff/list')).staff.some((s) => s.email === 'intruder@example.jp'));
      await page.context().close();
    });

    test('the pages had no errors', () => {
      assert.deepEqual(ui.record.errors, []);
    });
  });
}

function listen(handler: RequestListener): Promise<Server> {
  const server = createServer(handler);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}
