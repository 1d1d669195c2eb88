import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { unsubscribeToken } from '../src/messaging/links.ts';
import type { DispatcherTimings } from '../src/messaging/delivery/dispatcher.ts';
import { DIALECTS, startTestApp, type TestApp } from './helpers/app.ts';
import { startSmtpReceiver, type ReceivedMail, type SmtpReceiver } from './helpers/smtp-receiver.ts';

// Unsubscribe links cannot be forged: a token taken from a real restock email, altered
// at any character, cut short, extended, moved to another subscription or signed with another
// secret, unsubscribes nobody; and no token carries the customer's address in any encoding.

const SECRET = 'unsubscribe-secret-for-this-test-4f1c';
const FAST: Partial<DispatcherTimings> = { pollIntervalMs: 25, retryBaseMs: 40, retryCapMs: 150, leaseMs: 5_000, maxAttempts: 5 };
const SLUG = 'kumo-vco-2';
const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** The token of the List-Unsubscribe link of a restock email. */
function tokenOf(mail: ReceivedMail): string {
  const head = mail.raw.slice(0, mail.raw.search(/\r?\n\r?\n/)).replace(/\r?\n[ \t]+/g, ' ');
  const link = /^List-Unsubscribe: *<([^>]+)>/im.exec(head)?.[1];
  assert.ok(link, 'a List-Unsubscribe link');
  return decodeURIComponent(new URL(link).searchParams.get('token') ?? '');
}

