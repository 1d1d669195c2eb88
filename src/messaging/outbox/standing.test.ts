import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { DIALECTS, freshTarget } from '../../../test/helpers/dialects.ts';
import { openDatabase, type Database } from '../../db/database.ts';
import { createLogger } from '../../log.ts';
import type { ReservationTemplateKind } from '../kinds.ts';
import type { OutboxEntry } from './message.ts';
import { messagesAsTheyStand, standingsOf } from './standing.ts';
import { claimDueMessages, enqueueMessages } from './store.ts';

/** No address here is suppressed; the check reads the suppressions all the same. */
const SUPPRESSION = { secret: 'standing-test-secret', now: new Date() };

// Where a message stands right before it goes, on both dialects: still this dispatcher's, and still
// true of its record. Records and messages are written as the service writes them, then judged.

const at = (ms: number) => new Date(Date.UTC(2030, 0, 1) + ms).toISOString();

const reservationFacts = {
  reservationId: 'x',
  name: '山田',
  createdAt: at(0),
  productName: 'VCO',
  productUrl: 'https://shop.example/p',
  price: null,
  manageUrl: 'https://shop.example/m',
};

function reservationEmail(key: string, recordId: string, template: ReservationTemplateKind, queuedAt = at(0)): OutboxEntry {
  return {
    idempotencyKey: key,
    recordId,
    queuedAt,
    message: { channel: 'email', to: 'a@example.com', email: { template, version: 1, facts: reservationFacts } },
  };
}

function restockEmail(key: string, recordId: string, queuedAt = at(0)): OutboxEntry {
  const facts = { productName: 'VCO', price: null, productUrl: 'https://shop.example/p', unsubscribeUrl: 'https://shop.example/u' };
  return {
    idempotencyKey: key,
    recordId,
    queuedAt,
    message: { channel: 'email', to: 'a@example.com', email: { template: 'restock-available', version: 1, facts } },
  };
}

function chat(key: string, recordId: string): OutboxEntry {
  return {
    idempotencyKey: key,
    recordId,
    queuedAt: at(0),
    message: { channel: 'chat', webhook: 'reservation', content: { title: key, fields: [], timestamp: at(0) } },
  };
}

