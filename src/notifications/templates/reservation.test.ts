import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Product } from '../../catalog/product.ts';
import { renderReservationConfirmation, reservationChatMessage, reservationConfirmationFacts, type NewReservation } from './reservation.ts';

const reservationConfirmationEmail = (r: NewReservation, p: Product) => renderReservationConfirmation(reservationConfirmationFacts(r, p));

const product = { slug: 'kumo-vco-2', name: 'Kumo <VCO> & "II"', price: 42000 } as Product;
const reservation = { id: 'res_1', name: '<b>太郎</b>\r\nX-Evil: 1', email: 'taro@example.com', createdAt: '2026-01-02T15:04:05.000Z' };

test('the HTML escapes every customer and catalog value; the text keeps each on one line', () => {
  const email = reservationConfirmationEmail(reservation, product);
  assert.ok(!email.html.includes('<b>') && !email.html.includes('<VCO>'));
  assert.ok(email.html.includes('&lt;b&gt;太郎&lt;/b&gt; X-Evil: 1 様'));
  assert.ok(email.html.includes('Kumo &lt;VCO&gt; &amp; &quot;II&quot;'));
  assert.ok(email.text.startsWith('<b>太郎</b> X-Evil: 1 様\n'));
  assert.doesNotMatch(email.subject, /[\r\n]/);
});

test('price in yen and the time in Japan', () => {
  const email = reservationConfirmationEmail(reservation, product);
  assert.ok(email.text.includes('価格: ¥42,000'));
  assert.ok(email.text.includes('受付日時: 2026年1月3日 00:04'), email.text);
  assert.ok(reservationConfirmationEmail(reservation, { ...product, price: null }).text.includes('価格: 未定'));
});

test('the chat notice names product, customer, address, reservation and time', () => {
  const chat = reservationChatMessage(reservation, product);
  assert.deepEqual(chat.fields.map((f) => f.label), ['商品', 'お名前', 'メールアドレス', '予約番号', '受付日時']);
  assert.equal(chat.timestamp, reservation.createdAt);
  assert.equal(chat.fields[3]!.value, 'res_1');
});
