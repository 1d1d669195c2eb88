import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { DIALECTS, type TestApp } from './helpers/app.ts';
import { startEmailTestApp } from './helpers/email-app.ts';
import type { HttpReceiver } from './helpers/http-receiver.ts';
import { EmailApiBody } from './helpers/sent-bodies.ts';
import { settle, waitUntil } from './helpers/wait.ts';

// Status emails through real HTTP on both dialects: a status move queues the customer's email in its
// transaction, once per move, unless told not to or the kind is disabled; read from the email API.

const email = (request: { body: unknown }) => EmailApiBody.parse(request.body);

for (const dialect of DIALECTS) {
  describe(`status emails (${dialect})`, () => {
    let app: TestApp;
    let api: HttpReceiver;
    let close: () => Promise<void>;
    before(async () => {
      ({ app, api, close } = await startEmailTestApp({ dialect }));
    });
    after(() => close());
    beforeEach(() => (api.requests.length = 0));

    async function reserve(name = '山田 "太郎" & 花子'): Promise<string> {
      api.requests.length = 0;
      const response = await app.request('/api/reservation', {
        method: 'POST',
        body: JSON.stringify({ name, email: 'taro@example.com', productSlug: 'kumo-vco-2' }),
      });
      const { reservationId } = (await app.read('/api/reservation', response)).success();
      await api.waitForAccepted(1, '/emails');
      api.requests.length = 0;
      return reservationId;
    }
    const move = (id: string, status: string, extra: Record<string, unknown> = {}) =>
      app.call('/api/admin-reservations-status', { id, productSlug: 'kumo-vco-2', status, ...extra });
    /** The status emails queued about a reservation, by kind, oldest first. */
    const queued = async (id: string) =>
      (
        await app.services.database.db
          .selectFrom('outbox')
          .select(['payload', 'created_at'])
          .where('record_id', '=', id)
          .where('channel', '=', 'email')
          .orderBy('created_at')
          .execute()
      )
        .map((row) => JSON.parse(row.payload).template as string)
        .filter((kind) => kind !== 'reservation-received');

    test('confirmed, fulfilled, cancelled: each move sends its email, rendered and escaped', async () => {
      const id = await reserve();
      (await move(id, 'confirmed')).success();
      const confirmed = email((await api.waitForAccepted(1, '/emails'))[0]!);
      assert.equal(confirmed.subject, 'ご予約が確定しました（Kumo VCO II）');
      assert.deepEqual(confirmed.to, ['taro@example.com']);
      assert.ok(confirmed.text.startsWith('山田 "太郎" & 花子 様\n\n'));
      const { number } = (await app.call('/api/admin/reservations/get', { id })).success().reservation;
      assert.ok(confirmed.text.includes(`ご予約番号: ${number}\n商品: Kumo VCO II\n価格: ¥42,000\n`));
      assert.ok(confirmed.html.includes('<p>山田 &quot;太郎&quot; &amp; 花子 様</p>'));
      assert.match(confirmed.html, new RegExp(`<a href="https://shop\\.example\\.jp/reservations/manage\\?token=${id}\\.[\\w-]+">`));
      (await move(id, 'fulfilled')).success();
      const fulfilled = email((await api.waitForAccepted(2, '/emails'))[1]!);
      assert.equal(fulfilled.subject, '商品のお渡しが完了しました（Kumo VCO II）');
      const other = await reserve('佐藤');
      await move(other, 'cancelled');
      const cancelled = email((await api.waitForAccepted(1, '/emails'))[0]!);
      assert.equal(cancelled.subject, 'ご予約をキャンセルしました（Kumo VCO II）');
      assert.deepEqual(await queued(id), ['reservation-confirmed', 'reservation-fulfilled']);
    });

    test('notifyCustomer: false sends nothing; not a boolean is a 400 before anything moves', async () => {
      const id = await reserve();
      for (const bad of ['false', 0, null, {}]) {
        assert.equal(
          (await move(id, 'confirmed', { notifyCustomer: bad })).failure(400).error,
          'notifyCustomer must be a boolean',
          JSON.stringify(bad),
        );
      }
      (await move(id, 'confirmed', { notifyCustomer: false })).success();
      (await move(id, 'cancelled', { notifyCustomer: true })).success();
      assert.deepEqual(await queued(id), ['reservation-cancelled']);
    });

    test('a notes-only edit, a move to pending and a repeated request send nothing more', async () => {
      const id = await reserve();
      await move(id, 'confirmed');
      await move(id, 'confirmed');
      await move(id, 'confirmed', { notes: 'メモ' });
      await move(id, 'pending');
      assert.deepEqual(await queued(id), ['reservation-confirmed']);
    });

    test('concurrent identical requests are one move and one email; back and forth is two', async () => {
      const id = await reserve();
      const answers = await Promise.all(Array.from({ length: 6 }, () => move(id, 'confirmed')));
      for (const answer of answers) answer.success();
      assert.deepEqual(await queued(id), ['reservation-confirmed']);
      await move(id, 'pending');
      await move(id, 'confirmed');
      assert.deepEqual(await queued(id), ['reservation-confirmed', 'reservation-confirmed']);
      // The first confirmation is sent, or, if the dispatcher reached it while the reservation was
      // back at pending, settled as superseded (it was not true then); the second is sent.
      const settled = async () => {
        const rows = await app.services.database.db
          .selectFrom('outbox')
          .select(['status', 'payload'])
          .where('record_id', '=', id)
          .where('channel', '=', 'email')
          .orderBy('created_at')
          .orderBy('id')
          .execute()
          .then((all) => all.filter((row) => JSON.parse(row.payload).template === 'reservation-confirmed'));
        return rows.every((row) => row.status === 'sent' || row.status === 'superseded') ? rows.map((row) => row.status) : undefined;
      };
      const statuses = await waitUntil(settled, { what: 'both confirmations settled' });
      assert.equal(statuses.at(-1), 'sent');
      await settle(200);
      assert.equal(api.accepted('/emails').length, statuses.filter((s) => s === 'sent').length, 'each sent email arrives once');
    });

    test('a disabled kind sends nothing; enabled again, it sends', async () => {
      (await app.call('/api/admin/email-templates/update', { kind: 'reservation-cancelled', enabled: false })).success();
      const id = await reserve();
      await move(id, 'cancelled');
      await move(id, 'pending');
      (await app.call('/api/admin/email-templates/update', { kind: 'reservation-cancelled', enabled: true })).success();
      await move(id, 'cancelled');
      assert.deepEqual(await queued(id), ['reservation-cancelled']);
      await waitUntil(() => api.accepted('/emails').length === 1 || undefined);
    });
  });
}
