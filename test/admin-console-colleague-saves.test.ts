import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { screenshot } from './helpers/browser.ts';
import { consoleSuite, SIZES } from './helpers/console.ts';

// Two people editing the same email template or preorder campaign, in headless Chromium at a
// laptop's and a phone's size against the whole service: the second save, made from what the first
// replaced, is refused (409), nothing is overwritten, the colleague's change is shown in the form
// joined with what was typed (a field both changed named and outlined), and saving again keeps both.

const SHOTS = 'admin-console-colleague-saves';
const PRODUCTS = { laptop: 'ferrocene-granular-mini', phone: 'ferrocene-macro-oscillator' } as const;
const KINDS = { laptop: 'reservation-fulfilled', phone: 'reservation-cancelled' } as const;

const ui = consoleSuite();

const noticeSays = (page: Page, start: string) => page.locator('main > .notice:not([hidden])', { hasText: start }).waitFor();

for (const [size, viewport] of SIZES) {
  describe(`a colleague's save in between (${size})`, () => {
    test('the email template: their subject comes into the editor, the body typed here stays, and the next save keeps both', async () => {
      const { api } = ui;
      const kind = KINDS[size];
      const page = await ui.signedIn(`email-templates?kind=${kind}`, viewport);
      const [subject, body] = [page.locator('#template-subject'), page.locator('#template-body')];
      await page.locator(`.kind-tabs button[data-kind="${kind}"][aria-pressed=true]`).waitFor();
      await page.locator('#preview-subject').filter({ hasText: /\S/ }).waitFor();
      const typedBody = `${await body.inputValue()}\n\nご来店をお待ちしております。`;
      await body.fill(typedBody);
      const theirs = (await api.call('/api/admin/email-templates/update', { kind, subject: `同僚が直した件名（${size}）` })).template;

      await page.click('.template-form button[type=submit]');
      await noticeSays(page, '他の担当者が先に');
      assert.equal(
        await page.locator('main > .notice').textContent(),
        `他の担当者が先に「${kind === 'reservation-fulfilled' ? 'お渡し完了' : 'キャンセル'}」のメールを保存していました（件名を変更）。まだ保存されていません。他の担当者の変更を入力欄に反映し、あなたの入力もそのまま残しています。内容を確認して、もう一度保存してください。`,
      );
      assert.equal(await subject.inputValue(), theirs.subject, 'their subject in the editor');
      assert.equal(await body.inputValue(), typedBody, 'the body typed here kept');
      const stored = (await api.call('/api/admin/email-templates/list', {})).templates.find((t) => t.kind === kind)!;
      assert.deepEqual([stored.version, stored.subject], [theirs.version, theirs.subject], 'nothing overwritten');
      await screenshot(page, SHOTS, `01-template-colleague-${size}`);

      await page.click('.template-form button[type=submit]');
      await noticeSays(page, 'のメールを保存しました');
      const saved = (await api.call('/api/admin/email-templates/list', {})).templates.find((t) => t.kind === kind)!;
      assert.deepEqual([saved.version, saved.subject, saved.body], [theirs.version + 1, theirs.subject, typedBody], 'both people’s work');
      await page.context().close();
    });

    test('the preorder campaign: a field both changed is named and outlined, the others joined, and the next save keeps both', async () => {
      const { api } = ui;
      const productSlug = PRODUCTS[size];
      await api.call('/api/admin/preorders/upsert', { productSlug, capacity: 5, shipsIn: '2027年春' });
      const page = await ui.signedIn('preorders', viewport);
      await page.locator(`tr[data-product="${productSlug}"] button`, { hasText: '編集' }).click();
      await page.locator('#preorder-capacity').fill('8');
      await page.locator('#preorder-note').fill('店頭受け取りもできます');
      await api.call('/api/admin/preorders/upsert', { productSlug, capacity: 6, shipsIn: '2027年夏' });

      await page.click('.preorder-editor button[type=submit]');
      await noticeSays(page, '他の担当者が先に');
      const said = (await page.locator('main > .notice').textContent())!;
      assert.match(said, /^他の担当者が先に「[^」]+」の予約受付を保存していました（台数・発送予定を変更）。まだ保存されていません。/);
      assert.match(
        said,
        /台数は他の担当者が「6」にしていて、あなたの入力と異なります。どちらにするか決めてから、もう一度保存してください。/,
      );
      assert.equal(await page.inputValue('#preorder-capacity'), '8', 'the typed value kept where both changed');
      assert.equal(await page.getAttribute('#preorder-capacity', 'aria-invalid'), 'true', 'and outlined');
      assert.equal(await page.inputValue('#preorder-ships'), '2027年夏', 'theirs where only they changed');
      assert.equal(await page.inputValue('#preorder-note'), '店頭受け取りもできます', 'mine where only I changed');
      const stored = (await api.call('/api/admin/preorders/list', {})).preorders.find((p) => p.productSlug === productSlug)!;
      assert.deepEqual([stored.capacity, stored.shipsIn, stored.note], [6, '2027年夏', null], 'nothing overwritten');
      await screenshot(page, SHOTS, `02-preorder-colleague-${size}`);

      await page.click('.preorder-editor button[type=submit]');
      await noticeSays(page, 'の予約受付を保存しました。');
      const saved = (await api.call('/api/admin/preorders/list', {})).preorders.find((p) => p.productSlug === productSlug)!;
      assert.deepEqual([saved.capacity, saved.shipsIn, saved.note], [8, '2027年夏', '店頭受け取りもできます'], 'both people’s work');
      assert.deepEqual(ui.record.errors, []);
      await page.context().close();
    });
  });
}
