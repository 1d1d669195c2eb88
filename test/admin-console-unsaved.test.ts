import assert from 'node:assert/strict';
import { waitUntil } from './helpers/wait.ts';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { insertReservations } from '../src/reservations/store.ts';
import { screenshot } from './helpers/browser.ts';
import { consoleSuite, SIZES } from './helpers/console.ts';

// Nothing typed in the console is lost without asking, in headless Chromium at a laptop's and a
// phone's size: on every screen that edits (メールテンプレート, 店舗情報, 予約受付's create and edit
// forms, a reservation's memo in the list and on its page, 担当者's invitation, パスワード変更),
// leaving by the navigation, a link to another record, the browser's back, a reload and the
// sign-out each ask first, and staying keeps the text; the reload's question comes from a
// beforeunload listener that is there only while something is unsaved. And the editors' own ways
// out: the memo's 閉じる, another campaign's 編集, and 「この版に戻す…」, which keeps the unsaved
// text as a version as its dialog says.

const SHOTS = 'admin-console-unsaved';
const OWNER = { email: 'tencho@example.jp', name: '店長 一郎', password: 'tencho no pasuwado 1' };

const numbers = new Map<string, number>();

const ui = consoleSuite({}, async () => {
  const start = Date.parse('2026-01-01T00:00:00.000Z');
  const rows = Array.from({ length: 4 }, (_, i) => ({
    id: `res_memo_${i}`,
    name: `顧客 ${i}`,
    email: `customer${i}@example.jp`,
    product_slug: 'kumo-vco-2',
    status: 'pending',
    created_at: new Date(start + i * 60_000).toISOString(),
  }));
  for (const [id, number] of await insertReservations(ui.app.services.database.db, rows)) numbers.set(id, number);
  await ui.api.call('/api/admin/preorders/upsert', { productSlug: 'tsuki-dual-lfo', capacity: 10 });
  await ui.api.call('/api/admin/staff/create', { ...OWNER, role: 'owner' });
});

/** Whether the page has a beforeunload listener now (asked of Chromium itself, not of the page's code). */
async function guardsUnload(page: Page): Promise<boolean> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { result } = await cdp.send('Runtime.evaluate', { expression: 'window' });
    const { listeners } = await cdp.send('DOMDebugger.getEventListeners', { objectId: result.objectId! });
    return listeners.some((listener) => listener.type === 'beforeunload');
  } finally {
    await cdp.detach();
  }
}

/** Reloads the page; true when the browser asked first (the question is dismissed: the page stays), false when it just reloaded. */
async function reloadAsks(page: Page): Promise<boolean> {
  const outcome = Promise.race([
    page.waitForEvent('dialog').then(async (dialog) => {
      assert.equal(dialog.type(), 'beforeunload');
      await dialog.dismiss();
      return true;
    }),
    page.waitForEvent('load').then(() => false),
  ]);
  await page.evaluate(() => void setTimeout(() => location.reload()));
  return outcome;
}

const question = (page: Page, text: string) => page.locator('dialog.confirm[open]', { hasText: text });
const stay = (page: Page) => page.click('dialog.confirm[open] button:not(.primary)');
const discard = (page: Page) => page.click('dialog.confirm[open] button.primary');
const hash = (page: Page) => page.evaluate(() => location.hash);

/** A form that edits: where it is, how to open and type in it, and what the question calls it. */
interface Editing {
  name: string;
  view: string;
  account?: true;
  /** Shows the form, once the screen is loaded. */
  open(page: Page): Promise<void>;
  /** The field typed in. */
  field: string;
  /** What the question names (a memo by its reservation's number, known once the rows are written). */
  what: string | (() => string);
  /** A link on the screen to another record, which asks as well. */
  otherRecord?: string;
}

const editing: Editing[] = [
  {
    name: 'メールテンプレート',
    view: 'email-templates?kind=reservation-fulfilled',
    open: (page) => page.locator('#preview-subject', { hasText: 'お渡し' }).waitFor(),
    field: '#template-subject',
    what: '「お渡し完了」のメール',
  },
  { name: '店舗情報', view: 'shop', open: (page) => page.locator('#shop-name').waitFor(), field: '#shop-name', what: '店舗情報' },
  {
    name: '予約受付 (creating one)',
    view: 'preorders',
    open: (page) => page.locator('table.preorders tbody tr').first().waitFor(),
    field: '#preorder-ships',
    what: '作成中の予約受付',
  },
  {
    name: '予約受付 (editing one)',
    view: 'preorders',
    async open(page) {
      await page.click('table.preorders tr[data-product="tsuki-dual-lfo"] button:has-text("編集")');
      await page.locator('#preorder-heading', { hasText: '編集' }).waitFor();
    },
    field: '#preorder-note',
    what: '「Tsuki デュアルLFO」の予約受付',
  },
  // The two memos are rows of this table like the others: each names its own selectors, which a builder would hide.
  {
    name: 'a memo in the list',
    view: 'reservations',
    async open(page) {
      await page.click('tr[data-id="res_memo_1"] button.edit-notes');
    },
    field: 'tr[data-id="res_memo_1"] .notes-editor textarea',
    what: () => `ご予約番号 ${numbers.get('res_memo_1')} のメモ`,
    otherRecord: 'tr[data-id="res_memo_2"] a.record-link',
  },
  {
    name: 'a memo on the reservation’s page',
    view: 'reservations?record=res_memo_3',
    async open(page) {
      await page.click('.record-actions button.edit-notes');
    },
    field: '.record-actions .notes-editor textarea',
    what: () => `ご予約番号 ${numbers.get('res_memo_3')} のメモ`,
    otherRecord: '.back a',
  },
  {
    name: '担当者 (inviting)',
    view: 'staff',
    open: (page) => page.locator('#staff-name').waitFor(),
    field: '#staff-name',
    what: '担当者の追加',
  },
  {
    name: 'パスワード変更',
    view: 'password',
    account: true,
    open: (page) => page.locator('#current-password').waitFor(),
    field: '#current-password',
    what: 'パスワードの変更',
  },
];

