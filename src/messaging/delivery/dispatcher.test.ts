import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { settle, waitUntil } from '../../../test/helpers/wait.ts';
import { openDatabase, type Database } from '../../db/database.ts';
import { createLogger } from '../../log.ts';
import { DeliveryFailure } from './delivery-failure.ts';
import { Dispatcher, type Deliver, type DispatcherTimings } from './dispatcher.ts';
import { EmailEventCounts } from '../reputation/event-counts.ts';
import type { QueuedMessage } from '../outbox/message.ts';
import { enqueueMessages, type ClaimedMessage } from '../outbox/store.ts';

// The dispatcher on a real SQLite outbox, with its clock and its delivery passed in: the clock
// moves only when a test moves it, and polling is off (an hour), so every claim is one a test asked
// for with start() or wake().

const T0 = Date.UTC(2030, 0, 1);
const at = (ms: number) => new Date(T0 + ms).toISOString();

const TIMINGS: DispatcherTimings = {
  pollIntervalMs: 3_600_000,
  leaseMs: 10_000,
  retryBaseMs: 1_000,
  retryCapMs: 1_500,
  maxAttempts: 3,
  concurrency: 4,
  gatherMs: 0,
};

interface Harness {
  database: Database;
  /** The injected clock, in ms after T0. */
  clock: { now: number };
  /** Every log line written, parsed. */
  lines: { level: number; msg: string; [field: string]: unknown }[];
  /** The idempotency key of each delivery attempt, in order. */
  attempts: string[];
  dispatcher(deliver?: Deliver): Dispatcher;
  /** A delivery that waits until the test lets it finish (or the test ends). */
  held(): Held;
  queue(keys: string[], queuedAtMs?: number): Promise<void>;
  row(key: string): Promise<{
    status: string;
    attempts: number;
    next_attempt_at: string;
    locked_until: string | null;
    last_error: string | null;
    sent_at: string | null;
    died_at: string | null;
  }>;
  /** The message's status, undefined while it is not queued. */
  status(key: string): Promise<string | undefined>;
}

async function harness(t: TestContext, timings: Partial<DispatcherTimings> = {}): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), 'tenpo-dispatcher-'));
  const database = await openDatabase({ dialect: 'sqlite', path: join(dir, 'outbox.db') }, createLogger('silent'));
  const lines: Harness['lines'] = [];
  const log = createLogger('info', { write: (line: string) => lines.push(JSON.parse(line)) });
  const clock = { now: 0 };
  const attempts: string[] = [];
  const started: Dispatcher[] = [];
  const holds: Held[] = [];
  t.after(async () => {
    // A failed test may leave deliveries held; stop() would wait for them forever.
    for (const hold of holds) hold.releaseAll();
    await Promise.all(started.map((d) => d.stop()));
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    database,
    clock,
    lines,
    attempts,
    dispatcher(deliver = async () => 'sent') {
      const dispatcher = new Dispatcher({
        database,
        addressKeySecret: 'dispatcher-test-secret',
        emailEvents: new EmailEventCounts(),
        log,
        timings: { ...TIMINGS, ...timings },
        now: () => T0 + clock.now,
        deliver: (message: QueuedMessage, standing) => {
          attempts.push(message.idempotencyKey);
          return deliver(message, standing);
        },
      });
      started.push(dispatcher);
      return dispatcher;
    },
    held() {
      const hold = held();
      holds.push(hold);
      return hold;
    },
    queue: (keys, queuedAtMs = clock.now) =>
      enqueueMessages(
        database.db,
        keys.map((key) => ({
          idempotencyKey: key,
          queuedAt: at(queuedAtMs),
          message: { channel: 'chat', webhook: 'reservation', content: { title: key, fields: [], timestamp: at(0) } },
        })),
      ),
    row: async (key) => ({
      ...(await database.db
        .selectFrom('outbox')
        .select(['status', 'attempts', 'next_attempt_at', 'locked_until', 'last_error', 'sent_at', 'died_at'])
        .where('idempotency_key', '=', key)
        .executeTakeFirstOrThrow()),
    }),
    status: async (key) =>
      (await database.db.selectFrom('outbox').select('status').where('idempotency_key', '=', key).executeTakeFirst())?.status,
  };
}

