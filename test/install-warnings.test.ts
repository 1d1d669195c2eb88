import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import lock from '../package-lock.json' with { type: 'json' };
import packageJson from '../package.json' with { type: 'json' };

// `npm install` on a fresh machine prints nothing the project causes: no dependency's install script
// left unreviewed (npm names each one it skipped), no experimental-feature warning from the build it
// runs (`prepare`), and no engine warning of the project's own (it installs on any Node: npm brings
// the Node its scripts run, so package.json names none; the release's package.json does).

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..');

test('every dependency with an install script is approved or denied in allowScripts', () => {
  const withScripts = Object.entries(lock.packages)
    .filter(([, entry]) => (entry as { hasInstallScript?: boolean }).hasInstallScript)
    .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
  assert.ok(withScripts.length > 0);
  assert.deepEqual(
    withScripts.filter((name) => !Object.hasOwn(packageJson.allowScripts, name)),
    [],
  );
});

test('the project names no engines: its install runs on whatever Node the machine has', () => {
  assert.equal((packageJson as { engines?: unknown }).engines, undefined);
});

test("the build's package step, as npm run build runs it, prints no warning", async () => {
  const step = packageJson.scripts.build.split(' && ').find((command) => command.includes('scripts/build-packages.ts'))!;
  const [node, ...args] = step.split(' ');
  assert.equal(node, 'node');
  const { stderr } = await run(process.execPath, [...args, mkdtempSync(join(tmpdir(), 'tenpo-packages-'))], { cwd: ROOT });
  assert.equal(stderr, '');
});
