import assert from 'node:assert/strict';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { after, describe, test } from 'node:test';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { waitUntil } from './helpers/wait.ts';

// Connections a stranger opens and never finishes (slowloris), through real sockets: a request whose
// headers are not complete within 10 s is closed, one peer address holds at most
// MAX_CONNECTIONS_PER_CLIENT connections (further ones are closed as soon as they are accepted), a
// proxy TRUST_PROXY trusts is exempt, and /healthz answers another address while 20,000 connections
// are attempted from one. Every address of 127.0.0.0/8 is this machine, so 127.0.0.2 is "another
// host" on loopback.

const ATTACKER = '127.0.0.1';
const BYSTANDER = '127.0.0.2';

interface Slow {
  socket: Socket;
  /** Resolves when the service closes the connection, with what it sent before closing. */
  closed: Promise<string>;
}

/** A connection from `from` that sends the start of a request's headers and never finishes them. */
function slowConnection(app: TestApp, from: string): Promise<Slow> {
  const { port } = new URL(app.url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: Number(port), localAddress: from });
    let received = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
    const closed = new Promise<string>((done) => socket.once('close', () => done(received)));
    socket.once('error', () => {}); // a reset is one way of being closed
    socket.once('connect', () => {
      socket.write(`GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: `);
      resolve({ socket, closed });
    });
    socket.once('error', reject);
  });
}

/** GET /healthz from `from` on a connection of its own: the status, or why the service did not answer. */
function healthFrom(app: TestApp, from: string): Promise<number | string> {
  return new Promise((resolve) => {
    const req = request(`${app.url}/healthz`, { localAddress: from, agent: false, timeout: 5_000 }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('timeout', () => req.destroy(new Error('no answer within 5 s')));
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    req.end();
  });
}

/** Whether the service closes a connection before it is used, the way it refuses one over the limit. */
async function refusedAtOnce(app: TestApp, from: string): Promise<boolean> {
  const { socket, closed } = await slowConnection(app, from);
  const outcome = await Promise.race([closed.then(() => 'closed'), healthFrom(app, BYSTANDER).then(() => 'open')]);
  socket.destroy();
  return outcome === 'closed';
}

describe('connections a stranger holds', () => {
  const apps: TestApp[] = [];
  after(() => Promise.all(apps.map((app) => app.close())));
  const start = async (env: Record<string, string> = {}) => {
    const app = await startTestApp({ env });
    apps.push(app);
    return app;
  };

  test('headers not complete within 10 s: answered 408 and closed', async () => {
    const app = await start();
    const started = Date.now();
    const { closed } = await slowConnection(app, ATTACKER);
    const sent = await closed;
    assert.ok(Date.now() - started >= 9_900, `closed after ${Date.now() - started} ms`);
    assert.match(sent, /^HTTP\/1\.1 408 /);
    assert.match(sent, /"error":"Request timeout"/);
  });

  describe('MAX_CONNECTIONS_PER_CLIENT', () => {
    let held: Slow[] = [];
    const release = () => {
      for (const { socket } of held) socket.destroy();
      held = [];
    };

    test('default 100: the 101st connection from one address is closed at once, and another address is served', async () => {
      const app = await start();
      held = await Promise.all(Array.from({ length: 100 }, () => slowConnection(app, ATTACKER)));
      assert.equal(await refusedAtOnce(app, ATTACKER), true);
      assert.equal(await healthFrom(app, BYSTANDER), 200);
      // A connection closed frees its place, once the service has seen it close.
      held.pop()!.socket.destroy();
      await waitUntil(async () => !(await refusedAtOnce(app, ATTACKER)), { what: 'a place freed by a closed connection' });
      release();
    });

    test('a proxy TRUST_PROXY trusts is exempt: its connections carry many clients', async () => {
      const app = await start({ TRUST_PROXY: ATTACKER, MAX_CONNECTIONS_PER_CLIENT: '10' });
      held = await Promise.all(Array.from({ length: 30 }, () => slowConnection(app, ATTACKER)));
      assert.equal(await refusedAtOnce(app, ATTACKER), false);
      assert.equal(await refusedAtOnce(app, BYSTANDER), false);
      release();
    });

    test('0 turns it off', async () => {
      const app = await start({ MAX_CONNECTIONS_PER_CLIENT: '0' });
      held = await Promise.all(Array.from({ length: 150 }, () => slowConnection(app, ATTACKER)));
      assert.equal(await refusedAtOnce(app, ATTACKER), false);
      release();
    });
  });

  test('/healthz answers another address every time while 20,000 connections are attempted from one', async () => {
    const app = await start();
    const ATTEMPTS = 20_000;
    const IN_FLIGHT = 1_000;
    let attempted = 0;
    let stop = false;
    const attacker = async () => {
      while (attempted < ATTEMPTS) {
        attempted += 1;
        try {
          const { socket } = await slowConnection(app, ATTACKER);
          // Held until the service closes it (past the limit: at once).
          await new Promise((resolve) => socket.once('close', resolve));
        } catch {
          // refused or reset before it connected: an attempt all the same
        }
      }
    };
    const attack = Promise.all(Array.from({ length: IN_FLIGHT }, attacker)).finally(() => (stop = true));
    const probes: (number | string)[] = [];
    while (!stop) {
      probes.push(await healthFrom(app, BYSTANDER));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await attack;
    assert.ok(probes.length >= 5, `${probes.length} probes`);
    assert.deepEqual(
      probes.filter((status) => status !== 200),
      [],
      `${probes.length} probes during ${ATTEMPTS} attempts`,
    );
  });
});
