import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { connect } from 'node:net';
import { createHash } from 'node:crypto';
import { basename, join } from 'node:path';
import { describe, test } from 'node:test';
import { builtCodeFile } from '../src/serving/bundle/load-bundle.ts';
import { serviceCode } from '../src/serving/bundle/service-manifest.ts';
import { freePort } from './helpers/ports.ts';
import { launchServiceProcess, startServiceProcess } from './helpers/service-process.ts';
import { waitUntil } from './helpers/wait.ts';

// `node src/main.ts` as an operator runs it: what it prints and how it exits.

const dir = mkdtempSync(join(tmpdir(), 'tenpo-startup-'));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the service with env until it exits, or until `until` sees its output (then SIGTERM). */
async function runService(env: Record<string, string>, until?: (stdout: string) => boolean): Promise<Run> {
  const service = await launchServiceProcess({ env: { DATABASE_URL: `sqlite:${join(dir, `${Math.random()}.db`)}`, ...env } });
  if (until) {
    await waitUntil(() => until(service.stdout) || service.child.exitCode !== null, {
      timeoutMs: 20_000,
      what: 'the expected output or an exit',
    });
    await service.stop();
  }
  const { code } = await service.exited;
  return { code, stdout: service.stdout, stderr: service.stderr };
}

/** What production requires besides its secrets: where customers reach tenpo and the storefront. */
const PRODUCTION_URLS = { PUBLIC_BASE_URL: 'https://tenpo.shop.example', STOREFRONT_URL: 'https://shop.example' };

describe('configuration errors stop the start with one line naming the variable', () => {
  const cases: [Record<string, string>, RegExp][] = [
    [{ PORT: 'eighty' }, /^tenpo: configuration error: PORT must be an integer/],
    [{ DATABASE_URL: 'mongodb://x' }, /^tenpo: configuration error: DATABASE_URL must be/],
    [{ APP_ENV: 'production', ...PRODUCTION_URLS }, /^tenpo: configuration error: PREORDER_API_TOKEN \(or ADMIN_API_TOKEN\) is required/],
    [
      { APP_ENV: 'production', PREORDER_API_TOKEN: 'x', ...PRODUCTION_URLS },
      /^tenpo: configuration error: PREORDER_API_TOKEN must be at least 32 characters when APP_ENV is production$/,
    ],
    [
      { APP_ENV: 'production', PREORDER_API_TOKEN: 'a-production-token-of-32-characters', UNSUBSCRIBE_SECRET: 'short', ...PRODUCTION_URLS },
      /^tenpo: configuration error: UNSUBSCRIBE_SECRET must be at least 32 characters/,
    ],
    [
      {
        APP_ENV: 'production',
        PREORDER_API_TOKEN: 'a-production-token-of-32-characters',
        ...PRODUCTION_URLS,
        PUBLIC_BASE_URL: 'http://tenpo.shop.example',
      },
      /^tenpo: configuration error: PUBLIC_BASE_URL must be an https URL when APP_ENV is production: /,
    ],
    [
      { NODE_ENV: 'production', APP_ENV: 'development' },
      /^tenpo: configuration error: APP_ENV is development but NODE_ENV is production: set APP_ENV to production/,
    ],
    [
      { PREVIEW_ORIGIN_PATTERN: 'https://([a-z]+)+\\.example' },
      /^tenpo: configuration error: PREVIEW_ORIGIN_PATTERN must not repeat a group holding a repetition/,
    ],
  ];
  for (const [env, message] of cases) {
    test(
      Object.entries(env)
        .map(([k, v]) => `${k}=${v}`)
        .join(' '),
      async () => {
        const run = await runService(env);
        assert.equal(run.code, 1);
        const lines = run.stderr.trim().split('\n');
        assert.equal(lines.length, 1, run.stderr);
        assert.match(lines[0]!, message);
      },
    );
  }
});

