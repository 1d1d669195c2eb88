import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import packageJson from '../package.json' with { type: 'json' };
import { enginesRange } from '../src/node-versions.ts';
import { launchServiceProcess, type ServiceProcess } from './helpers/service-process.ts';

// What a server gets: `npm run release` writes release/, which is installed with `npm ci --omit=dev`
// into an empty directory with an empty npm cache (so from the registry, as on a fresh machine), and
// started the way the systemd unit in docs/deploy/ starts it, by a Node of the machine's own (here
// the one npm brought, a supported version) rather than from the project's node_modules.

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..');
/** The Node the release runs on: npm's `node` package, standing for the machine's own. */
const NODE = join(ROOT, 'node_modules', 'node', 'bin', 'node');
const UNIT = readFileSync(join(ROOT, 'docs', 'deploy', 'tenpo.service'), 'utf8');
const PRODUCTION = {
  APP_ENV: 'production',
  PREORDER_API_TOKEN: 'a-production-admin-token-of-32-characters',
  UNSUBSCRIBE_SECRET: 'a-production-unsubscribe-secret-of-32-chars',
  PUBLIC_BASE_URL: 'https://tenpo.shop.example',
  STOREFRONT_URL: 'https://shop.example',
};

const dir = mkdtempSync(join(tmpdir(), 'tenpo-release-'));
const release = join(dir, 'srv', 'tenpo', 'current');
let written: { stdout: string; stderr: string };
let installed: { stdout: string; stderr: string };
let service: ServiceProcess | undefined;

/** The unit's `Key=value` lines for `key`. */
const unitValues = (key: string) => [...UNIT.matchAll(new RegExp(`^${key}=(.*)$`, 'gm'))].map((m) => m[1]!);

before(async () => {
  written = await run(NODE, ['scripts/release.ts', release], { cwd: ROOT });
  installed = await run('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund'], {
    cwd: release,
    env: { ...process.env, npm_config_cache: mkdtempSync(join(tmpdir(), 'tenpo-npm-cache-')), npm_config_update_notifier: 'false' },
  });
});

after(async () => {
  await service?.stop();
});

test('the release is written and installed without a warning', () => {
  assert.doesNotMatch(written.stderr, /warn/i, written.stderr);
  assert.doesNotMatch(installed.stderr, /warn/i, installed.stderr);
});

test('the release holds the built service, its production dependencies only, and no source', (t) => {
  const manifest = JSON.parse(readFileSync(join(release, 'package.json'), 'utf8')) as Record<string, unknown>;
  assert.deepEqual(manifest.dependencies, packageJson.dependencies);
  assert.equal(manifest.devDependencies, undefined);
  assert.deepEqual(manifest.engines, { node: enginesRange() });
  assert.deepEqual(readdirSync(release).sort(), [
    '.env.example',
    'build',
    'content',
    'data',
    'node_modules',
    'package-lock.json',
    'package.json',
  ]);
  for (const name of Object.keys(packageJson.devDependencies)) {
    assert.ok(!existsSync(join(release, 'node_modules', name)), `${name}, a dev dependency, is not installed`);
  }
  // Nor is one reachable above it, as the project's node_modules would be.
  for (let up = dirname(release); up !== dirname(up); up = dirname(up)) assert.ok(!existsSync(join(up, 'node_modules')), up);
  const kib = Math.round(diskUsage(release) / 1024);
  assert.ok(kib < 80 * 1024, `installed: ${kib} KiB`);
  t.diagnostic(`installed: ${kib} KiB, node_modules ${Math.round(diskUsage(join(release, 'node_modules')) / 1024)} KiB`);
});

test("the systemd unit's ExecStart is npm start's command, run from the release's directory", () => {
  const [execStart] = unitValues('ExecStart');
  assert.equal(execStart, `/usr/bin/${packageJson.scripts.start}`);
  assert.deepEqual(unitValues('WorkingDirectory'), ['/srv/tenpo/current']);
});