for (const dialect of DIALECTS) {
  describe(`unsubscribe tokens (${dialect})`, () => {
    let app: TestApp;
    let smtp: SmtpReceiver;
    const emails = ['hanako.yamada@example.com', 'taro.suzuki@example.com'];
    const subscriptions: { id: string; email: string; token: string }[] = [];

    before(async () => {
      smtp = await startSmtpReceiver();
      app = await startTestApp({
        dialect,
        env: { RATE_LIMIT_PER_MINUTE: '0', SMTP_URL: smtp.url, UNSUBSCRIBE_SECRET: SECRET },
        dispatcher: FAST,
      });
      const ids = new Map<string, string>();
      for (const email of emails) {
        const response = await app.request('/api/notify', { method: 'POST', body: JSON.stringify({ email, productSlug: SLUG }) });
        ids.set(email, (await app.read('/api/notify', response)).success().subscriptionId);
      }
      await app.admin('/api/admin/notify/send', { productSlug: SLUG });
      for (const mail of await smtp.waitForMails(2)) {
        const email = mail.envelopeTo[0]!;
        subscriptions.push({ id: ids.get(email)!, email, token: tokenOf(mail) });
      }
      subscriptions.sort((a, b) => emails.indexOf(a.email) - emails.indexOf(b.email));
    });
    after(async () => {
      await app.close();
      await smtp.close();
    });

    const statusOf = async (id: string) =>
      (await app.services.database.db.selectFrom('subscriptions').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
    /** Every way of presenting a token: GET and HEAD on the link, and the one-click POST. */
    const refusedEverywhere = async (token: string, what: string) => {
      const target = `/api/notify/unsubscribe?token=${encodeURIComponent(token)}`;
      for (const method of ['GET', 'HEAD', 'POST']) {
        const response = await app.request(target, { method, ...(method === 'POST' ? { body: 'List-Unsubscribe=One-Click' } : {}) });
        assert.equal(response.status, 400, `${method} ${what}: ${JSON.stringify(token)}`);
        await response.arrayBuffer();
      }
    };

    test('a token is the subscription id and a MAC: nothing of the address, in any encoding', () => {
      assert.equal(subscriptions.length, 2);
      for (const { id, email, token } of subscriptions) {
        assert.match(token, new RegExp(`^${id}\\.[A-Za-z0-9_-]{43}$`));
        const [local = ''] = email.split('@');
        const encodings = [email, local, 'example.com'].flatMap((text) => [
          text,
          text.toUpperCase(),
          encodeURIComponent(text),
          Buffer.from(text).toString('base64').replace(/=+$/, ''),
          Buffer.from(text).toString('base64url'),
          Buffer.from(text).toString('hex'),
        ]);
        for (const encoded of encodings)
          assert.ok(!token.includes(encoded) && !token.toLowerCase().includes(encoded.toLowerCase()), `${encoded} in ${token}`);
      }
    });

    test('altering any one character, cutting or extending a token unsubscribes nobody', async () => {
      const { id, token } = subscriptions[0]!;
      for (let at = 0; at < token.length; at++) {
        const other = token[at] === 'A' ? 'B' : token[at] === '.' ? '-' : 'A';
        await refusedEverywhere(token.slice(0, at) + other + token.slice(at + 1), `character ${at} altered`);
        const swapped = token[at] === token[at]!.toUpperCase() ? token[at]!.toLowerCase() : token[at]!.toUpperCase();
        if (swapped !== token[at])
          await refusedEverywhere(token.slice(0, at) + swapped + token.slice(at + 1), `character ${at} in the other case`);
      }
      for (let length = 0; length < token.length; length++) await refusedEverywhere(token.slice(0, length), `cut to ${length}`);
      for (const extra of ['A', '=', '==', '.', ' ', '\u0000', `.${token.split('.')[1]}`])
        await refusedEverywhere(token + extra, `extended by ${JSON.stringify(extra)}`);
      for (const char of BASE64URL)
        await refusedEverywhere(`${token.slice(0, -1)}${char === token.at(-1) ? '' : char}`, 'last character replaced');
      assert.equal(await statusOf(id), 'notified');
    });

    test('a MAC moved to another subscription, or a token made with another secret, is refused', async () => {
      const [a, b] = subscriptions as [(typeof subscriptions)[0], (typeof subscriptions)[0]];
      const macOf = (token: string) => token.slice(token.lastIndexOf('.') + 1);
      await refusedEverywhere(`${a.id}.${macOf(b.token)}`, 'A with the MAC of B');
      await refusedEverywhere(`${b.id}.${macOf(a.token)}`, 'B with the MAC of A');
      for (const secret of ['', 'another-secret', SECRET.toUpperCase(), `${SECRET} `, app.services.config.adminToken]) {
        await refusedEverywhere(unsubscribeToken(secret, a.id), `signed with ${JSON.stringify(secret)}`);
      }
      // The secret derived from the admin token, which signs links when UNSUBSCRIBE_SECRET is unset.
      const derived = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '0' } });
      await derived.close();
      await refusedEverywhere(unsubscribeToken(derived.services.config.unsubscribeSecret, a.id), 'signed with the derived secret');
      // Two tokens at once, or the token somewhere else than `token`, count as none.
      for (const query of [`token=${a.token}&token=${a.token}`, `token=x&token=${a.token}`, `id=${a.id}`, `t=${a.token}`]) {
        assert.equal((await app.request(`/api/notify/unsubscribe?${query}`)).status, 400, query);
      }
      assert.deepEqual([await statusOf(a.id), await statusOf(b.id)], ['notified', 'notified']);
    });

    test('the genuine link unsubscribes its own subscription and no other', async () => {
      const [a, b] = subscriptions as [(typeof subscriptions)[0], (typeof subscriptions)[0]];
      const response = await app.request(`/api/notify/unsubscribe?token=${encodeURIComponent(a.token)}`);
      assert.equal(response.status, 200);
      assert.deepEqual([await statusOf(a.id), await statusOf(b.id)], ['unsubscribed', 'notified']);
      const oneClick = await app.request(`/api/notify/unsubscribe?token=${encodeURIComponent(b.token)}`, {
        method: 'POST',
        body: 'List-Unsubscribe=One-Click',
      });
      assert.equal(oneClick.status, 200);
      assert.equal(await statusOf(b.id), 'unsubscribed');
    });
  });
}
