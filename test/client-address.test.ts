import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { startTestApp, type TestApp } from './helpers/app.ts';

// Who the client is, as the rate limit sees it, through real HTTP from 127.0.0.1 with forged
// X-Forwarded-For headers: with a budget of one request a minute, two requests share a client
// exactly when the second is refused. (With a hop count the header is believed only from a private
// or loopback peer, as 127.0.0.1 is here; a public peer cannot be made on loopback, so
// src/http/client-address.test.ts shows that one.)

const apps: TestApp[] = [];
after(() => Promise.all(apps.map((app) => app.close())));

async function withProxySetting(trustProxy: string | undefined): Promise<(forwardedFor?: string) => Promise<number>> {
  const app = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '1', ...(trustProxy === undefined ? {} : { TRUST_PROXY: trustProxy }) } });
  apps.push(app);
  return async (forwardedFor) => {
    const response = await app.request('/api/notify', {
      method: 'POST',
      headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
      body: '{}',
    });
    await response.body?.cancel();
    assert.ok(response.status === 400 || response.status === 429, String(response.status));
    return response.status;
  };
}

describe('TRUST_PROXY', () => {
  test('unset: the connection is the client, whatever the header says', async () => {
    const send = await withProxySetting(undefined);
    assert.equal(await send('203.0.113.1'), 400);
    assert.equal(await send('203.0.113.2'), 429);
    assert.equal(await send(), 429);
  });

  test('true (one proxy): the last entry; entries forged before it change nothing', async () => {
    const send = await withProxySetting('true');
    assert.equal(await send('203.0.113.1'), 400);
    assert.equal(await send('6.6.6.6, 203.0.113.1'), 429);
    assert.equal(await send('203.0.113.1, 7.7.7.7'), 400, 'a different last entry is a different client');
    assert.equal(await send('203.0.113.3'), 400);
  });

  test('2 (two proxies): the second entry from the right', async () => {
    const send = await withProxySetting('2');
    assert.equal(await send('203.0.113.5, 10.0.0.7'), 400);
    assert.equal(await send('6.6.6.6, 203.0.113.5, 10.0.0.8'), 429, 'a forged entry and another inner proxy: the same client');
    assert.equal(await send('203.0.113.6, 10.0.0.7'), 400);
  });

  test('entries that are not IP addresses are ignored: 8,000 characters of garbage neither pose as a client nor become one', async () => {
    const send = await withProxySetting('true');
    assert.equal(await send(`${'x'.repeat(8000)}`), 400, 'nothing usable: the proxy (here the connection) is the client');
    assert.equal(await send(), 429, 'the same client as a request without the header');
    assert.equal(await send('203.0.113.1, not-an-address'), 400, 'the last IP entry: another client');
  });

  test('a list of proxy addresses and ranges: the first untrusted address from the right', async () => {
    const send = await withProxySetting('127.0.0.1, 10.0.0.0/8');
    assert.equal(await send('6.6.6.6, 203.0.113.7, 10.1.2.3'), 400);
    assert.equal(await send('7.7.7.7, 203.0.113.7, 10.9.9.9, 10.1.1.1'), 429, 'through more proxies of the range: the same client');
    assert.equal(await send('203.0.113.7'), 429);
    assert.equal(await send('10.0.0.5, 10.0.0.6'), 400, 'only proxies: the leftmost');
    assert.equal(await send(), 400, 'no header: the proxy itself');
    assert.equal(await send(), 429);
  });

  test('a list without the connection address: the header is not believed at all', async () => {
    const send = await withProxySetting('192.0.2.1');
    assert.equal(await send('203.0.113.8'), 400);
    assert.equal(await send('203.0.113.9'), 429);
    assert.equal(await send('192.0.2.1'), 429);
  });
});