test('a start with several bad variables names every one, one line each, and nothing else', async () => {
  const run = await runService({
    PORT: 'eighty',
    LOG_LEVEL: 'loud',
    SMTP_URL: 'http://user:pass@mail.example',
    RATE_LIMIT_PER_MINUTE: '-1',
    APP_ENV: 'production',
    PREORDER_API_TOKEN: 'short',
    PUBLIC_BASE_URL: 'http://tenpo.shop.example',
  });
  assert.equal(run.code, 1);
  assert.equal(run.stdout, '');
  const named = run.stderr
    .trim()
    .split('\n')
    .map((line) => /^tenpo: configuration error: ([A-Z_]+) /.exec(line)?.[1] ?? line);
  assert.deepEqual(named.sort(), [
    'LOG_LEVEL',
    'PORT',
    'PREORDER_API_TOKEN',
    'PUBLIC_BASE_URL',
    'RATE_LIMIT_PER_MINUTE',
    'SMTP_URL',
    'STOREFRONT_URL',
  ]);
  assert.ok(!run.stderr.includes('user:pass'), 'a secret variable is named, never echoed');
});

test('NODE_ENV=production alone starts as production: it refuses what production requires, and never runs as development', async () => {
  const run = await runService({ NODE_ENV: 'production' });
  assert.equal(run.code, 1);
  assert.match(
    run.stderr,
    /^tenpo: configuration error: PREORDER_API_TOKEN \(or ADMIN_API_TOKEN\) is required when APP_ENV is production$/m,
  );
  assert.match(run.stderr, /^tenpo: configuration error: PUBLIC_BASE_URL is required when APP_ENV is production: /m);
  assert.match(run.stderr, /^tenpo: configuration error: STOREFRONT_URL is required when APP_ENV is production: /m);

  const token = 'a-production-token-of-32-characters';
  const started = await runService(
    { NODE_ENV: 'production', PREORDER_API_TOKEN: token, ...PRODUCTION_URLS, PORT: String(await freePort()) },
    (out) => out.includes('tenpo is listening'),
  );
  const listening = started.stdout.split('\n').find((line) => line.includes('tenpo is listening'))!;
  assert.equal((JSON.parse(listening) as { environment: string }).environment, 'production');
  assert.equal((JSON.parse(listening) as { publicBaseUrl: string }).publicBaseUrl, PRODUCTION_URLS.PUBLIC_BASE_URL);
});

