import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Product } from '../../catalog/product.ts';
import { reservationChatMessage } from './reservation-notices.ts';

const product = { slug: 'kumo-vco-2', name: 'Kumo <VCO> & "II"', price: 42000 } as Product;
const reservation = { id: 'res_1', name: '<b>太郎</b>\r\nX-Evil: 1', email: 'taro@example.com', createdAt: '2026-01-02T15:04:05.000Z' };

test('the chat notice names product, customer, address, reservation and time', () => {
  const chat = reservationChatMessage(reservation, product);
  assert.deepEqual(
    chat.fields.map((f) => f.label),
    ['商品', 'お名前', 'メールアドレス', '予約番号', '受付日時'],
  );
  assert.equal(chat.timestamp, reservation.createdAt);
  assert.equal(chat.fields[3]!.value, 'res_1');
});
