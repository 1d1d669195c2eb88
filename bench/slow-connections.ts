import { connect } from 'node:net';
import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { percentile, printTable, verdict } from './lib/report.ts';
import { startTenpo, type TenpoProcess } from './lib/tenpo-process.ts';

// Slowloris from one address: 20,000 connections attempted from 127.0.0.1, 1,000 at a time, each
// sending the start of a request's headers and never finishing them, against the service as its own
// process with its defaults (MAX_CONNECTIONS_PER_CLIENT 100: the rest are closed at once; headers not
// complete within 10 s: closed). Meanwhile another address (127.0.0.2) asks /healthz one request at a
// time, each on a connection of its own: its p99 says whether anybody else is still served.

const PORT = 18895;
const ATTACKER = '127.0.0.1';
const BYSTANDER = '127.0.0.2';
const ATTEMPTS = 20_000;
const IN_FLIGHT = 1_000;

export async function run(): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tenpo-bench-slow-'));
  const tenpo = await startTenpo({ DATABASE_URL: `sqlite:${join(dir, 'tenpo.db')}`, LOG_LEVEL: 'warn' }, { port: PORT });
  try {
    const quiet = await probe(tenpo, 200);
    const started = performance.now();
    let attempted = 0;
    const outcomes = new Map<string, number>();
    let done = false;
    const attacker = async () => {
      while (attempted < ATTEMPTS) {
        attempted += 1;
        const outcome = await holdSlowConnection(tenpo);
        outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
      }
    };
    const attack = Promise.all(Array.from({ length: IN_FLIGHT }, attacker)).finally(() => (done = true));
    const during: number[] = [];
    const failures: string[] = [];
    while (!done) {
      const answer = await healthz(tenpo);
      if (typeof answer === 'number') during.push(answer);
      else failures.push(answer);
    }
    await attack;
    const ms = Math.round(performance.now() - started);
    const rows = [
      {
        '/healthz from another address': 'quiet',
        answers: quiet.length,
        'p50 ms': percentile(quiet, 0.5),
        'p99 ms': percentile(quiet, 0.99),
        'max ms': percentile(quiet, 1),
      },
      {
        '/healthz from another address': `during ${ATTEMPTS.toLocaleString('en-US')} attempts (${ms} ms)`,
        answers: during.length,
        'p50 ms': percentile(during, 0.5),
        'p99 ms': percentile(during, 0.99),
        'max ms': percentile(during, 1),
      },
    ];
    printTable('Slowloris from one address against the service (its own process, defaults)', rows);
    console.log(`the attempts: ${[...outcomes].map(([outcome, count]) => `${count.toLocaleString('en-US')} ${outcome}`).join(', ')}`);
    if (failures.length > 0) console.log(`unanswered: ${failures.slice(0, 5).join(', ')}${failures.length > 5 ? ', …' : ''}`);
    const p99 = percentile(during, 0.99);
    return [
      verdict(
        `/healthz from another address while ${ATTEMPTS.toLocaleString('en-US')} slow connections are attempted from one`,
        failures.length === 0 && p99 < 50,
        `${during.length} answered, ${failures.length} not; p99 ${p99} ms`,
        'every probe answered, p99 < 50 ms',
      ),
    ];
  } finally {
    await tenpo.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Opens a connection that starts a request and never finishes it, held until the service closes it:
 * `held` when it stayed open past a second, `closed` when it was closed sooner, or the error that
 * stopped it connecting.
 */
function holdSlowConnection(tenpo: TenpoProcess): Promise<string> {
  const { port } = new URL(tenpo.url);
  return new Promise((resolve) => {
    let connectedAt = 0;
    let failure = '';
    const socket = connect({ host: '127.0.0.1', port: Number(port), localAddress: ATTACKER });
    socket.once('connect', () => {
      connectedAt = performance.now();
      socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: ');
    });
    socket.on('data', () => {});
    socket.on('error', (error: NodeJS.ErrnoException) => (failure ||= error.code ?? error.message));
    socket.once('close', () =>
      resolve(connectedAt === 0 ? failure || 'not connected' : performance.now() - connectedAt > 1_000 ? 'held' : 'closed'),
    );
  });
}

/** GET /healthz from the bystander on a connection of its own: ms to the answer, or why there was none. */
function healthz(tenpo: TenpoProcess): Promise<number | string> {
  const sent = performance.now();
  return new Promise((resolve) => {
    const req = request(`${tenpo.url}/healthz`, { localAddress: BYSTANDER, agent: false, timeout: 5_000 }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode === 200 ? performance.now() - sent : `status ${res.statusCode}`));
    });
    req.on('timeout', () => req.destroy(new Error('no answer within 5 s')));
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    req.end();
  });
}

async function probe(tenpo: TenpoProcess, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const answer = await healthz(tenpo);
    if (typeof answer === 'number') times.push(answer);
  }
  return times;
}
