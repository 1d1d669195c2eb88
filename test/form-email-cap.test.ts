import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS } from './helpers/app.ts';
import { startEmailTestApp, type EmailTestApp } from './helpers/email-app.ts';
import { settle, waitUntil } from './helpers/wait.ts';

// A stranger can make the shop email any address by reserving in its name. EMAILS_PER_ADDRESS_PER_DAY
// bounds that: past it, the reservation is still stored, and its confirmation email is kept as
// skipped, with the reason, instead of sent. Seen at a real email API receiver, on both databases.

const REASON = 'not sent: EMAILS_PER_ADDRESS_PER_DAY reached for this address in the last 24 hours';

for (const dialect of DIALECTS) {
  describe(`emails a public form causes, per address and day (${dialect})`, () => {
    let env: EmailTestApp;
    before(async () => {
      env = await startEmailTestApp({ dialect, env: { EMAILS_PER_ADDRESS_PER_DAY: '3' } });
    });
    after(() => env?.close());

    const reserve = async (email: string) => {
      const response = await env.app.request('/api/reservation', {
        method: 'POST',
        body: JSON.stringify({ name: '山田 太郎', email, productSlug: 'kumo-vco-2' }),
      });
      assert.equal(response.status, 200);
      return ((await response.json()) as { reservationId: string }).reservationId;
    };
    const mailsTo = (address: string) =>
      env.api.accepted('/emails').filter((request) => (request.body as { to: string[] }).to[0]!.toLowerCase() === address);

    test('past the cap the reservation is stored and its email skipped with the reason; another address is unaffected', async () => {
      const ids: string[] = [];
      for (const email of ['victim@example.com', 'Victim@Example.com', 'victim@example.com', 'VICTIM@example.com', 'victim@example.com'])
        ids.push(await reserve(email));
      const other = await reserve('someone-else@example.com');
      await waitUntil(() => mailsTo('victim@example.com').length === 3 && mailsTo('someone-else@example.com').length === 1, {
        what: 'three emails to the victim and one to the other address',
      });

      const { reservations } = (await env.app.call('/api/admin-reservations-list', {})).success();
      assert.deepEqual(new Set(reservations.map((r) => r.id)), new Set([...ids, other]), 'every reservation is stored');
      // The receiver counts an email as it arrives, a moment before the dispatcher records it as sent.
      const statuses = await waitUntil(
        async () => {
          const now: [string, string | null][] = [];
          for (const id of ids) {
            const [email] = (await env.app.call('/api/admin/messages/list', { recordId: id, channel: 'email' })).success().messages;
            now.push([email!.status, email!.lastError]);
          }
          return now.every(([status]) => status !== 'pending') ? now : undefined;
        },
        { what: "every one of the victim's emails settled" },
      );
      assert.deepEqual(statuses, [
        ['sent', null],
        ['sent', null],
        ['sent', null],
        ['skipped', REASON],
        ['skipped', REASON],
      ]);
      await settle(200);
      assert.equal(mailsTo('victim@example.com').length, 3, 'the skipped ones are never sent');
    });

    test('a +tag, gmail dots or googlemail make no new mailbox: the cap counts the canonical address', async () => {
      const spellings = ['flood+1@gmail.com', 'f.l.o.o.d@googlemail.com', 'flood+x@gmail.com', 'Flood@Gmail.com'];
      const ids: string[] = [];
      for (const email of spellings) ids.push(await reserve(email));
      const delivered = () =>
        env.api.accepted('/emails').filter((request) => spellings.includes((request.body as { to: string[] }).to[0]!));
      await waitUntil(() => delivered().length === 3, { what: 'three emails to the one mailbox' });
      const [last] = (await env.app.call('/api/admin/messages/list', { recordId: ids[3]!, channel: 'email' })).success().messages;
      assert.deepEqual([last!.status, last!.lastError], ['skipped', REASON]);
      await settle(200);
      assert.equal(delivered().length, 3);
    });
  });
}