test('a broken catalog stops the start naming the product and field', async () => {
  const catalog = join(dir, 'catalog.json');
  writeFileSync(
    catalog,
    JSON.stringify([{ slug: 'ok-one', name: 'x', brand: 'b', description: '', imgSrc: '/i', tags: [], spec: { width: 'wide' } }]),
  );
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

test('without a token in development one is generated and kept beside the store; the log names the file, never the token', async () => {
  const store = mkdtempSync(join(dir, 'kept-'));
  const service = await startServiceProcess({ env: { DATABASE_URL: `sqlite:${join(store, 'dev.db')}` } });
  const file = join(store, 'development-admin-token');
  const token = readFileSync(file, 'utf8').trim();
  assert.equal(statSync(file).mode & 0o777, 0o600, 'readable by its owner only');
  assert.ok(!service.stdout.includes(token), 'stdout is no terminal: a log collector may keep it');
  const named = service.logs().find((line) => String(line.msg).startsWith('no PREORDER_API_TOKEN set'));
  assert.deepEqual([named?.msg, named?.file], [`no PREORDER_API_TOKEN set; admin token kept in ${file}`, file]);
  const signedIn = { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: '{}' };
  assert.equal((await service.request('/api/admin-dashboard-stats', signedIn)).status, 200);

  await service.stop();
  await service.restart();
  assert.equal((await service.request('/api/admin-dashboard-stats', signedIn)).status, 200, 'the console stays signed in');
  await service.stop();
});

test('on a terminal the generated token is shown in development only; preview keeps its own and shows it nowhere', async () => {
  const onTerminal = (command: string[]) => ['script', '--quiet', '--return', '--command', command.join(' '), '/dev/null'];
  const shown: Record<string, string> = {};
  for (const appEnv of ['development', 'preview']) {
    const store = mkdtempSync(join(dir, `${appEnv}-`));
    const service = await startServiceProcess({
      env: { APP_ENV: appEnv, DATABASE_URL: `sqlite:${join(store, 'tenpo.db')}` },
      wrap: onTerminal,
    });
    await service.stop();
    const file = join(store, `${appEnv}-admin-token`);
    const token = readFileSync(file, 'utf8').trim();
    assert.equal(statSync(file).mode & 0o777, 0o600);
    shown[appEnv] =
      service.stdout.split(token).length - 1 === 1 && service.stdout.includes(`admin token kept in ${file}: ${token}`)
        ? 'once'
        : service.stdout.includes(token)
          ? 'elsewhere'
          : 'nowhere';
  }
  assert.deepEqual(shown, { development: 'once', preview: 'nowhere' });
});

test('a development token that cannot be kept stops the start naming the file', async () => {
  const blocked = join(dir, 'not-a-directory');
  writeFileSync(blocked, '');
  const run = await runService({ DATABASE_URL: `sqlite:${join(blocked, 'dev.db')}`, PORT: String(await freePort()) });
  assert.equal(run.code, 1);
  assert.match(
    run.stderr.trim(),
    /^tenpo: configuration error: PREORDER_API_TOKEN is unset and the generated token cannot be kept in .*not-a-directory\/development-admin-token: /,
  );
});

test('SIGTERM stops it cleanly, logging the shutdown', async () => {
  const run = await runService({ PORT: String(await freePort()), PREORDER_API_TOKEN: 'configured-token' }, (out) =>
    out.includes('tenpo is listening'),
  );
  assert.equal(run.code, 0);
  const messages = run.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { msg: string }).msg);
  assert.deepEqual(messages.slice(-2), ['shutting down', 'stopped']);
  assert.ok(!run.stdout.includes('configured-token'));
});

test('SIGTERM lets a request in flight finish, refuses new connections, then exits 0', async () => {
  const service = await startServiceProcess({ env: { DATABASE_URL: `sqlite:${join(dir, 'drain.db')}`, PREORDER_API_TOKEN: 't' } });
  const { port } = service;

  const body = JSON.stringify({ name: '山田 太郎', email: 'taro@example.jp', productSlug: 'kumo-vco-2' });
  const socket = connect(port, '127.0.0.1');
  let response = '';
  socket.on('data', (chunk) => (response += chunk));
  const answered = new Promise<void>((resolve) => socket.on('end', resolve));
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  const head = `POST /api/reservation HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`;
  socket.write(head + body.slice(0, 10));
  await new Promise((resolve) => setTimeout(resolve, 200));

  const exited = service.stop();
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
  assert.equal((await exited).code, 0);
});

test('npm start runs the service from its bundle, and `node src/main.ts` runs the same bundle while it is current', async () => {
  assert.match(npmStart(), /^node (--\S+ )*build\/service\/main\.js$/);
  for (const entry of ['build/service/main.js', 'src/main.ts']) {
    const service = await startServiceProcess({ env: { DATABASE_URL: `sqlite:${join(dir, `${Math.random()}.db`)}` }, entry });
    await service.stop();
    const listening = service.logs().find((line) => line.msg === 'tenpo is listening');
    assert.equal(listening?.code, 'build/service', `${entry}: ${service.stdout}`);
  }
});

