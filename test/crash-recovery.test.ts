import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { DEFAULT_DISPATCHER_TIMINGS } from '../src/messaging/delivery/dispatcher.ts';
import { ADMIN_TOKEN, DIALECTS } from './helpers/app.ts';
import { startHttpReceiver, type ReceivedRequest } from './helpers/http-receiver.ts';
import { createTestDatabase } from './helpers/postgres.ts';
import { SlackBody } from './helpers/sent-bodies.ts';
import { startServiceProcess, type ServiceProcess } from './helpers/service-process.ts';
import { settle, waitUntil } from './helpers/wait.ts';

// `kill -9` of the service while reservations pour in, then a restart on the same store: every
// reservation a customer was told of (a 200 with an id) is stored, and its email and chat notice are
// delivered. A delivery is recorded after the receiver accepted it, so one accepted just before the
// kill is sent again once its lease ends: the email API deduplicates by Idempotency-Key (as Resend
// does), so every email arrives once; a chat webhook has no key, so at most the messages in flight
// at the kill repeat (a dispatcher holds at most `concurrency`, 16). The test asserts that bound and
// prints what it measured.

const LEASE_SECONDS = 2;
/** A dispatcher has at most this many messages claimed and not yet recorded. */
const IN_FLIGHT_LIMIT = DEFAULT_DISPATCHER_TIMINGS.concurrency;
const CLIENTS = 16;
const PRODUCTS = ['kumo-vco-2', 'hayate-wavefolder', 'tsuki-dual-lfo'];
const RESERVATION_ID = /res_[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}/;

/** The reservation a delivered message is about: the email's Idempotency-Key names it, the chat text shows it. */
function reservationOf(request: ReceivedRequest): string {
  const source = request.path === '/emails' ? String(request.headers['idempotency-key']) : SlackBody.parse(request.body).text;
  const id = RESERVATION_ID.exec(source)?.[0];
  assert.ok(id, `no reservation id in a delivered message: ${source.slice(0, 200)}`);
  return id;
}

/** Reservations from `CLIENTS` loops until `stop` is called: the ids answered 200, and requests cut off without an answer. */
function reservationLoad(url: string) {
  const confirmed: string[] = [];
  let cutOff = 0;
  let stopped = false;
  const loops = Array.from({ length: CLIENTS }, async (_, client) => {
    for (let i = 0; !stopped; i++) {
      try {
        const response = await fetch(`${url}/api/reservation`, {
          method: 'POST',
          body: JSON.stringify({
            name: `客 ${client}-${i}`,
            email: `buyer${client}.${i}@example.com`,
            productSlug: PRODUCTS[i % PRODUCTS.length],
          }),
        });
        const body = (await response.json()) as { reservationId?: string };
        assert.equal(response.status, 200, JSON.stringify(body));
        confirmed.push(body.reservationId!);
      } catch (error) {
        if (error instanceof assert.AssertionError) throw error;
        cutOff += 1; // the process died under this request: no answer, so nothing was promised
        return;
      }
    }
  });
  return {
    confirmed,
    get cutOff() {
      return cutOff;
    },
    stop: async () => {
      stopped = true;
      await Promise.all(loops);
    },
  };
}

