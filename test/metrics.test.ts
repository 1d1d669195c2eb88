import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { prometheusContentType } from 'prom-client';
import type { DispatcherTimings } from '../src/messaging/delivery/dispatcher.ts';
import { ADMIN_TOKEN, DIALECTS, startTestApp, type TestApp } from './helpers/app.ts';
import { startEmailTestApp } from './helpers/email-app.ts';
import type { HttpReceiver } from './helpers/http-receiver.ts';
import { startPostgres } from './helpers/postgres.ts';
import { waitUntil } from './helpers/wait.ts';

// GET /metrics read as Prometheus reads it: the text format, parsed, after real traffic.

const METRICS_TOKEN = 'scraper-token-0123456789';

async function scrape(app: TestApp, token = ADMIN_TOKEN): Promise<string> {
  const response = await app.request('/metrics', { headers: { authorization: `Bearer ${token}` } });
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('content-type'), 'text/plain; version=0.0.4; charset=utf-8');
  // The service names it without loading prom-client, which is loaded at the first scrape: still the registry's own.
  assert.equal(response.headers.get('content-type'), prometheusContentType);
  return response.text();
}

/** The value of one sample, by name and exact label set; undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels)
    .map(([key, value]) => `${key}="${value}"`)
    .sort()
    .join(',');
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = (match[2] ?? '')
      .split(/,(?=[a-zA-Z_]\w*=")/)
      .filter(Boolean)
      .sort()
      .join(',');
    if (found === wanted) return Number(match[3]);
  }
  return undefined;
}

test('the first scrape after a start answers real figures: no NaN, no infinite or unset event-loop delay', async () => {
  const app = await startTestApp();
  after(() => app.close());
  // As a scraper comes: a moment after the start, not in the same millisecond.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const text = await scrape(app);
  const values = text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => line.slice(line.lastIndexOf(' ') + 1));
  assert.ok(values.length > 50);
  assert.deepEqual(
    values.filter((value) => !Number.isFinite(Number(value))),
    [],
    'every value a finite number',
  );
  const min = sample(text, 'nodejs_eventloop_lag_min_seconds')!;
  const mean = sample(text, 'nodejs_eventloop_lag_mean_seconds')!;
  const max = sample(text, 'nodejs_eventloop_lag_max_seconds')!;
  assert.ok(min > 0 && min <= mean && mean <= max && max < 5, `${min} ${mean} ${max}`);
  assert.ok(sample(text, 'nodejs_eventloop_lag_seconds')! > 0);
});

describe('access', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ env: { METRICS_TOKEN } });
  });
  after(() => app.close());

  test('the admin token or METRICS_TOKEN; nothing else', async () => {
    await scrape(app, ADMIN_TOKEN);
    await scrape(app, METRICS_TOKEN);
    for (const authorization of [undefined, 'Bearer wrong', `Basic ${METRICS_TOKEN}`, `Bearer ${METRICS_TOKEN}x`]) {
      const response = await app.request('/metrics', { headers: authorization ? { authorization } : {} });
      assert.equal(response.status, 401, String(authorization));
      assert.deepEqual(await response.json(), { success: false, error: 'Unauthorized', code: 'unauthorized' });
    }
  });

  test('without METRICS_TOKEN only the admin token', async () => {
    const plain = await startTestApp();
    after(() => plain.close());
    await scrape(plain, ADMIN_TOKEN);
    assert.equal((await plain.request('/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).status, 401);
  });

  test('the METRICS_TOKEN opens /metrics only, not the admin API', async () => {
    const response = await app.request('/api/admin-dashboard-stats', {
      method: 'POST',
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      body: '{}',
    });
    assert.equal(response.status, 401);
  });
});

describe('requests by route template, method and status', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.close());

  test('labelled with the mounted path, never the raw URL', async () => {
    await app.request('/api/products?tag=vco&q=secret-query');
    await app.request('/api/products?page=abc');
    await app.request('/api/products', { method: 'HEAD' });
    await app.request('/api/products', { method: 'DELETE' });
    await app.request('/wp-login.php?user=someone');
    await app.request(`/no/such/${'x'.repeat(50)}`);
    await app.request('/api/reservation', { method: 'POST', body: '{}' });
    const text = await scrape(app);

    const count = (route: string, method: string, status: string) =>
      sample(text, 'tenpo_http_request_duration_seconds_count', { route, method, status });
    assert.equal(count('/api/products', 'GET', '200'), 1);
    assert.equal(count('/api/products', 'GET', '400'), 1);
    assert.equal(count('/api/products', 'HEAD', '200'), 1);
    assert.equal(count('/api/products', 'DELETE', '405'), 1);
    assert.equal(count('/api/reservation', 'POST', '400'), 1);
    assert.equal(count('unmatched', 'GET', '404'), 2);
    for (const raw of ['secret-query', 'wp-login', 'xxxxx', 'page=abc']) assert.ok(!text.includes(raw), `${raw} is not a label`);

    // The histogram: cumulative buckets ending in +Inf, which equals the count.
    const buckets = text
      .split('\n')
      .filter(
        (line) =>
          line.startsWith('tenpo_http_request_duration_seconds_bucket{') &&
          line.includes('route="/api/products",method="GET",status="200"'),
      );
    assert.ok(buckets.length >= 10, buckets.join('\n'));
    const values = buckets.map((line) => Number(line.split(' ').at(-1)));
    assert.deepEqual(
      values,
      [...values].sort((a, b) => a - b),
      'cumulative',
    );
    assert.match(buckets.at(-1)!, /^[^ ]*le="\+Inf"[^ ]* 1$/);
    assert.ok(sample(text, 'tenpo_http_request_duration_seconds_sum', { route: '/api/products', method: 'GET', status: '200' })! > 0);
  });

  test('each scrape counts the ones before it', async () => {
    const before =
      sample(await scrape(app), 'tenpo_http_request_duration_seconds_count', { route: '/metrics', method: 'GET', status: '200' }) ?? 0;
    const next = sample(await scrape(app), 'tenpo_http_request_duration_seconds_count', {
      route: '/metrics',
      method: 'GET',
      status: '200',
    });
    assert.equal(next, before + 1);
  });

  test('process metrics', async () => {
    const text = await scrape(app);
    for (const name of [
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
    ]) {
      assert.ok((sample(text, name) ?? -1) >= 0, name);
    }
  });

  test('keyword-log entries queued, written and skipped', async () => {
    const stamp = Date.now().toString(36);
    for (const q of [`a${stamp}`, `b${stamp}`, '']) await app.request(`/api/search?q=${q}`);
    await app.services.keywordLog.flush();
    const text = await scrape(app);
    const state = (name: string) => sample(text, 'tenpo_keyword_log_entries_total', { state: name });
    assert.deepEqual([state('queued'), state('written'), state('skipped')], [2, 2, 0], 'an empty query is not logged');
  });
});

// Two quick attempts, so a failing provider gives a message up within the test.
const GIVE_UP_FAST: Partial<DispatcherTimings> = { retryBaseMs: 30, retryCapMs: 60, maxAttempts: 2 };

for (const dialect of DIALECTS) {
  describe(`the outbox and its deliveries (${dialect})`, () => {
    let api: HttpReceiver;
    let app: TestApp;
    let close: () => Promise<void>;
    before(async () => {
      ({ app, api, close } = await startEmailTestApp({ dialect, webhooks: ['reservation'], dispatcher: GIVE_UP_FAST }));
    });
    after(() => close());

    const reserve = async (email: string) => {
      const response = await app.request('/api/reservation', {
        method: 'POST',
        body: JSON.stringify({ name: '計測 太郎', email, productSlug: 'kumo-vco-2' }),
      });
      assert.equal(response.status, 200);
    };

    test('delivered messages count as sent by channel; nothing waits', async () => {
      await reserve('sent@example.com');
      await api.waitForAccepted(1, '/emails');
      await api.waitForAccepted(1, '/hooks/reservation');
      // An attempt is counted when the provider accepts it, and the message leaves `pending` when the
      // batch of deliveries is written a moment later: wait for both.
      const text = await waitUntil(
        async () => {
          const text = await scrape(app);
          const counted = ['chat', 'email'].every(
            (channel) => sample(text, 'tenpo_outbox_delivery_attempts_total', { channel, outcome: 'sent' }) === 1,
          );
          return counted && sample(text, 'tenpo_outbox_messages', { status: 'pending' }) === 0 ? text : undefined;
        },
        { what: 'both deliveries counted and recorded' },
      );
      assert.equal(sample(text, 'tenpo_outbox_messages', { status: 'dead' }), 0);
      assert.equal(sample(text, 'tenpo_outbox_oldest_pending_age_seconds'), 0);
      assert.equal(sample(text, 'tenpo_outbox_scrape_success'), 1);
    });

    test('failing deliveries count as retry, then dead; a message waiting shows its age', async () => {
      api.failAlways(503);
      await reserve('dead@example.com');
      const text = await waitUntil(
        async () => {
          const text = await scrape(app);
          return sample(text, 'tenpo_outbox_messages', { status: 'dead' }) === 2 ? text : undefined;
        },
        { what: 'both messages given up' },
      );
      for (const channel of ['email', 'chat']) {
        assert.equal(sample(text, 'tenpo_outbox_delivery_attempts_total', { channel, outcome: 'retry' }), 1, channel);
        assert.equal(sample(text, 'tenpo_outbox_delivery_attempts_total', { channel, outcome: 'dead' }), 1, channel);
      }

      // A message that cannot even be tried (the dispatcher is stopped) waits and ages.
      await app.services.dispatcher.stop();
      await reserve('waiting@example.com');
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const waiting = await scrape(app);
      assert.equal(sample(waiting, 'tenpo_outbox_messages', { status: 'pending' }), 2);
      const age = sample(waiting, 'tenpo_outbox_oldest_pending_age_seconds')!;
      assert.ok(age >= 1 && age < 30, String(age));
      api.failAlways(0);
    });
  });
}

test('with the database down the scrape still answers, saying the outbox could not be read', async () => {
  const cluster = await startPostgres();
  after(() => cluster.stop());
  const app = await startTestApp({ env: { DATABASE_URL: cluster.url } });
  after(() => app.close());
  assert.equal(sample(await scrape(app), 'tenpo_outbox_scrape_success'), 1);
  await cluster.pause();
  const text = await scrape(app);
  assert.equal(sample(text, 'tenpo_outbox_scrape_success'), 0);
  assert.equal(sample(text, 'tenpo_outbox_messages', { status: 'pending' }), undefined, 'no stale figure');
  assert.ok(sample(text, 'process_resident_memory_bytes')! > 0);
  await cluster.resume();
});