test('under the command npm start runs, the young generation of V8 stays within 8 MB however many searches come', async () => {
  const flags = npmStart()
    .split(' ')
    .filter((word) => word.startsWith('--'));
  const service = await startServiceProcess({
    env: {
      DATABASE_URL: `sqlite:${join(dir, `${Math.random()}.db`)}`,
      PREORDER_API_TOKEN: 'young-generation-token',
      RATE_LIMIT_PER_MINUTE: '0',
    },
    entry: 'build/service/main.js',
    wrap: ([node, ...rest]) => [node!, ...flags, ...rest],
  });
  try {
    // Distinct searches, as a busy shop's visitors type them, 8 at a time: V8 would double its young
    // generation to 32 MB under them.
    const words = ['モジュール', 'フィルター', 'オシレーター', 'ケース', 'ディレイ', 'sequencer', 'vco', '電源'];
    for (let round = 0; round < 400; round++) {
      await Promise.all(
        words.map(async (word, i) => {
          const response = await fetch(
            `${service.url}/api/search?q=${encodeURIComponent(`${word} ${words[(round + i) % 8]}`)}&excerpt_length=${50 + round}`,
          );
          await response.arrayBuffer();
        }),
      );
    }
    const metrics = await (await fetch(`${service.url}/metrics`, { headers: { authorization: 'Bearer young-generation-token' } })).text();
    const young = Number(/^nodejs_heap_space_size_total_bytes\{space="new"\} (\d+)/m.exec(metrics)?.[1]);
    assert.ok(young > 0 && young <= 8 * 1024 * 1024, `young generation ${young} bytes`);
  } finally {
    await service.stop();
  }
});

test('a start from the bundle answers /healthz without loading undici or node:http2, which web Requests and Responses would load', async () => {
  const service = await startServiceProcess({
    env: { DATABASE_URL: `sqlite:${join(dir, `${Math.random()}.db`)}` },
    entry: 'build/service/main.js',
    wrap: ([node, ...rest]) => [node!, '--require', join(import.meta.dirname, 'fixtures', 'builtins-at-exit.cjs'), ...rest],
  });
  await service.stop();
  const loaded = /^builtins: (.*)$/m.exec(service.stderr)?.[1]?.split(' ') ?? [];
  assert.ok(loaded.includes('http'), service.stderr);
  assert.deepEqual(
    loaded.filter((name) => /undici|http2/.test(name)),
    [],
  );
});

test('a start with an empty compile cache runs with the code the build kept; one the cache holds is used first, and replaced if V8 refuses it', async () => {
  const cache = mkdtempSync(join(tmpdir(), 'tenpo-compile-cache-'));
  const start = async () => {
    const service = await startServiceProcess({
      env: { DATABASE_URL: `sqlite:${join(dir, 'kept-code.db')}`, NODE_COMPILE_CACHE: cache },
      entry: 'build/service/main.js',
    });
    await service.stop();
  };
  const kept = () =>
    readdirSync(cache, { recursive: true, encoding: 'utf8' })
      .filter((name) => basename(name).startsWith('tenpo-service-'))
      .map((name) => join(cache, name));

  // The build's code, accepted: nothing compiled at this start is kept.
  const code = serviceCode();
  assert.ok(code.bundle && statSync(builtCodeFile(code.bundle, code.bundleHash)).size > 100_000, 'npm run build kept the code of a start');
  await start();
  assert.deepEqual(kept(), []);

  // Code in the cache for this bundle that V8 refuses, an earlier build's at this place, and another checkout's.
  const [folder] = readdirSync(cache) as [string]; // Node's, for its version and flags, made by that start
  const place = `tenpo-service-${createHash('sha256').update(code.bundle).digest('hex').slice(0, 12)}-`;
  const file = join(cache, folder, place + code.bundleHash);
  const earlier = join(cache, folder, `${place}an-earlier-build`);
  const elsewhere = join(cache, folder, 'tenpo-service-another-checkout-its-build');
  for (const path of [file, earlier, elsewhere]) writeFileSync(path, 'not code');
  await start();
  assert.ok(statSync(file).size > 100_000, 'the refused code is replaced by the code of this start');
  assert.deepEqual(kept().sort(), [elsewhere, file].sort(), "an earlier build's code is deleted, another checkout's kept");
  const written = statSync(file).mtimeMs;
  await start();
  // Found and accepted: not written again.
  assert.equal(statSync(file).mtimeMs, written);
});

/** The command `npm start` runs, as package.json says. */
function npmStart(): string {
  return (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } }).scripts.start;
}
