import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { screenshot } from './helpers/browser.ts';
import { consoleSuite, SIZES } from './helpers/console.ts';

// The dashboard read beside the lists it stands for, in headless Chromium on SQLite: a campaign
// whose reservations were partly cancelled and archived (so counting every record, or only the
// active ones, would disagree with the campaign), read on the dashboard and on 予約受付 at laptop
// (1366x768) and phone (390x844) sizes; the figures must be the same.

const SHOTS = 'admin-console-dashboard';

const ui = consoleSuite({}, async () => {
  await ui.api.call('/api/admin/preorders/upsert', { productSlug: 'kumo-vco-2', capacity: 30 });
  const ids: string[] = [];
  for (let i = 0; i < 9; i++) {
    const { reservationId } = await ui.api.call('/api/reservation', {
      name: '予約 太郎',
      email: `seat${i}@example.com`,
      productSlug: 'kumo-vco-2',
    });
    ids.push(reservationId);
  }
  const productSlug = 'kumo-vco-2';
  // Three cancelled (two of them then archived), two archived while still held: the campaign holds 6.
  for (const id of ids.slice(0, 3))
    await ui.api.call('/api/admin-reservations-status', { id, productSlug, status: 'cancelled', notifyCustomer: false });
  await ui.api.call('/api/admin/reservations/archive', { ids: ids.slice(1, 5).map((id) => ({ id, productSlug })) });
});

const numbers = (text: string | null) => [...(text ?? '').matchAll(/[\d,]+/g)].map((m) => Number(m[0].replaceAll(',', '')));

/** 予約受付's row for the product: reserved, capacity and remaining from 「6 / 30 台（残り 24）」. */
async function preorderScreenSeats(page: Page): Promise<number[]> {
  await page.evaluate(() => (location.hash = '#/preorders'));
  const seats = page.locator('tr[data-product="kumo-vco-2"] .seats span');
  await seats.waitFor();
  return numbers(await seats.textContent());
}

for (const [size, viewport] of SIZES) {
  test(`the dashboard's seats and per-product count agree with 予約受付 (${size})`, async () => {
    const page = await ui.signedIn('dashboard', viewport);
    const row = page.locator('.seats-summary tr[data-product="kumo-vco-2"]');
    await row.waitFor();
    const cell = async (label: string) => (await row.locator(`td[data-label="${label}"]`).textContent())!;
    assert.equal(await cell('商品'), 'Kumo VCO II');
    assert.equal(await cell('状態'), '受付中');
    const dashboardSeats = [...numbers(await cell('予約数')), ...numbers(await cell('台数')), ...numbers(await cell('残り'))];
    assert.deepEqual(dashboardSeats, [6, 30, 24]);

    // The per-product chart counts the product's reservations as the campaign does.
    const chart = page.locator('.chart', { hasText: '商品別の予約と通知待ち' });
    assert.equal(
      await chart.locator('rect.bar title').first().textContent(),
      'Kumo VCO II（予約（キャンセルを除く・アーカイブ済みを含む））: 6',
    );
    assert.match((await chart.locator('.legend').textContent())!, /予約（キャンセルを除く・アーカイブ済みを含む）/);

    // The card says what it counts: 9 taken, 3 cancelled, 4 archived, so the list shows 5.
    const card = page.locator('.card', { hasText: '予約（キャンセルを除く）' });
    assert.equal(await card.locator('.value').textContent(), '6');
    assert.equal(
      await card.locator('.sub').textContent(),
      'アーカイブ済みを含み、キャンセル 3 件を除きます。予約一覧には 5 件（キャンセルを含む）、アーカイブ済みは 4 件です。',
    );
    assert.equal(
      page.viewportSize()!.width,
      await page.evaluate(() => document.documentElement.scrollWidth),
      'nothing wider than the screen',
    );
    await page.locator('.seats-summary').scrollIntoViewIfNeeded();
    await screenshot(page, SHOTS, `01-dashboard-seats-${size}`);

    assert.deepEqual(await preorderScreenSeats(page), dashboardSeats, '予約受付 shows the same seats');
    await screenshot(page, SHOTS, `02-preorders-${size}`);

    // And the 予約 list holds the 5 the card names.
    await page.evaluate(() => (location.hash = '#/reservations'));
    await page.locator('.pager .page').first().waitFor();
    assert.match((await page.locator('.pager .page').first().textContent())!, /（全 5 件）/);
    await page.context().close();
  });
}

test('the page had no errors', () => {
  assert.deepEqual(ui.record.errors, []);
});