interface Held {
  deliver: Deliver;
  /** Deliveries waiting to be let finish. */
  readonly waiting: number;
  /** The most deliveries that were ever in flight at once. */
  readonly maxInFlight: number;
  releaseAll(): void;
}

function held(): Held {
  const waiting: (() => void)[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const deliver: Deliver = async () => {
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    await new Promise<void>((resolve) => waiting.push(resolve));
    inFlight -= 1;
    return 'sent';
  };
  return {
    deliver,
    get waiting() {
      return waiting.length;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    releaseAll: () => waiting.splice(0).forEach((resolve) => resolve()),
  };
}

test('start delivers what is due and records it; a message not yet due waits for the clock and a wake', async (t) => {
  const h = await harness(t);
  await h.queue(['now']);
  await h.queue(['later'], 5_000);
  const outcomes = new Map([
    ['now', 'sent' as const],
    ['later', 'skipped' as const],
  ]);
  const dispatcher = h.dispatcher(async (message) => outcomes.get(message.idempotencyKey)!);
  h.clock.now = 100;
  dispatcher.start();
  await waitUntil(async () => (await h.status('now')) === 'sent', { what: 'the due message sent' });
  assert.deepEqual(await h.row('now'), {
    status: 'sent',
    attempts: 1,
    next_attempt_at: at(100 + TIMINGS.leaseMs),
    locked_until: null,
    last_error: null,
    sent_at: at(100),
    died_at: null,
  });

  dispatcher.wake();
  await settle(100);
  assert.deepEqual(h.attempts, ['now'], 'the later message is not due yet');

  h.clock.now = 5_000;
  dispatcher.wake();
  await waitUntil(async () => (await h.status('later')) === 'skipped', { what: 'the later message settled' });
  assert.deepEqual(h.attempts, ['now', 'later']);
});

test('with polling off, a message queued after start waits for a wake, and is delivered at once when woken', async (t) => {
  const h = await harness(t);
  const dispatcher = h.dispatcher();
  dispatcher.start();
  await h.queue(['a']);
  await settle(150);
  assert.deepEqual(h.attempts, [], 'nothing looks at the outbox unwoken');
  dispatcher.wake();
  await waitUntil(async () => (await h.status('a')) === 'sent', { what: 'the woken delivery' });
});

test('a wake while a claim is under way is not lost: the claim runs again', async (t) => {
  const h = await harness(t);
  const first = h.held();
  await h.queue(['first']);
  await h.queue(['due-later'], 1_000);
  // The first delivery starts inside the claim and stays in flight, so no finished delivery wakes the
  // dispatcher: only the wake it receives mid-claim (when the second message has just come due) can.
  const dispatcher: Dispatcher = h.dispatcher((message, standing) => {
    if (message.idempotencyKey === 'first') {
      h.clock.now = 1_000;
      dispatcher.wake();
      return first.deliver(message, standing);
    }
    return Promise.resolve('sent');
  });
  dispatcher.start();
  await waitUntil(async () => (await h.status('due-later')) === 'sent', { what: 'the message that came due during the claim' });
  assert.deepEqual(h.attempts, ['first', 'due-later']);
  first.releaseAll();
  await waitUntil(async () => (await h.status('first')) === 'sent');
});

test('a failure is retried after a doubling, jittered, capped delay; the last allowed failure is dead, logged as an error, and never tried again', async (t) => {
  const h = await harness(t);
  const dispatcher = h.dispatcher(async () => {
    throw new Error('fetch failed', { cause: new Error('connect ECONNREFUSED') });
  });
  await h.queue(['m']);
  dispatcher.start();

  /** Waits for attempt `n` to be settled, and returns the delay it was given before the next one. */
  const failed = async (n: number) => {
    const row = await waitUntil(
      async () => {
        const r = await h.row('m');
        return r.attempts === n && r.locked_until === null ? r : undefined;
      },
      { what: `attempt ${n} settled` },
    );
    assert.equal(row.last_error, 'fetch failed: connect ECONNREFUSED');
    return Date.parse(row.next_attempt_at) - (T0 + h.clock.now);
  };

  const first = await failed(1);
  assert.ok(first >= 500 && first <= 1_000, `first retry after base × (½…1): ${first}`);
  h.clock.now += first - 1;
  dispatcher.wake();
  await settle(100);
  assert.equal(h.attempts.length, 1, 'not retried before its time');

  h.clock.now += 1;
  dispatcher.wake();
  const second = await failed(2);
  assert.ok(second >= 750 && second <= 1_500, `second retry after min(2 × base, cap) × (½…1): ${second}`);
  assert.equal((await h.row('m')).status, 'pending');
  const warnings = h.lines.filter((line) => line.msg === 'outbox: delivery failed; will retry');
  assert.deepEqual(
    warnings.map((line) => [line.level, line.attempts, line.error]),
    [
      [40, 1, 'fetch failed: connect ECONNREFUSED'],
      [40, 2, 'fetch failed: connect ECONNREFUSED'],
    ],
  );

  h.clock.now += second;
  dispatcher.wake();
  await waitUntil(async () => (await h.status('m')) === 'dead', { what: 'the message given up' });
  const dead = await h.row('m');
  assert.deepEqual([dead.attempts, dead.locked_until, dead.last_error], [3, null, 'fetch failed: connect ECONNREFUSED']);
  const given = h.lines.filter((line) => line.msg === 'outbox: message given up after its last attempt');
  assert.deepEqual(
    given.map((line) => [line.level, line.attempts]),
    [[50, 3]],
  );

  h.clock.now += 86_400_000;
  dispatcher.wake();
  await settle(100);
  assert.equal(h.attempts.length, 3, 'a dead message is never tried again');
});

test('a provider refusal that no retry can change is dead at its first attempt, with the provider’s reason', async (t) => {
  const h = await harness(t);
  const dispatcher = h.dispatcher(async () => {
    throw new DeliveryFailure('HTTP 422: {"message":"Invalid `to` field"}', { permanent: true });
  });
  await h.queue(['m']);
  dispatcher.start();
  await waitUntil(async () => (await h.status('m')) === 'dead', { what: 'the message given up' });
  const dead = await h.row('m');
  assert.deepEqual(
    [dead.attempts, dead.locked_until, dead.last_error, dead.died_at],
    [1, null, 'HTTP 422: {"message":"Invalid `to` field"}', at(0)],
  );
  const given = h.lines.filter((line) => line.msg === 'outbox: message given up: the provider refused it for good');
  assert.deepEqual(
    given.map((line) => [line.level, line.attempts]),
    [[50, 1]],
  );
  h.clock.now += 86_400_000;
  dispatcher.wake();
  await settle(100);
  assert.equal(h.attempts.length, 1, 'never tried again');
});

test('a Retry-After is the wait before the next attempt, instead of the backoff', async (t) => {
  const h = await harness(t, { maxAttempts: 5 });
  let failures = 0;
  const dispatcher = h.dispatcher(async () => {
    failures += 1;
    if (failures === 1) throw new DeliveryFailure('HTTP 429', { retryAfterMs: 45_000 });
    if (failures === 2) throw new DeliveryFailure('HTTP 503', { retryAfterMs: 0 });
    return 'sent';
  });
  await h.queue(['m']);
  dispatcher.start();
  const first = await waitUntil(async () => {
    const r = await h.row('m');
    return r.attempts === 1 && r.locked_until === null ? r : undefined;
  });
  assert.deepEqual([first.status, first.next_attempt_at, first.last_error], ['pending', at(45_000), 'HTTP 429']);
  h.clock.now = 44_999;
  dispatcher.wake();
  await settle(100);
  assert.equal(h.attempts.length, 1, 'not before the provider said');
  h.clock.now = 45_000;
  dispatcher.wake();
  // The clock stays put: only a Retry-After of 0 (not the backoff, at least 500 ms) lets the third attempt follow the second.
  await waitUntil(async () => (await h.status('m')) === 'sent', { what: 'the third attempt delivered' });
  assert.deepEqual([(await h.row('m')).attempts, h.attempts.length], [3, 3]);
});

test('a long error is kept to 500 characters', async (t) => {
  const h = await harness(t);
  const dispatcher = h.dispatcher(async () => {
    throw new Error('x'.repeat(2_000));
  });
  await h.queue(['m']);
  dispatcher.start();
  const row = await waitUntil(async () => {
    const r = await h.row('m');
    return r.last_error ? r : undefined;
  });
  assert.equal(row.last_error, `${'x'.repeat(500)}…`);
});

test('a lease keeps a message from a second dispatcher until it runs out; then it is delivered again and the late first result is not recorded', async (t) => {
  const h = await harness(t);
  const slow = h.held();
  const first = h.dispatcher(slow.deliver);
  const second = h.dispatcher();
  await h.queue(['m']);
  first.start();
  await waitUntil(() => slow.waiting === 1, { what: 'the first dispatcher delivering' });

  second.start();
  h.clock.now = TIMINGS.leaseMs - 1;
  second.wake();
  await settle(100);
  assert.deepEqual(h.attempts, ['m'], 'held under the first lease');

  h.clock.now = TIMINGS.leaseMs;
  second.wake();
  await waitUntil(async () => (await h.status('m')) === 'sent', { what: 'the second delivery' });
  assert.deepEqual(h.attempts, ['m', 'm']);

  h.clock.now = TIMINGS.leaseMs + 500;
  slow.releaseAll();
  await waitUntil(() => h.lines.some((line) => line.msg === 'outbox: lease expired during delivery; the message may be sent again'));
  const row = await h.row('m');
  assert.deepEqual([row.status, row.attempts, row.sent_at], ['sent', 2, at(TIMINGS.leaseMs)], 'the second holder’s record stands');
});

test('a message erased after its claim, while its delivery is prepared, is not sent, and its row is not settled', async (t) => {
  const h = await harness(t);
  // Stands for what a delivery does before the send (rendering reads the store): held until released.
  const preparing = h.held();
  const sent: string[] = [];
  const dispatcher = h.dispatcher(async (message, standing) => {
    await preparing.deliver(message, standing);
    const now = await standing();
    if (now !== 'deliver') return now;
    sent.push(message.idempotencyKey);
    return 'sent';
  });
  await h.queue(['erased', 'kept']);
  dispatcher.start();
  await waitUntil(() => preparing.waiting === 2, { what: 'both claimed and being prepared' });
  // What a personal-data erasure does to the message's row (src/personal-data), while the delivery is prepared.
  await h.database.db.deleteFrom('outbox').where('idempotency_key', '=', 'erased').execute();
  preparing.releaseAll();
  await waitUntil(async () => (await h.status('kept')) === 'sent', { what: 'the other message sent' });
  await settle(50);
  assert.deepEqual(sent, ['kept']);
  assert.equal(await h.status('erased'), undefined, 'not written back');
  assert.deepEqual(
    h.lines.filter((line) => line.level >= 40),
    [],
    'no warning: an erased message is not a lost lease',
  );
  assert.deepEqual(
    dispatcher.attemptCounts().sort((a, b) => a.outcome.localeCompare(b.outcome)),
    [
      { channel: 'chat', outcome: 'sent', count: 1 },
      { channel: 'chat', outcome: 'withdrawn', count: 1 },
    ],
  );
});

test('a message erased the moment after its claim is not sent either: its standing is asked on every attempt, however soon', async (t) => {
  const h = await harness(t);
  const sent: string[] = [];
  const dispatcher = h.dispatcher(async (message, standing) => {
    // No time at all between the claim and the question (a retried message claimed and erased at once).
    await h.database.db.deleteFrom('outbox').where('idempotency_key', '=', message.idempotencyKey).execute();
    const now = await standing();
    if (now !== 'deliver') return now;
    sent.push(message.idempotencyKey);
    return 'sent';
  });
  await h.queue(['erased-at-once']);
  dispatcher.start();
  await waitUntil(() => dispatcher.attemptCounts().length > 0, { what: 'the attempt' });
  assert.deepEqual(sent, []);
  assert.deepEqual(dispatcher.attemptCounts(), [{ channel: 'chat', outcome: 'withdrawn', count: 1 }]);
});

test('at most `concurrency` deliveries run at once; the rest are claimed as slots free up', async (t) => {
  const h = await harness(t);
  const slow = h.held();
  const dispatcher = h.dispatcher(slow.deliver);
  const keys = Array.from({ length: 10 }, (_, i) => `m${i}`);
  await h.queue(keys);
  dispatcher.start();
  await waitUntil(() => slow.waiting === TIMINGS.concurrency, { what: 'the first deliveries' });
  dispatcher.wake();
  await settle(100);
  assert.equal(h.attempts.length, TIMINGS.concurrency, 'no claim beyond the free slots');
  const claimed = await h.database.db.selectFrom('outbox').select('idempotency_key').where('locked_until', 'is not', null).execute();
  assert.equal(claimed.length, TIMINGS.concurrency, 'messages waiting for a slot stay unclaimed, free for another instance');

  while (h.attempts.length < keys.length || slow.waiting > 0) {
    slow.releaseAll();
    await settle(20);
  }
  await waitUntil(
    async () => (await h.database.db.selectFrom('outbox').select('id').where('status', '=', 'sent').execute()).length === keys.length,
    { what: 'every message sent' },
  );
  assert.equal(slow.maxInFlight, TIMINGS.concurrency);
  assert.deepEqual([...h.attempts].sort(), keys.sort(), 'each once');
});

test('stop waits for the deliveries in flight and records them, then claims nothing more', async (t) => {
  const h = await harness(t);
  const slow = h.held();
  const dispatcher = h.dispatcher(slow.deliver);
  await h.queue(['in-flight']);
  dispatcher.start();
  await waitUntil(() => slow.waiting === 1);
  let stopped = false;
  const stopping = dispatcher.stop().then(() => (stopped = true));
  await settle(50);
  assert.equal(stopped, false, 'stop waits for the delivery');
  slow.releaseAll();
  await stopping;
  assert.equal((await h.row('in-flight')).status, 'sent', 'recorded before stop returned');

  await h.queue(['after-stop']);
  dispatcher.wake();
  await settle(100);
  assert.deepEqual([(await h.row('after-stop')).status, h.attempts], ['pending', ['in-flight']]);
});

test('a steady stream of messages is claimed and recorded a few at a time, at most once each `gatherMs`', async (t) => {
  const h = await harness(t, { gatherMs: 40, concurrency: 64 });
  const leases = new Set<string>();
  const dispatcher = h.dispatcher(async (message) => {
    leases.add((message as ClaimedMessage).lease);
    return 'sent';
  });
  dispatcher.start();
  const started = performance.now();
  const keys = Array.from({ length: 50 }, (_, i) => `m${i}`);
  // One message every 2 ms, each woken for as a reservation's commit does; the clock moves with each,
  // so each claim's lease and each write's sent_at tell the claims and the writes apart.
  for (const [i, key] of keys.entries()) {
    h.clock.now = i + 1;
    await h.queue([key]);
    dispatcher.wake();
    await settle(2);
  }
  await waitUntil(async () => (await Promise.all(keys.map((key) => h.status(key)))).every((status) => status === 'sent'), {
    what: 'every message sent',
  });
  const rounds = Math.ceil((performance.now() - started) / 40) + 1;
  const writes = new Set((await h.database.db.selectFrom('outbox').select('sent_at').execute()).map((row) => row.sent_at));
  assert.ok(leases.size <= rounds, `${leases.size} claims in ${rounds} rounds of 40 ms`);
  assert.ok(writes.size <= rounds, `${writes.size} writes of delivered messages in ${rounds} rounds of 40 ms`);
  assert.deepEqual([...h.attempts].sort(), keys.sort(), 'each once');
});