test("started by the unit's ExecStart with its cache directory empty, it runs with the code the release holds and answers /healthz, a catalog page, a search and the console", async () => {
  const [node, ...args] = unitValues('ExecStart')[0]!.split(' ');
  assert.equal(node, '/usr/bin/node');
  const environment = Object.fromEntries(unitValues('Environment').map((line) => line.split(/=(.*)/s).slice(0, 2) as [string, string]));
  // The unit's cache directory, which systemd makes, empty as at the release's first start.
  assert.deepEqual([environment.NODE_COMPILE_CACHE, unitValues('CacheDirectory')], ['/var/cache/tenpo', ['tenpo']]);
  const cache = mkdtempSync(join(dir, 'cache-'));
  service = await launchServiceProcess({
    root: release,
    wrap: () => [NODE, ...args],
    env: { ...environment, NODE_COMPILE_CACHE: cache, ...PRODUCTION, DATABASE_URL: `sqlite:${join(dir, 'var', 'tenpo.db')}` },
  });
  await service.ready();
  const health = (await (await service.request('/healthz')).json()) as { status: string; environment: string };
  assert.deepEqual([health.status, health.environment], ['ok', 'production']);
  const catalog = (await (await service.request('/api/products?tag=vco&pageSize=5')).json()) as { products: unknown[] };
  assert.ok(catalog.products.length > 0);
  const search = (await (await service.request(`/api/search?q=${encodeURIComponent('モジュラー')}`)).json()) as { results: unknown[] };
  assert.ok(search.results.length > 0);
  assert.equal((await service.request('/admin')).status, 200);

  const listening = service.logs().find((line) => line.msg === 'tenpo is listening');
  assert.equal(listening?.code, 'build/service', 'it runs the bundle, with no source to compare it with');
  assert.ok(!service.logs().some((line) => String(line.msg).includes('no prebuilt search index')), 'the prebuilt index is used');
  assert.equal((await service.stop()).code, 0);
  const compiled = readdirSync(cache, { recursive: true, encoding: 'utf8' }).filter((name) => basename(name).startsWith('tenpo-service-'));
  assert.deepEqual(compiled, [], "it ran with the code the release holds, V8's for its bundle: it had nothing to keep");
});

test("the store's commands run from the release as its package.json names them", async () => {
  const manifest = JSON.parse(readFileSync(join(release, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  assert.equal(manifest.scripts['db:status'], 'node build/service/db.js status');
  const { stdout } = await run(NODE, ['build/service/db.js', 'status'], {
    cwd: release,
    env: { PATH: process.env.PATH, DATABASE_URL: `sqlite:${join(dir, 'var', 'tenpo.db')}` },
  });
  assert.match(stdout, /^tenpo: \d+ applied, 0 pending$/m);
});

test('a checkout installed without its dev dependencies says in one line to deploy the release instead', async () => {
  const checkout = mkdtempSync(join(tmpdir(), 'tenpo-checkout-'));
  mkdirSync(join(checkout, 'scripts'));
  copyFileSync(join(ROOT, 'scripts', 'prepare.mjs'), join(checkout, 'scripts', 'prepare.mjs'));
  const prepared = await run(NODE, ['scripts/prepare.mjs'], { cwd: checkout }).then(
    () => assert.fail('prepare succeeded without the dev dependencies'),
    (error: { code: number; stderr: string }) => error,
  );
  assert.equal(prepared.code, 1);
  assert.match(
    prepared.stderr,
    /^tenpo: a checkout installed without its dev dependencies cannot build the service\. .*npm run release.*\n$/,
  );
  assert.equal(prepared.stderr.split('\n').length, 2, 'one line');
});

function diskUsage(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.blocks * 512;
  return readdirSync(path).reduce((sum, name) => sum + diskUsage(join(path, name)), stat.blocks * 512);
}
