import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { connect } from 'node:net';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { freePort } from './helpers/ports.ts';

// `node src/main.ts` as an operator runs it: what it prints and how it exits.

const dir = mkdtempSync(join(tmpdir(), 'tenpo-startup-'));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the service with env until it exits, or until `until` sees its output (then SIGTERM). */
function runService(env: Record<string, string>, until?: (stdout: string) => boolean): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['src/main.ts'], {
      env: { PATH: process.env.PATH, DATABASE_URL: `sqlite:${join(dir, `${Math.random()}.db`)}`, HOST: '127.0.0.1', ...env },
    });
    let stdout = '';
    let stderr = '';
    let signalled = false;
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      if (!signalled && until?.(stdout)) {
        signalled = true;
        child.kill('SIGTERM');
      }
    });
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('configuration errors stop the start with one line naming the variable', () => {
  const cases: [Record<string, string>, RegExp][] = [
    [{ PORT: 'eighty' }, /^tenpo: configuration error: PORT must be an integer/],
    [{ DATABASE_URL: 'mongodb://x' }, /^tenpo: configuration error: DATABASE_URL must be/],
    [{ APP_ENV: 'production' }, /^tenpo: configuration error: PREORDER_API_TOKEN \(or ADMIN_API_TOKEN\) is required/],
  ];
  for (const [env, message] of cases) {
    test(Object.entries(env).map(([k, v]) => `${k}=${v}`).join(' '), async () => {
      const run = await runService(env);
      assert.equal(run.code, 1);
      const lines = run.stderr.trim().split('\n');
      assert.equal(lines.length, 1, run.stderr);
      assert.match(lines[0]!, message);
    });
  }
});

test('a broken catalog stops the start naming the product and field', async () => {
  const catalog = join(dir, 'catalog.json');
  writeFileSync(catalog, JSON.stringify([{ slug: 'ok-one', name: 'x', brand: 'b', description: '', imgSrc: '/i', tags: [], spec: { width: 'wide' } }]));
  const run = await runService({ CATALOG_PATH: catalog, PORT: String(await freePort()) });
  assert.equal(run.code, 1);
  assert.match(run.stderr, /tenpo: cannot start: catalog .*product #1 \("ok-one"\): field "spec\.width"/);
});

test('an unreachable PostgreSQL stops the start with a clear error and no secret', async () => {
  const port = await freePort();
  const run = await runService({ DATABASE_URL: `postgres://shop:s3cret-pass@127.0.0.1:${port}/shop`, PORT: String(await freePort()) });
  assert.equal(run.code, 1);
  assert.match(run.stderr, /tenpo: cannot start: .*(ECONNREFUSED|connect)/);
  assert.ok(!`${run.stdout}${run.stderr}`.includes('s3cret-pass'));
});

test('without a token in development one is generated and printed exactly once', async () => {
  const run = await runService({ PORT: String(await freePort()) }, (out) => out.includes('tenpo is listening'));
  assert.equal(run.code, 0);
  const printed = run.stdout.match(/admin token for this run: (\S+)/g) ?? [];
  assert.equal(printed.length, 1);
  const token = printed[0]!.split(': ')[1]!;
  assert.equal(run.stdout.split(token).length - 1, 1, 'the token appears nowhere else');
});

test('SIGTERM stops it cleanly, logging the shutdown', async () => {
  const run = await runService({ PORT: String(await freePort()), PREORDER_API_TOKEN: 'configured-token' }, (out) =>
    out.includes('tenpo is listening'),
  );
  assert.equal(run.code, 0);
  const messages = run.stdout.split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { msg: string }).msg);
  assert.deepEqual(messages.slice(-2), ['shutting down', 'stopped']);
  assert.ok(!run.stdout.includes('configured-token'));
});

test('SIGTERM lets a request in flight finish, refuses new connections, then exits 0', async () => {
  const port = await freePort();
  const child = spawn(process.execPath, ['src/main.ts'], {
    env: { PATH: process.env.PATH, DATABASE_URL: `sqlite:${join(dir, 'drain.db')}`, HOST: '127.0.0.1', PORT: String(port), PREORDER_API_TOKEN: 't' },
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  let stdout = '';
  await new Promise<void>((resolve) =>
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      if (stdout.includes('tenpo is listening')) resolve();
    }),
  );

  const body = JSON.stringify({ name: '山田 太郎', email: 'taro@example.jp', productSlug: 'kumo-vco-2' });
  const socket = connect(port, '127.0.0.1');
  let response = '';
  socket.on('data', (chunk) => (response += chunk));
  const answered = new Promise<void>((resolve) => socket.on('end', resolve));
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  const head = `POST /api/reservation HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`;
  socket.write(head + body.slice(0, 10));
  await new Promise((resolve) => setTimeout(resolve, 200));

  child.kill('SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, 300));
  const refused = await new Promise<boolean>((resolve) => {
    const probe = connect(port, '127.0.0.1');
    probe.once('connect', () => (probe.destroy(), resolve(false)));
    probe.once('error', () => resolve(true));
  });
  assert.ok(refused, 'new connections are refused while draining');

  socket.write(body.slice(10));
  await answered;
  assert.match(response, /^HTTP\/1\.1 200 /);
  assert.match(response, /"reservationId":"res_[0-9a-f-]{36}"/);
  assert.equal(await exited, 0);
});
