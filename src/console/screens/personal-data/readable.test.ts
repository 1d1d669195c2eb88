import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Output } from '../../../client/tenpo-client.ts';
import type { ProductOption } from '../../api/products.ts';
import { exportFileName, readableExport } from './readable.ts';

// The personal-data file a customer reads: Japanese, Japan times, names instead of codes, and a
// file name every system accepts, dated by the day in Japan.

type PersonalData = Output<'/api/admin/personal-data/export'>;

const products = new Map<string, ProductOption>([['kumo-vco-2', { slug: 'kumo-vco-2', name: 'Kumo VCO II', price: 42000 }]]);
const RESERVATION = 'res_01a2088c-730a-7775-8297-2d34d69f96c0';
const SUBSCRIPTION = 'ntf_1795663851773-jsb6gh0c75';

const data: PersonalData = {
  success: true,
  email: 'hanako@example.com',
  reservations: [
    {
      id: RESERVATION,
      number: 1042,
      name: '佐藤 花子',
      email: 'Hanako@Example.com',
      productSlug: 'kumo-vco-2',
      status: 'confirmed',
      notes: '店頭で受け取り\n平日の夕方',
      createdAt: '2026-11-25T15:30:00.000Z',
      updatedAt: '2026-11-26T01:00:00.000Z',
      preorderId: null,
      respondedAt: '2026-11-26T00:00:00.000Z',
      archivedAt: '2026-11-26T01:00:00.000Z',
    },
  ],
  subscriptions: [
    {
      id: SUBSCRIPTION,
      email: 'hanako@example.com',
      productSlug: 'gone-from-the-catalog',
      status: 'unsubscribed',
      createdAt: '2026-11-20T03:00:00.000Z',
      updatedAt: '2026-11-21T03:00:00.000Z',
      notifiedAt: null,
    } as PersonalData['subscriptions'][number],
  ],
  messages: [
    {
      id: 'msg-2',
      recordId: RESERVATION,
      channel: 'chat',
      kind: 'reservation',
      to: 'reservation',
      status: 'sent',
      attempts: 1,
      lastError: null,
      createdAt: '2026-11-25T15:30:00.000Z',
      sentAt: '2026-11-25T15:30:01.000Z',
    },
    {
      id: 'msg-1',
      recordId: RESERVATION,
      channel: 'email',
      kind: 'reservation-received',
      to: 'Hanako@Example.com',
      status: 'dead',
      attempts: 5,
      lastError: 'HTTP 422',
      createdAt: '2026-11-25T15:30:00.000Z',
      sentAt: null,
    },
  ],
  suppressions: [
    {
      address: 'hanako@example.com',
      erased: false,
      reason: 'hard_bounce',
      since: '2026-11-26T01:00:00.000Z',
      retriedAt: null,
      liftedAt: '2026-11-27T00:00:00.000Z',
      liftReason: 'お客様から連絡',
    },
  ],
  history: [
    {
      recordId: RESERVATION,
      entries: [
        {
          type: 'status',
          at: '2026-11-26T00:00:00.000Z',
          actor: 'staff',
          staffId: 'stf_1',
          staffName: '店長 一郎',
          from: 'pending',
          to: 'confirmed',
          customerEmailed: true,
        },
        {
          type: 'memo',
          at: '2026-11-26T00:00:00.000Z',
          actor: 'staff',
          staffId: null,
          staffName: null,
          before: '',
          after: '店頭で受け取り\n平日の夕方',
        },
        { type: 'archived', at: '2026-11-26T01:00:00.000Z', actor: 'staff', staffId: null, staffName: null },
      ],
    },
    {
      recordId: SUBSCRIPTION,
      entries: [
        {
          type: 'status',
          at: '2026-11-21T03:00:00.000Z',
          actor: 'customer',
          staffId: null,
          staffName: null,
          from: 'pending',
          to: 'unsubscribed',
          customerEmailed: null,
        },
      ],
    },
  ],
};

