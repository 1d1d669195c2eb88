import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { Page } from 'playwright-core';
import { screenshot } from './helpers/browser.ts';
import { consoleSuite, SIZES } from './helpers/console.ts';

// The console's layouts in headless Chromium at 1366x768 and 390x844, against the whole service on
// SQLite: one very long name, product and address among ordinary records squeezes no other row and
// pushes nothing off the screen's side; a long list has its pager at both ends; 編集 on a row far
// down 予約受付 opens its editor where staff look; and no button or select of any screen is cut.

const SHOTS = 'admin-console-layouts';

const LONG_NAME = 'Wolfeschlegelsteinhausenbergerdorff'.repeat(3).slice(0, 100);
const LONG_EMAIL = `${'a'.repeat(64)}@example.com`;
const LONG_PRODUCT = `Kumo Spannungsgesteuerter${'Mehrfachwellenformgenerator'.repeat(3)} Deluxe`;
const LONG_SLUG = 'kumo-long-name-module';
/** Ordinary reservations besides the long one: a first page of 50 and a second one. */
const ORDINARY = 54;

let catalogDir: string;
let longId: string;

const ui = consoleSuite(
  async () => {
    catalogDir = mkdtempSync(join(tmpdir(), 'tenpo-layouts-'));
    const products = JSON.parse(readFileSync('data/products.json', 'utf8')) as Record<string, unknown>[];
    const long = { ...products[0], slug: LONG_SLUG, name: LONG_PRODUCT, detailHref: `/products/${LONG_SLUG}` };
    writeFileSync(join(catalogDir, 'products.json'), JSON.stringify([...products, long]));
    return { env: { CATALOG_PATH: join(catalogDir, 'products.json') } };
  },
  async () => {
    // The long one first: the oldest, on the first page when the oldest come first, and its message on the message log's last page.
    longId = (await ui.api.call('/api/reservation', { name: LONG_NAME, email: LONG_EMAIL, productSlug: LONG_SLUG })).reservationId;
    for (let i = 1; i <= ORDINARY; i++)
      await ui.api.call('/api/reservation', { name: `山田 太郎${i}`, email: `taro${i}@example.com`, productSlug: 'kumo-vco-2' });
    await ui.api.call('/api/notify', { email: LONG_EMAIL, productSlug: LONG_SLUG });
    for (let i = 1; i <= 5; i++) await ui.api.call('/api/notify', { email: `taro${i}@example.com`, productSlug: 'tsuki-dual-lfo' });
  },
);
after(() => rmSync(catalogDir, { recursive: true, force: true }));

/** Shows `view` in the tab already signed in (loaded afresh, so no row of the list shown before is measured), once its list has loaded. */
async function showList(page: Page, view: string): Promise<void> {
  await page.goto(`${ui.app.url}/admin#/${view}`);
  await page.reload();
  await page.locator('table.records tbody tr').first().waitFor();
  await page.waitForFunction(() => !document.querySelector('[aria-busy=true]'));
}

interface Rows {
  /** The heights of the rows (cards on a phone) not holding the long values. */
  ordinary: number[];
  /** The height of the row holding them; undefined when the page has none. */
  long: number | undefined;
  /** The heights of that row's long values. */
  clipped: number[];
  /** How wide the page is: wider than the window, it scrolls sideways. */
  pageWidth: number;
}

async function measureRows(page: Page, long: string): Promise<Rows> {
  return page.evaluate((long) => {
    const rows = [...document.querySelectorAll('table.records tbody tr')].map((row) => ({
      long: row.textContent!.includes(long),
      height: row.getBoundingClientRect().height,
      clipped: [...row.querySelectorAll('.clip')].map((clip) => clip.getBoundingClientRect().height),
    }));
    return {
      ordinary: rows.filter((row) => !row.long).map((row) => row.height),
      long: rows.find((row) => row.long)?.height,
      clipped: rows.find((row) => row.long)?.clipped ?? [],
      pageWidth: document.documentElement.scrollWidth,
    };
  }, long);
}

/** A line of the console's text (16 px at a line height of 1.5). */
const LINE = 24;