const whatOf = (form: Editing) => (typeof form.what === 'string' ? form.what : form.what());

for (const [size, viewport] of SIZES) {
  describe(`unsaved work asks before it is lost (${size})`, () => {
    for (const form of editing) {
      test(`${form.name}: the navigation, ${form.otherRecord ? 'a link to another record, ' : ''}back, reload and sign-out ask; staying keeps the text`, async () => {
        const page = form.account ? await ui.asAccount(OWNER, form.view, viewport) : await ui.signedIn(form.view, viewport);
        await form.open(page);
        const where = await hash(page);
        assert.equal(await guardsUnload(page), false, 'nothing unsaved: no beforeunload listener');
        await page.locator(form.field).pressSequentially(`まだ保存していない ${size}`);
        const typed = await page.locator(form.field).inputValue();
        const kept = async (what: string) => {
          await page.waitForFunction((address) => location.hash === address, where);
          assert.equal(await page.locator(form.field).inputValue(), typed, `${what}: the text kept`);
        };
        assert.equal(await guardsUnload(page), true, 'typed: the beforeunload listener is there');
        const leaving = question(page, `${whatOf(form)}の編集中の内容は保存されていません。破棄してこの画面を離れますか？`);

        // Back first: a refused move leaves the address it put back in the history, which back then returns to.
        await page.evaluate(() => history.back());
        await leaving.waitFor();
        await stay(page);
        await kept('back');

        await page.click('nav a[href="#/dashboard"]');
        await leaving.waitFor();
        if (form.name === '店舗情報') await screenshot(page, SHOTS, `01-leave-asked-${size}`);
        await stay(page);
        await kept('the navigation');

        if (form.otherRecord) {
          await page.click(form.otherRecord);
          await leaving.waitFor();
          await stay(page);
          await kept('a link to another record');
        }

        assert.equal(await reloadAsks(page), true, 'the reload is asked by the browser');
        await kept('reload');

        await page.click('button.sign-out');
        await question(page, `${whatOf(form)}の編集中の内容は保存されていません。破棄してログアウトしますか？`).waitFor();
        await stay(page);
        await kept('sign-out');
        assert.equal(await page.locator('header.top').isVisible(), true, 'still signed in');

        // Discarding moves on, and the listener goes with the text.
        await page.click('nav a[href="#/dashboard"]');
        await leaving.waitFor();
        await discard(page);
        await page.locator('nav a[aria-current]', { hasText: 'ダッシュボード' }).waitFor();
        assert.equal(await guardsUnload(page), false, 'discarded: no beforeunload listener');
        await page.context().close();
      });
    }

    test('担当者’s password reset: while a new password is typed in its dialog a reload asks; closing the dialog lets it go', async () => {
      const page = await ui.signedIn('staff', viewport);
      await page.locator('button.reset-password').first().click();
      await page.locator('dialog.confirm[open] #reset-password').pressSequentially(`new-password-${size}-1234`);
      assert.equal(await guardsUnload(page), true, 'typed: the beforeunload listener is there');
      assert.equal(await reloadAsks(page), true, 'the reload is asked by the browser');
      assert.equal(await page.locator('dialog.confirm[open] #reset-password').inputValue(), `new-password-${size}-1234`, 'the text kept');
      await stay(page);
      await page.locator('dialog.confirm[open]').waitFor({ state: 'detached' });
      await waitUntil(async () => !(await guardsUnload(page)), { what: 'the dialog closed: no beforeunload listener' });
      await page.context().close();
    });

    test('the memo’s 閉じる asks before discarding typed text; a saved memo lets the page reload unasked', async () => {
      const page = await ui.signedIn('reservations', viewport);
      const row = page.locator('tr[data-id="res_memo_0"]');
      await row.locator('button.edit-notes').click();
      const area = row.locator('.notes-editor textarea');
      await area.fill('');
      await area.pressSequentially('電話で確認済み');
      await row.locator('.notes-actions button:has-text("閉じる")').click();
      const closing = question(
        page,
        `ご予約番号 ${numbers.get('res_memo_0')} のメモの編集中の内容は保存されていません。破棄してメモを閉じますか？`,
      );
      await closing.waitFor();
      await screenshot(page, SHOTS, `02-memo-close-asked-${size}`);
      await stay(page);
      assert.equal(await area.inputValue(), '電話で確認済み');
      await row.locator('.notes-actions button:has-text("閉じる")').click();
      await closing.waitFor();
      await discard(page);
      await row.locator('button.edit-notes').waitFor();
      assert.equal(await row.locator('.notes-editor').count(), 0, 'closed');
      assert.equal(await guardsUnload(page), false, 'discarded: no listener');

      // Typed again and saved: nothing is unsaved, so the reload goes ahead without a question.
      await row.locator('button.edit-notes').click();
      await row.locator('.notes-editor textarea').fill('');
      await row.locator('.notes-editor textarea').pressSequentially(`保存するメモ ${size}`);
      assert.equal(await guardsUnload(page), true);
      await row.locator('.notes-actions button.primary').click();
      await page.locator('tr.row-note.success', { hasText: 'メモを保存しました。' }).waitFor();
      assert.equal(await guardsUnload(page), false, 'saved: no listener');
      assert.equal(await reloadAsks(page), false, 'reloaded without a question');
      await page.locator('tr[data-id="res_memo_0"] .notes-text', { hasText: `保存するメモ ${size}` }).waitFor();
      await page.context().close();
    });

    test('予約受付: 編集 of another campaign asks while the form holds typed text, and the form stays on a refresh', async () => {
      const page = await ui.signedIn('preorders', viewport);
      await page.locator('table.preorders tbody tr').first().waitFor();
      await page.locator('#preorder-ships').pressSequentially('2027年3月上旬');
      await page.click('.view-head button:has-text("更新")');
      await page.waitForFunction(() => !document.querySelector('[aria-busy]'));
      assert.equal(await page.inputValue('#preorder-ships'), '2027年3月上旬', 'a refresh of the list keeps the form');
      await page.click('table.preorders tr[data-product="tsuki-dual-lfo"] button:has-text("編集")');
      await question(page, '作成中の予約受付の編集中の内容は保存されていません。破棄して別の予約受付を編集しますか？').waitFor();
      await stay(page);
      assert.equal(await page.inputValue('#preorder-ships'), '2027年3月上旬');
      await page.click('table.preorders tr[data-product="tsuki-dual-lfo"] button:has-text("編集")');
      await discard(page);
      await page.locator('#preorder-heading', { hasText: '編集' }).waitFor();
      assert.equal(await guardsUnload(page), false);
      await page.context().close();
    });

    test('「この版に戻す…」 keeps the unsaved text as a version of its own, as its dialog says, then reverts', async () => {
      const kind = size === 'laptop' ? 'reservation-cancelled' : 'reservation-received';
      // A saved edit first, so version 1 (a new shop's default) is an older version to go back to.
      await ui.api.call('/api/admin/email-templates/update', { kind, subject: `編集した件名 ${size} {{productName}}` });
      const page = await ui.signedIn(`email-templates?kind=${kind}`, viewport);
      const subject = page.locator('#template-subject');
      await page.locator('.template-versions li[data-version="1"] button.revert').waitFor();
      const before = (await ui.api.call('/api/admin/email-templates/versions', { kind })).versions;
      const current = before[0]!;
      const draft = `保存していない件名 ${size}`;
      await subject.fill('');
      await subject.pressSequentially(draft);
      await page.click('.template-versions li[data-version="1"] button.revert');
      const asked = page.locator('dialog.confirm[open] .confirm-message');
      await asked.waitFor();
      assert.match(
        (await asked.textContent())!,
        /いまの内容も版として残ります。編集中の保存していない内容は、先に新しい版として保存します。$/,
      );
      await screenshot(page, SHOTS, `03-revert-asked-${size}`);
      await page.click('dialog.confirm[open] button.primary');
      const saved = current.version + 1;
      await page
        .locator('main > .notice.success', {
          hasText: `編集中の内容を第${saved}版として保存し、第1版の内容を第${saved + 1}版として保存しました。`,
        })
        .waitFor();
      const versions = (await ui.api.call('/api/admin/email-templates/versions', { kind })).versions;
      assert.deepEqual(
        versions.slice(0, 2).map((v) => [v.version, v.subject]),
        [
          [saved + 1, before.find((v) => v.version === 1)!.subject],
          [saved, draft],
        ],
        'the unsaved text is a version, and the revert the newest',
      );
      assert.equal(await subject.inputValue(), before.find((v) => v.version === 1)!.subject, 'the editor shows the version reverted to');
      await page.locator(`.template-versions li[data-version="${saved}"] summary`, { hasText: draft }).waitFor();
      assert.equal(await guardsUnload(page), false, 'nothing unsaved is left');
      await page.context().close();
    });
  });
}

describe('the page', () => {
  test('had no errors', () => {
    assert.deepEqual(ui.record.errors, []);
  });
});
