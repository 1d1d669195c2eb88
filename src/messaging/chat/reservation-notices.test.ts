import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Product } from '../../catalog/product.ts';
import { reservationChatMessage } from './reservation-notices.ts';

const product = { slug: 'kumo-vco-2', name: 'Kumo <VCO> & "II"', price: 42000 } as Product;
const reservation = {
  id: 'res_1',
  number: 1001,
  name: '<b>太郎</b>\r\nX-Evil: 1',
  email: 'taro@example.com',
  createdAt: '2026-01-02T15:04:05.000Z',
};

test('the chat notice names product, customer, address, reservation and time, and links to the reservation’s page', () => {
  const url = 'https://shop.example.jp/admin#/reservations?record=res_1';
  const chat = reservationChatMessage(reservation, product, url);
  assert.deepEqual(
    chat.fields.map((f) => f.label),
    ['商品', 'お名前', 'メールアドレス', '予約番号', '受付日時'],
  );
  assert.equal(chat.timestamp, reservation.createdAt);
  assert.equal(chat.fields[3]!.value, '1001', 'the number the customer quotes');
  assert.equal(chat.fields[4]!.value, '2026年1月3日 00:04');
  assert.deepEqual(chat.link, { label: '管理画面で予約を開く', url });
});