/**
 * The rows beside the long one are as high as the same rows on a page without it, but for a line
 * at most (the long values take their columns' room: a date may wrap); each long value takes two
 * lines at most, and its row four more than the others at most (the link after the address); and
 * nothing makes the page scroll sideways.
 */
function assertNoSqueeze(what: string, width: number, without: Rows, withLong: Rows): void {
  const usual = Math.max(...without.ordinary);
  assert.equal(without.long, undefined, `${what}: the page to compare with holds no long row`);
  assert.ok(withLong.long !== undefined, `${what}: the long row is shown`);
  assert.ok(withLong.ordinary.length > 0, `${what}: ordinary rows beside it`);
  assert.ok(
    Math.max(...withLong.ordinary) <= usual + LINE,
    `${what}: the other rows keep their height (${Math.max(...withLong.ordinary)} px, ${usual} px without the long one)`,
  );
  assert.ok(withLong.long <= usual + 4 * LINE, `${what}: the long row is ${withLong.long} px high, the others ${usual} px`);
  for (const height of withLong.clipped)
    assert.ok(height <= 2 * LINE + 1, `${what}: a long value takes two lines at most, not ${height} px`);
  assert.ok(withLong.pageWidth <= width, `${what}: the page is ${withLong.pageWidth} px wide in a ${width} px window`);
}

test('a 100-character name, a long product and a long address squeeze no other row, and are shown whole on the record page', async () => {
  for (const [size, viewport] of SIZES) {
    const page = await ui.signedIn('dashboard', viewport);

    // 予約: the ordinary ones alone (searched), then the long one first among them (oldest first).
    await showList(page, 'reservations?q=山田');
    const reservations = await measureRows(page, LONG_NAME);
    await showList(page, 'reservations?sort=createdAt&order=asc');
    assertNoSqueeze(`予約 (${size})`, viewport.width, reservations, await measureRows(page, LONG_NAME));
    const longRow = page.locator('table.records tbody tr', { hasText: LONG_NAME });
    for (const text of [LONG_NAME, LONG_PRODUCT, LONG_EMAIL])
      assert.equal(await longRow.locator('.clip', { hasText: text }).getAttribute('title'), text, `the whole of ${text} is the title`);
    await screenshot(page, SHOTS, `01-long-name-reservations-${size}`);

    // 再入荷通知: the long address and product among five ordinary signups.
    await showList(page, 'subscriptions?q=taro');
    const subscriptions = await measureRows(page, LONG_EMAIL);
    await showList(page, 'subscriptions');
    assertNoSqueeze(`再入荷通知 (${size})`, viewport.width, subscriptions, await measureRows(page, LONG_EMAIL));

    // 送信履歴's emails: the first page holds the newest, ordinary ones; the second the long address's.
    await showList(page, 'messages?channel=email');
    const messages = await measureRows(page, LONG_EMAIL);
    await showList(page, 'messages?channel=email&page=2');
    assertNoSqueeze(`送信履歴 (${size})`, viewport.width, messages, await measureRows(page, LONG_EMAIL));

    // The record's own page shows each of them whole, within the window.
    await page.goto(`${ui.app.url}/admin#/reservations?record=${longId}`);
    const facts = page.locator('.facts');
    await facts.waitFor();
    for (const [label, text] of [
      ['お名前', LONG_NAME],
      ['商品', LONG_PRODUCT],
      ['メール', LONG_EMAIL],
    ] as const) {
      const fact = facts.locator('dt', { hasText: label }).locator('xpath=following-sibling::dd[1]');
      assert.equal(await fact.textContent(), text);
      assert.ok(await fact.evaluate((dd) => dd.scrollWidth <= dd.clientWidth), `${label} is not cut on the record page (${size})`);
    }
    assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= viewport.width);
    await screenshot(page, SHOTS, `02-long-name-record-${size}`);
    await page.context().close();
  }
  assert.deepEqual(ui.record.errors, []);
});

