import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { SUPPORTED_NODE } from '../src/node-versions.ts';

// What `npm start` runs, started by a Node tenpo does not run on (the machine's own, often older than
// the one npm brings): it must stop before anything else with one line naming the Node it found and
// the ones it needs, not die linking a module.

const ROOT = join(import.meta.dirname, '..');

/** A Node on PATH (not npm's) whose major tenpo does not support, if the machine has one. */
function unsupportedNode(): { path: string; version: string } | undefined {
  const found = spawnSync('which', ['-a', 'node'], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean);
  for (const path of [...found, '/usr/bin/node']) {
    let version: string;
    try {
      version = execFileSync(path, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim();
    } catch {
      continue;
    }
    if (!SUPPORTED_NODE.includes(Number(version.split('.')[0]))) return { path, version };
  }
  return undefined;
}

const other = unsupportedNode();

test(
  'on an unsupported Node the start stops with one line naming the version found and those supported',
  { skip: other ? false : 'no unsupported Node on this machine' },
  () => {
    const run = spawnSync(other!.path, ['--max-semi-space-size=2', '--v8-pool-size=1', 'build/service/main.js'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, DATABASE_URL: 'sqlite::memory:', PORT: '0' },
      timeout: 10_000,
    });
    assert.equal(run.status, 1, run.stderr);
    assert.equal(run.stdout, '');
    assert.equal(run.stderr, `tenpo: Node ${other!.version} found; tenpo runs on Node ${SUPPORTED_NODE.join(' or ')}\n`);
  },
);