for (const dialect of DIALECTS) {
  describe(`a message's standing right before it goes (${dialect})`, () => {
    let database: Database;
    before(async () => {
      database = await openDatabase(await freshTarget(dialect), createLogger('silent'));
    });
    after(() => database.close());
    beforeEach(async () => {
      for (const table of ['outbox', 'reservations', 'subscriptions'] as const) await database.db.deleteFrom(table).execute();
    });

    const reservation = (id: string, status: string) =>
      database.db
        .insertInto('reservations')
        .values({
          id,
          name: '山田',
          name_fold: '山田',
          email: 'a@example.com',
          product_slug: 'vco',
          status,
          created_at: at(0),
          updated_at: at(0),
        })
        .execute();
    const subscription = (id: string, status: string) =>
      database.db
        .insertInto('subscriptions')
        .values({ id, email: 'a@example.com', product_slug: 'vco', status, created_at: at(0), updated_at: at(0) })
        .execute();

    /** Claims everything queued and asks where each stands, by idempotency key. */
    async function standings(): Promise<Record<string, string>> {
      const claimed = await claimDueMessages(database.db, database.dialect, { now: at(10_000), leaseUntil: at(20_000), limit: 100 });
      const answer = await standingsOf(database.db, claimed, SUPPRESSION);
      return Object.fromEntries(claimed.map((message) => [message.idempotencyKey, answer.get(message.id)!]));
    }

    test('the first email of a reservation: true while it is not cancelled and nothing later was queued', async () => {
      await reservation('res_pending', 'pending');
      await reservation('res_confirmed', 'confirmed');
      await reservation('res_cancelled', 'cancelled');
      await reservation('res_later', 'pending');
      await enqueueMessages(database.db, [
        reservationEmail('pending', 'res_pending', 'reservation-received'),
        reservationEmail('confirmed', 'res_confirmed', 'reservation-received'),
        reservationEmail('cancelled', 'res_cancelled', 'reservation-received'),
        reservationEmail('later', 'res_later', 'reservation-received', at(0)),
        // Moved to confirmed and back: the confirmation was queued after the first email.
        reservationEmail('later-confirmed', 'res_later', 'reservation-confirmed', at(1)),
      ]);
      assert.deepEqual(await standings(), {
        pending: 'deliver',
        confirmed: 'deliver',
        cancelled: 'superseded',
        later: 'superseded',
        'later-confirmed': 'superseded',
      });
    });

    test('a status email: true while the reservation holds the status it announces and nothing later was queued', async () => {
      await reservation('res_1', 'confirmed');
      await reservation('res_2', 'pending');
      await reservation('res_3', 'cancelled');
      await reservation('res_4', 'cancelled');
      await enqueueMessages(database.db, [
        reservationEmail('confirmed-holds', 'res_1', 'reservation-confirmed'),
        reservationEmail('confirmed-moved-back', 'res_2', 'reservation-confirmed'),
        reservationEmail('cancelled-holds', 'res_3', 'reservation-cancelled'),
        reservationEmail('fulfilled-never-held', 'res_3', 'reservation-fulfilled', at(-1)),
        // Confirmed, cancelled, and the two emails given up: the confirmation is untrue, the cancellation true.
        reservationEmail('confirmed-then-cancelled', 'res_4', 'reservation-confirmed', at(1)),
        reservationEmail('cancellation', 'res_4', 'reservation-cancelled', at(2)),
      ]);
      assert.deepEqual(await standings(), {
        'confirmed-holds': 'deliver',
        'confirmed-moved-back': 'superseded',
        'cancelled-holds': 'deliver',
        'fulfilled-never-held': 'superseded',
        'confirmed-then-cancelled': 'superseded',
        cancellation: 'deliver',
      });
    });

    test('a restock email: true unless its subscription is unsubscribed, whatever was queued after it', async () => {
      await subscription('ntf_1-aaaaaaaaaa', 'notified');
      await subscription('ntf_2-aaaaaaaaaa', 'unsubscribed');
      await subscription('ntf_3-aaaaaaaaaa', 'pending');
      await enqueueMessages(database.db, [
        restockEmail('notified', 'ntf_1-aaaaaaaaaa', at(0)),
        restockEmail('notified-again', 'ntf_1-aaaaaaaaaa', at(1)),
        restockEmail('unsubscribed', 'ntf_2-aaaaaaaaaa'),
        restockEmail('moved-back-to-pending', 'ntf_3-aaaaaaaaaa'),
      ]);
      assert.deepEqual(await standings(), {
        notified: 'deliver',
        'notified-again': 'deliver',
        unsubscribed: 'superseded',
        'moved-back-to-pending': 'deliver',
      });
    });

    test('a chat notice is never superseded; an email about a record that is gone is; one about no record is not', async () => {
      await reservation('res_cancelled', 'cancelled');
      await enqueueMessages(database.db, [
        chat('chat', 'res_cancelled'),
        reservationEmail('gone', 'res_gone', 'reservation-received'),
        { ...restockEmail('no-record', 'x'), recordId: undefined },
      ]);
      assert.deepEqual(await standings(), { chat: 'deliver', gone: 'superseded', 'no-record': 'deliver' });
    });

    test('a message erased, or held under another lease, is withdrawn', async () => {
      await reservation('res_1', 'pending');
      await enqueueMessages(database.db, [
        reservationEmail('erased', 'res_1', 'reservation-received'),
        chat('taken-over', 'res_1'),
        chat('held', 'res_1'),
      ]);
      const claimed = await claimDueMessages(database.db, database.dialect, { now: at(10_000), leaseUntil: at(20_000), limit: 100 });
      const byKey = new Map(claimed.map((message) => [message.idempotencyKey, message]));
      await database.db.deleteFrom('outbox').where('idempotency_key', '=', 'erased').execute();
      const answer = await standingsOf(
        database.db,
        claimed.map((message) => (message.idempotencyKey === 'taken-over' ? { ...message, lease: at(15_000) } : message)),
        SUPPRESSION,
      );
      assert.equal(answer.get(byKey.get('erased')!.id), 'withdrawn');
      assert.equal(answer.get(byKey.get('taken-over')!.id), 'withdrawn');
      assert.equal(answer.get(byKey.get('held')!.id), 'deliver');
    });

    test('staff’s retry sees each message’s status and whether it is untrue now, lease or not', async () => {
      await reservation('res_1', 'cancelled');
      await enqueueMessages(database.db, [
        reservationEmail('untrue', 'res_1', 'reservation-confirmed', at(1)),
        reservationEmail('true', 'res_1', 'reservation-cancelled', at(2)),
      ]);
      const rows = await database.db.selectFrom('outbox').select(['id', 'idempotency_key']).execute();
      const answer = await messagesAsTheyStand(database.db, [...rows.map((row) => row.id), 'missing']);
      assert.deepEqual(Object.fromEntries(rows.map((row) => [row.idempotency_key, answer.get(row.id)])), {
        untrue: { status: 'pending', superseded: true },
        true: { status: 'pending', superseded: false },
      });
      assert.equal(answer.has('missing'), false);
    });
  });
}