/** Where each pager of the list is, and what it says. */
async function pagersOf(page: Page): Promise<{ said: string[]; aroundTheList: boolean; topInView: boolean }> {
  return page.evaluate(() => {
    const pagers = [...document.querySelectorAll('nav.pager')];
    const table = document.querySelector('table.records')!;
    const top = pagers[0]?.getBoundingClientRect();
    return {
      said: pagers.map((pager) => pager.querySelector('.page')!.textContent!),
      aroundTheList:
        pagers.length === 2 &&
        (pagers[0]!.compareDocumentPosition(table) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0 &&
        (pagers[1]!.compareDocumentPosition(table) & Node.DOCUMENT_POSITION_PRECEDING) !== 0,
      topInView: top !== undefined && top.top >= 0 && top.bottom <= innerHeight,
    };
  });
}

test('a long list has its pager at both ends, both working and saying the same', async () => {
  for (const [size, viewport] of SIZES) {
    const page = await ui.signedIn('reservations', viewport);
    await page.locator('table.records tbody tr').first().waitFor();
    const first = await pagersOf(page);
    assert.equal(first.aroundTheList, true, `one pager above the list and one below it (${size})`);
    assert.deepEqual(first.said, ['1 / 2 ページ（全 55 件）', '1 / 2 ページ（全 55 件）']);
    assert.equal(await page.locator('table.records tbody tr').count(), 50);

    // The bottom one, reached by scrolling through the 50 rows (cards), goes on and shows the next page from its top.
    const bottom = page.locator('nav.pager').last();
    await bottom.scrollIntoViewIfNeeded();
    await bottom.locator('button', { hasText: '次へ' }).click();
    await page.locator('nav.pager').first().locator('.page', { hasText: '2 / 2 ページ' }).waitFor();
    const second = await pagersOf(page);
    assert.deepEqual(second.said, ['2 / 2 ページ（全 55 件）', '2 / 2 ページ（全 55 件）'], 'both say the page shown');
    assert.equal(second.aroundTheList, true);
    assert.equal(second.topInView, true, `the next page is shown from its top (${size})`);
    assert.match(page.url(), /page=2/);
    assert.equal(await page.locator('table.records tbody tr').count(), 5);
    await screenshot(page, SHOTS, `03-pager-page-2-${size}`);

    // The top one goes back, and the bottom one follows.
    await page.locator('nav.pager').first().locator('button', { hasText: '前へ' }).click();
    await page.locator('nav.pager').last().locator('.page', { hasText: '1 / 2 ページ' }).waitFor();
    assert.deepEqual((await pagersOf(page)).said, ['1 / 2 ページ（全 55 件）', '1 / 2 ページ（全 55 件）']);
    await page.context().close();
  }
});

test('編集 on a row far down 予約受付 opens its editor where staff look, its first field focused', async () => {
  const products = JSON.parse(readFileSync('data/products.json', 'utf8')) as { slug: string; name: string }[];
  const campaigns = products.slice(10, 40);
  for (const { slug } of campaigns)
    await ui.api.call('/api/admin/preorders/upsert', { productSlug: slug, capacity: 10, shipsIn: '2027年春' });
  const last = campaigns.at(-1)!;
  for (const [size, viewport] of SIZES) {
    const page = await ui.signedIn('preorders', viewport);
    const row = page.locator(`tr[data-product="${last.slug}"]`);
    await row.locator('button', { hasText: '編集' }).click();
    const form = page.locator('form.preorder-editor');
    await form.locator('h2', { hasText: `「${last.name}」の予約受付を編集` }).waitFor();
    const seen = await form.evaluate((editor) => {
      const box = editor.getBoundingClientRect();
      return { top: box.top, height: innerHeight, focused: document.activeElement?.id };
    });
    assert.ok(
      seen.top >= 0 && seen.top < seen.height / 2,
      `the editor starts in the upper half of the window, at ${seen.top} px (${size})`,
    );
    assert.equal(seen.focused, 'preorder-opens', 'its first field that can be changed is focused');
    await screenshot(page, SHOTS, `04-preorder-editor-${size}`);
    await page.context().close();
  }
});

/**
 * Every shown button and select of the page that does not show its whole label: a button whose text
 * overflows it, a select narrower than it would be to show its chosen option whole (measured on a
 * copy holding that option alone, sized by its content), or either reaching past the window's sides.
 */
async function cutControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const cut: string[] = [];
    const width = document.documentElement.clientWidth;
    for (const control of document.querySelectorAll<HTMLButtonElement | HTMLSelectElement>('button, select')) {
      if (!control.checkVisibility()) continue;
      const label = control instanceof HTMLSelectElement ? (control.selectedOptions[0]?.text ?? '') : control.textContent!.trim();
      const named = `${control.tagName.toLowerCase()}${control.id ? `#${control.id}` : ''}「${label}」`;
      const box = control.getBoundingClientRect();
      if (box.left < -0.5 || box.right > width + 0.5) {
        cut.push(`${named} reaches past the window (${Math.round(box.left)}–${Math.round(box.right)} px of ${width})`);
        continue;
      }
      if (control instanceof HTMLSelectElement) {
        const probe = control.cloneNode(false) as HTMLSelectElement;
        probe.removeAttribute('id');
        probe.append(new Option(label));
        Object.assign(probe.style, {
          position: 'absolute',
          visibility: 'hidden',
          width: 'auto',
          minWidth: '0',
          maxWidth: 'none',
          flex: 'none',
        });
        control.after(probe);
        const needed = probe.getBoundingClientRect().width;
        probe.remove();
        if (box.width + 1 < needed) cut.push(`${named} is ${Math.round(box.width)} px wide, its label needs ${Math.round(needed)} px`);
      } else if (control.scrollWidth > control.clientWidth + 1 || control.scrollHeight > control.clientHeight + 1) {
        cut.push(`${named} holds ${control.scrollWidth}×${control.scrollHeight} px in ${control.clientWidth}×${control.clientHeight} px`);
      }
    }
    return cut;
  });
}

