import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { withoutAddresses } from '../src/messaging/delivery/dispatcher.ts';
import { startServiceProcess } from './helpers/service-process.ts';
import { waitUntil } from './helpers/wait.ts';

// In production without an email provider the service logs that it skipped each email, and nothing
// personal: no address, no name, no text of the email (the log is beyond the reach of a
// personal-data erasure). A real production process is run through every flow that queues an email or touches an
// address, at the most verbose level, and everything it printed is searched.

const NAME = '個人情報 太郎';
const EMAIL = 'Kojin.Taro+zq7@Example.com';
const SIGNUP_EMAIL = 'hanako.zq8@example.com';

test('a production process with no email provider logs no address, name or email text, at any level', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tenpo-pii-log-'));
  const service = await startServiceProcess({
    env: {
      APP_ENV: 'production',
      LOG_LEVEL: 'trace',
      RATE_LIMIT_PER_MINUTE: '0',
      DATABASE_URL: `sqlite:${join(dir, 'tenpo.db')}`,
      PREORDER_API_TOKEN: 'a-production-admin-token-of-32-characters',
      UNSUBSCRIBE_SECRET: 'a-production-unsubscribe-secret-of-32-chars',
      PUBLIC_BASE_URL: 'https://tenpo.shop.example',
      STOREFRONT_URL: 'https://shop.example',
    },
  });
  try {
    const reserved = await service.post('/api/reservation', { name: NAME, email: EMAIL, productSlug: 'kumo-vco-2' });
    assert.equal(reserved.status, 200);
    const { reservationId } = (await reserved.json()) as { reservationId: string };
    assert.equal((await service.post('/api/notify', { email: SIGNUP_EMAIL, productSlug: 'kumo-vco-2' })).status, 200);
    assert.equal((await service.admin('/api/admin/notify/send', { productSlug: 'kumo-vco-2' })).status, 200);
    assert.equal(
      (
        await service.admin('/api/admin-reservations-status', {
          id: reservationId,
          productSlug: 'kumo-vco-2',
          status: 'confirmed',
          notes: `${NAME}様 ${EMAIL}`,
        })
      ).status,
      200,
    );
    // Refused and failed requests are logged: with the address in the query string and the body.
    assert.equal(
      (
        await service.post(`/api/reservation?email=${encodeURIComponent(EMAIL)}`, {
          name: NAME,
          email: `${EMAIL}@`,
          productSlug: 'kumo-vco-2',
        })
      ).status,
      400,
    );
    assert.equal((await service.admin('/api/admin/personal-data/export', { email: `${EMAIL} x` })).status, 400);
    assert.equal((await service.admin('/api/admin/personal-data/export', { email: EMAIL })).status, 200);
    assert.equal(
      (await service.request(`/api/admin-notify-list?email=${encodeURIComponent(SIGNUP_EMAIL)}`, { method: 'POST', body: '{' })).status,
      401,
    );

    // The reservation's confirmation and status emails, and the restock email: three skipped.
    await waitUntil(() => service.logs().filter((line) => line.msg === 'email skipped: no provider configured').length === 3, {
      what: 'three emails skipped',
    });
    const skipped = service.logs().filter((line) => line.msg === 'email skipped: no provider configured');
    assert.deepEqual(
      Object.keys(skipped[0]!).filter((key) => !['level', 'time', 'service', 'msg'].includes(key)),
      ['idempotencyKey'],
      'the message’s key, nothing else',
    );
    for (const line of skipped) assert.match(String(line.idempotencyKey), /^(reservation|subscription)\/(res|ntf)_/);
    assert.ok(
      service.logs().some((line) => line.status === 400),
      'the refused requests were logged',
    );
  } finally {
    await service.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const printed = `${service.stdout}\n${service.stderr}`;
  const lowered = printed.toLowerCase();
  for (const address of [EMAIL, SIGNUP_EMAIL]) {
    for (const form of [address, encodeURIComponent(address), address.split('@')[0]!])
      assert.ok(!lowered.includes(form.toLowerCase()), `the log holds ${form}`);
  }
  for (const words of [NAME, '太郎', 'ご予約', 'kojin'])
    assert.ok(!printed.toLowerCase().includes(words.toLowerCase()), `the log holds ${words}`);
});

test('a provider’s error, as logged, keeps its words but not the address it quotes', () => {
  assert.equal(
    withoutAddresses('550 5.1.1 <Taro@Example.com>: Recipient address rejected'),
    '550 5.1.1 <<address>>: Recipient address rejected',
  );
  assert.equal(withoutAddresses('to=taro+shop@例え.jp refused; retry'), 'to=<address> refused; retry');
  assert.equal(withoutAddresses('HTTP 503 Service Unavailable'), 'HTTP 503 Service Unavailable');
});

test('an address is found however the provider encoded its @', () => {
  for (const encoded of [
    'taro%40example.com',
    'taro%2Bshop%40Example.com',
    String.raw`taro\u0040example.com`,
    String.raw`taro\U0040example.com`,
    String.raw`taro\x40example.com`,
    'taro&#64;example.com',
    'taro&#x40;example.com',
    'taro&commat;example.com',
    'taro＠example.com',
  ]) {
    const logged = withoutAddresses(`422 {"message":"invalid \`to\`: ${encoded} is not allowed"}`);
    assert.ok(!/taro|example/i.test(logged), `${encoded} → ${logged}`);
    assert.match(logged, /<address> is not allowed/);
  }
});
