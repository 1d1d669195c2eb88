import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { startServiceProcess } from './helpers/service-process.ts';

// A bug that escapes every handler (a throw in a timer, a promise nobody awaits) is logged with its
// stack at fatal level and ends the process with exit code 1, for its supervisor to start a clean
// one, instead of going on in an unknown state or dying with a stack trace on stderr only. The bug is
// injected into the real process with --import: a signal makes it throw, or reject, on demand.

const BUGS = {
  uncaughtException: `process.on('SIGUSR2', () => setImmediate(() => { throw new Error('injected bug: a throw nobody catches'); }));`,
  unhandledRejection: `process.on('SIGUSR2', () => { Promise.reject(new Error('injected bug: a rejection nobody handles')); });`,
};

describe('an error nobody handles', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tenpo-uncaught-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const [event, bug] of Object.entries(BUGS)) {
    test(`${event}: logged at fatal level with its stack, and the process exits with 1`, async () => {
      const service = await startServiceProcess({
        env: {
          DATABASE_URL: `sqlite:${join(dir, `${event}.db`)}`,
          PREORDER_API_TOKEN: 'test-admin-token-0123456789abcdef',
          NODE_OPTIONS: `--import=data:text/javascript,${encodeURIComponent(bug)}`,
        },
      });
      service.child.kill('SIGUSR2');
      const exit = await service.exited;
      assert.deepEqual(exit, { code: 1, signal: null });
      const fatal = service.logs().find((line) => line.level === 60);
      assert.ok(fatal, service.stdout);
      assert.equal(fatal.msg, 'uncaught error: exiting');
      assert.equal(fatal.event, event);
      const err = fatal.err as { message: string; stack: string };
      assert.match(err.message, /^injected bug/);
      assert.match(err.stack, /injected bug/);
      assert.equal(service.stderr, '', 'nothing but the log line: no stack trace on stderr');
    });
  }
});