test('no button or select of any screen is cut, on a laptop or a phone', async () => {
  const email = 'tencho@example.com';
  const password = 'layouts-owner-password';
  await ui.api.call('/api/admin/staff/create', { email, name: '店長 一郎', role: 'owner', password });
  const archived = (await ui.api.call('/api/admin-reservations-list', { q: '山田 太郎54' })).reservations[0]!;
  await ui.api.call('/api/admin/reservations/archive', { ids: [{ id: archived.id, productSlug: archived.productSlug }] });
  await ui.api.call('/api/admin/preorders/upsert', { productSlug: 'hayate-wavefolder', capacity: 5 });
  /** Each screen, and what shows it has loaded. */
  const screens: [string, string][] = [
    ['dashboard', '.cards .card'],
    ['reservations', 'table.records tbody tr'],
    ['reservations?view=archived', 'table.records tbody tr'],
    [`reservations?record=${longId}`, '.facts'],
    ['preorders', 'table.preorders tbody tr'],
    ['subscriptions', '#restock-product option:nth-child(2)'],
    ['email-templates', '.template-form'],
    ['messages', 'table.records tbody tr'],
    ['personal-data', '#personal-email'],
    ['shop', '.shop-settings'],
    ['staff', 'table.staff tbody tr'],
    ['password', '.password-change'],
  ];
  for (const [size, viewport] of SIZES) {
    const context = await ui.browser.newContext({ viewport });
    const page = await context.newPage();
    await page.goto(`${ui.app.url}/admin`);
    await page.fill('#sign-in-email', email);
    await page.fill('#sign-in-password', password);
    await page.press('#sign-in-password', 'Enter');
    await page.waitForSelector('header.top');
    const cut: string[] = [];
    for (const [view, loaded] of screens) {
      await page.goto(`${ui.app.url}/admin#/${view}`);
      await page.reload();
      await page.locator(loaded).first().waitFor({ state: 'attached' });
      if (view === 'personal-data') {
        await page.fill('#personal-email', LONG_EMAIL);
        await page.press('#personal-email', 'Enter');
        await page.locator('[data-testid=personal-summary]').waitFor();
      }
      await page.waitForFunction(() => !document.querySelector('[aria-busy=true]'));
      cut.push(...(await cutControls(page)).map((what) => `${view}: ${what}`));
    }
    await page.goto(`${ui.app.url}/admin#/subscriptions`);
    await page.reload();
    await page.locator('#restock-product option:nth-child(2)').waitFor({ state: 'attached' });
    await screenshot(page, SHOTS, `05-restock-picker-${size}`);
    assert.deepEqual(cut, [], `every control shows its whole label (${size})`);
    await context.close();
  }
});
