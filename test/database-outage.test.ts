import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { JA } from '../src/http/storefront-texts.ts';
import { ADMIN_TOKEN } from './helpers/app.ts';
import { startPostgres } from './helpers/postgres.ts';
import { startServiceProcess } from './helpers/service-process.ts';

// PostgreSQL stopped for 5 s while the service is under load, then started again. While it is down,
// everything that needs it answers at once with a clear 5xx envelope (never a hang, a crash or a
// stack trace) and everything that does not (catalog, search) goes on answering 200; once it is
// back, the same process answers 200 again by itself. The cluster is this test's own: stopping the
// one `npm test` shares would fail every other file.

const OUTAGE_MS = 5_000;
/** The longest any answer may take, outage or not: well under the pool's own limits (5 s to connect, 10 s per query). */
const PROMPT_MS = 3_000;

interface Call {
  name: string;
  needsDatabase: boolean;
  path: string;
  init?: RequestInit;
}

const admin = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  body: JSON.stringify(body),
});

const CALLS: Call[] = [
  {
    name: 'reservation',
    needsDatabase: true,
    path: '/api/reservation',
    init: { method: 'POST', body: JSON.stringify({ name: '客', email: 'a@example.com', productSlug: 'kumo-vco-2' }) },
  },
  {
    name: 'restock signup',
    needsDatabase: true,
    path: '/api/notify',
    init: { method: 'POST', body: JSON.stringify({ email: 'b@example.com', productSlug: 'tsuki-dual-lfo' }) },
  },
  { name: 'admin list', needsDatabase: true, path: '/api/admin-reservations-list', init: admin({}) },
  { name: 'dashboard', needsDatabase: true, path: '/api/admin-dashboard-stats', init: admin({}) },
  { name: 'keyword logs', needsDatabase: true, path: '/api/keyword-logs?limit=5' },
  { name: 'health', needsDatabase: true, path: '/healthz' },
  { name: 'catalog', needsDatabase: false, path: '/api/products?tag=vco' },
  { name: 'search', needsDatabase: false, path: '/api/search?q=%E3%82%B7%E3%83%B3%E3%82%BB' },
];

interface Answer {
  call: Call;
  startedAt: number;
  ms: number;
  status: number;
  text: string;
}

test('PostgreSQL down for 5 s under load: prompt 5xx envelopes while it is down, 200 again without a restart once it is back', async (t) => {
  const cluster = await startPostgres({ durable: true });
  after(() => cluster.stop());
  const service = await startServiceProcess({
    env: { DATABASE_URL: cluster.url, PREORDER_API_TOKEN: ADMIN_TOKEN, RATE_LIMIT_PER_MINUTE: '0' },
  });
  after(() => service.stop('SIGKILL'));
  const pid = service.child.pid;

  const answers: Answer[] = [];
  let running = true;
  const workers = Array.from({ length: 8 }, async (_, worker) => {
    for (let i = worker; running; i++) {
      const call = CALLS[i % CALLS.length]!;
      const startedAt = Date.now();
      // A hang would show as this timeout's error, failing the test.
      const response = await fetch(service.url + call.path, { ...call.init, signal: AbortSignal.timeout(15_000) });
      answers.push({ call, startedAt, ms: Date.now() - startedAt, status: response.status, text: await response.text() });
    }
  });

  await new Promise((resolve) => setTimeout(resolve, 500));
  await cluster.pause();
  const downAt = Date.now();
  await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
  const upAt = Date.now();
  await cluster.resume();
  const startedAt = Date.now();
  // Back: wait for every call that needs the store to answer 200 again, then a second more of load.
  const recovered = await waitForRecovery(answers, startedAt);
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  running = false;
  await Promise.all(workers);

  assert.equal(service.child.pid, pid);
  assert.equal(service.child.exitCode, null, 'the process never stopped');
  assert.equal(service.stderr, '', 'nothing uncaught');

  const slowest = Math.max(...answers.map((a) => a.ms));
  assert.ok(slowest < PROMPT_MS, `every answer within ${PROMPT_MS} ms; the slowest took ${slowest} ms`);

  const duringOutage = answers.filter((a) => a.startedAt >= downAt && a.startedAt + a.ms <= upAt);
  for (const call of CALLS)
    assert.ok(
      duringOutage.some((a) => a.call === call),
      `${call.name} was called during the outage`,
    );
  for (const answer of duringOutage) {
    const where = `${answer.call.name} during the outage: ${answer.status} ${answer.text.slice(0, 200)}`;
    if (!answer.call.needsDatabase) {
      assert.equal(answer.status, 200, where);
      continue;
    }
    assert.ok(answer.status >= 500, where);
    const body = JSON.parse(answer.text) as Record<string, unknown>;
    if (answer.call.name === 'health') assert.deepEqual([body.status, body.checks], ['error', { database: 'error' }], where);
    else assert.deepEqual([Object.keys(body), body.code], [['success', 'error', 'code'], 'internal_error'], where);
    if (answer.call.path === '/api/reservation' || answer.call.path === '/api/notify') assert.equal(body.error, JA.serverError, where);
    assert.doesNotMatch(answer.text, /ECONN|postgres|terminat|select |insert |\bat .*\.ts|Error:/i, `no internals: ${where}`);
  }

  const afterRecovery = answers.filter((a) => a.startedAt >= recovered);
  assert.ok(afterRecovery.length > 0);
  assert.deepEqual(
    afterRecovery.filter((a) => a.status !== 200).map((a) => `${a.call.name} ${a.status}`),
    [],
    'everything answers 200 again',
  );

  // What was promised during the mess is kept: every reservation answered 200 is stored.
  const promised = answers
    .filter((a) => a.call.name === 'reservation' && a.status === 200)
    .map((a) => JSON.parse(a.text).reservationId as string);
  const list = (await (await service.admin('/api/admin-reservations-list', {})).json()) as { reservations: { id: string }[] };
  const stored = new Set(list.reservations.map((r) => r.id));
  assert.deepEqual(
    promised.filter((id) => !stored.has(id)),
    [],
  );

  t.diagnostic(
    `${answers.length} answers; ${duringOutage.length} during the ${OUTAGE_MS / 1000} s outage (${duringOutage.filter((a) => a.status >= 500).length} 5xx, slowest ${Math.max(...duringOutage.map((a) => a.ms))} ms); ` +
      `every call answered 200 again ${recovered - startedAt} ms after PostgreSQL was started (its start took ${startedAt - upAt} ms); slowest answer ${slowest} ms`,
  );
});

/** When every call that needs the store has answered 200 after `since`: the time the last of them first did. */
async function waitForRecovery(answers: Answer[], since: number): Promise<number> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const firstOk = CALLS.map((call) => answers.find((a) => a.call === call && a.startedAt >= since && a.status === 200)?.startedAt);
    if (firstOk.every((at) => at !== undefined)) return Math.max(...(firstOk as number[]));
    assert.ok(Date.now() < deadline, 'recovered within 15 s of PostgreSQL starting again');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
