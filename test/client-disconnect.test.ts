import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { ADMIN_TOKEN, startTestApp, type TestApp } from './helpers/app.ts';
import { waitUntil } from './helpers/wait.ts';

// A client that hangs up before its body has arrived is not a server error: nothing is
// logged at error level and no 500 is counted in /metrics; the service answers on.

/** Sends the request line, headers and part of the body, then closes the connection. */
function hangUp(url: string, path: string): Promise<void> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\nContent-Length: 1000\r\n\r\n{"name": "山`,
      );
      setTimeout(() => socket.destroy(), 50);
    });
    socket.on('close', () => resolve());
    socket.on('error', reject);
  });
}

describe('a client that disconnects mid-body', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '0' } });
  });
  after(() => app.close());

  test('is no server error: nothing at error level, no 500 counted, and the service answers on', async () => {
    const paths = ['/api/reservation', '/api/notify', '/api/admin-reservations-list'];
    for (let i = 0; i < 3; i++) for (const path of paths) await hangUp(app.url, path);
    await waitUntil(() => paths.every((path) => app.logs.some((line) => line.path === path && line.status === 400)), {
      timeoutMs: 5_000,
      what: 'the requests answered',
    });
    assert.deepEqual(
      app.logs.filter((line) => Number(line.level) >= 50),
      [],
      'nothing at error level',
    );
    assert.equal(app.logs.filter((line) => Number(line.status) >= 500).length, 0);
    const metrics = await (await app.request('/metrics', { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).text();
    const counts = metrics.split('\n').filter((line) => line.startsWith('tenpo_http_request_duration_seconds_count{'));
    assert.deepEqual(
      counts.filter((line) => /status="5\d\d"/.test(line)),
      [],
      'no 5xx counted',
    );
    assert.ok(
      counts.some((line) => line.includes('route="/api/reservation"') && line.includes('status="400"') && line.endsWith(' 3')),
      counts.join('\n'),
    );
    assert.equal((await app.request('/healthz')).status, 200);
  });
});