test('the file says everything in Japanese: headings, Japan times, product names, statuses, message kinds, the reservation number and its history', () => {
  const text = readableExport(data, { products, shopName: 'シンセ堂', madeAt: new Date('2026-11-26T03:34:00.000Z') });
  assert.ok(text.startsWith('\uFEFFシンセ堂が保存しているお客様の情報\r\n'), 'a byte-order mark, then the heading');
  assert.ok(!/(^|[^\r])\n/.test(text), 'every line ends with CRLF');
  const lines = text.split('\r\n');
  for (const line of [
    'メールアドレス: hanako@example.com',
    '作成日時: 2026年11月26日 12:34',
    '■ ご予約（1 件）',
    'ご予約番号 1042',
    '  商品: Kumo VCO II',
    '  お名前: 佐藤 花子',
    '  メールアドレス: Hanako@Example.com',
    '  状態: 確定',
    // 15:30 UTC is half past midnight the next day in Japan.
    '  受付日時: 2026年11月26日 00:30',
    '  アーカイブ: 2026年11月26日 10:00（一覧から外して保管しています）',
    '  メモ（当店の記録）: 店頭で受け取り',
    '    平日の夕方',
    '  これまでの経過:',
    '    2026年11月26日 00:30　ご予約を受け付けました',
    '    2026年11月26日 09:00　状態を「受付中」から「確定」に変更（シンセ堂、メールでお知らせ）',
    '    2026年11月26日 09:00　メモを「店頭で受け取り / 平日の夕方」に変更（シンセ堂）',
    '    2026年11月26日 10:00　アーカイブしました（シンセ堂）',
    '■ 再入荷通知のご登録（1 件）',
    `登録番号 ${SUBSCRIPTION}`,
    '  状態: 配信停止',
    '    2026年11月21日 12:00　状態を「通知待ち」から「配信停止」に変更（お客様ご本人）',
    '■ お送りしたメールと、シンセ堂のスタッフ用チャットへの通知（2 件）',
    '2026年11月26日 00:30　シンセ堂のスタッフ用チャットへの通知「予約の通知」: 送信済み（2026年11月26日 00:30）（ご予約番号 1042 について）',
    '2026年11月26日 00:30　メール「予約受付」（宛先 Hanako@Example.com）: 送信失敗（ご予約番号 1042 について）',
    '■ メールの配信停止（1 件）',
    '2026年11月26日 10:00から　配信不能（宛先のメールボックスがありません）（2026年11月27日 09:00に解除）',
  ])
    assert.ok(lines.includes(line), `the file has the line ${JSON.stringify(line)}:\n${text}`);
  assert.ok(lines.includes('  商品: gone-from-the-catalog'), 'a product the catalog no longer has keeps its slug, the only name there is');
  for (const code of ['kumo-vco-2', 'reservation-received', 'confirmed', 'pending', '2026-11-2', 'T15:30', 'stf_1', '店長 一郎'])
    assert.ok(!text.includes(code), `no ${code} in the customer's file (codes, ISO times, staff accounts)`);
});

test('a shop without a name is 当店; an address without records says so in each part', () => {
  const empty: PersonalData = { ...data, reservations: [], subscriptions: [], messages: [], suppressions: [], history: [] };
  const lines = readableExport(empty, { products, shopName: ' ', madeAt: new Date() }).split('\r\n');
  assert.equal(lines[0], '\uFEFF当店が保存しているお客様の情報');
  assert.equal(lines.filter((line) => line === '  ありません。').length, 4);
});

test('the file name: the day in Japan, and an address made safe for every system', () => {
  // 20:00 UTC on the 25th is 05:00 on the 26th in Japan.
  const at = new Date('2026-11-25T20:00:00.000Z');
  assert.equal(exportFileName('customer@example.com', at, 'txt'), '個人情報-customer@example.com-2026-11-26.txt');
  assert.equal(exportFileName('customer@example.com', at, 'json'), '個人情報-customer@example.com-2026-11-26.json');
  assert.equal(
    exportFileName('a/b\\c:d*e?f"g<h>i|j\u0007k@example.com', at, 'txt'),
    '個人情報-a_b_c_d_e_f_g_h_i_j_k@example.com-2026-11-26.txt',
  );
  const long = exportFileName(`${'a'.repeat(64)}@${'b'.repeat(180)}.example.com`, at, 'json');
  assert.ok(new TextEncoder().encode(long).length <= 255, `${long} fits in 255 bytes`);
});