for (const dialect of DIALECTS) {
  describe(`kill -9 under reservation load, then a restart (${dialect})`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'tenpo-crash-'));
    after(() => rmSync(dir, { recursive: true, force: true }));

    test('every reservation answered 200 is stored, and each of its messages is delivered; only messages in flight at the kill repeat', async (t) => {
      const receiver = await startHttpReceiver();
      after(() => receiver.close());
      // Slow answers keep deliveries in flight when the kill comes.
      receiver.delayAnswers(25);
      const service: ServiceProcess = await startServiceProcess({
        env: {
          DATABASE_URL: dialect === 'sqlite' ? `sqlite:${join(dir, 'tenpo.db')}` : await createTestDatabase(),
          PREORDER_API_TOKEN: ADMIN_TOKEN,
          RATE_LIMIT_PER_MINUTE: '0',
          OUTBOX_LEASE_SECONDS: String(LEASE_SECONDS),
          EMAIL_PROVIDER_API_KEY: 're_test',
          EMAIL_API_URL: `${receiver.url}/emails`,
          RESERVATION_WEBHOOK_URL: `${receiver.url}/chat`,
        },
      });
      after(() => service.stop('SIGKILL'));

      const load = reservationLoad(service.url);
      await waitUntil(() => load.confirmed.length >= 150 && receiver.requests.length >= 40, {
        what: 'reservations answered and messages being delivered',
      });
      const killed = await service.kill();
      assert.equal(killed.signal, 'SIGKILL');
      await load.stop();
      // What the dead process had already sent is received and answered once its connections close.
      await receiver.quiet();
      const acceptedBeforeRestart = new Set(receiver.accepted().map((r) => `${r.path} ${reservationOf(r)}`));

      await service.restart();
      const list = await service.admin('/api/admin-reservations-list', {});
      assert.equal(list.status, 200);
      const stored = new Set(((await list.json()) as { reservations: { id: string }[] }).reservations.map((r) => r.id));
      const lost = load.confirmed.filter((id) => !stored.has(id));
      assert.deepEqual(lost, [], 'every reservation answered 200 is stored');
      assert.ok(stored.size - load.confirmed.length <= load.cutOff, 'the only extra rows are requests cut off by the kill');

      // Every stored reservation's email and chat notice arrive: those of the cut-off requests too.
      const delivered = (path: string) =>
        new Set(
          receiver
            .accepted()
            .filter((r) => r.path === path)
            .map(reservationOf),
        );
      await waitUntil(() => [...stored].every((id) => delivered('/emails').has(id) && delivered('/chat').has(id)), {
        timeoutMs: 20_000,
        what: `the messages of all ${stored.size} stored reservations`,
      });
      const outbox = await waitUntil(
        async () => {
          const stats = (await (await service.admin('/api/admin-dashboard-stats', {})).json()) as {
            outbox: { pending: number; dead: number };
          };
          return stats.outbox.pending === 0 ? stats.outbox : undefined;
        },
        { what: 'an empty outbox' },
      );
      assert.equal(outbox.dead, 0);
      // A message left in flight by the kill stays pending until its lease has run out and it has been
      // sent again, so an empty outbox means every repeat has happened; a moment more shows no other.
      await settle(300);

      const deliveries = new Map<string, number>();
      for (const r of receiver.accepted())
        deliveries.set(`${r.path} ${reservationOf(r)}`, (deliveries.get(`${r.path} ${reservationOf(r)}`) ?? 0) + 1);
      const unexpected = [...deliveries.keys()].filter((key) => !stored.has(key.split(' ')[1]!));
      assert.deepEqual(unexpected, [], 'nothing about a reservation that does not exist');
      const repeated = [...deliveries].filter(([, count]) => count > 1);
      assert.ok(
        repeated.every(([key, count]) => count === 2 && acceptedBeforeRestart.has(key)),
        `only a message the dead process delivered repeats, once: ${JSON.stringify(repeated)}`,
      );
      assert.ok(repeated.length <= IN_FLIGHT_LIMIT, `at most the ${IN_FLIGHT_LIMIT} in flight repeat; ${repeated.length} did`);
      const distinctEmailKeys = new Set(
        receiver
          .accepted()
          .filter((r) => r.path === '/emails')
          .map((r) => r.headers['idempotency-key']),
      );
      assert.equal(distinctEmailKeys.size, stored.size, 'the email API holds one email per reservation');

      const repeatedChats = repeated.filter(([key]) => key.startsWith('/chat')).length;
      t.diagnostic(
        `${dialect}: ${load.confirmed.length} answered 200, ${load.cutOff} cut off, ${stored.size} stored; ` +
          `${receiver.accepted().length} deliveries for ${deliveries.size} messages: ${repeated.length - repeatedChats} email(s) repeated (deduplicated by key), ${repeatedChats} chat notice(s) repeated`,
      );
      assert.equal((await service.stop()).code, 0);
    });
  });
}
