import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { startTestApp, type TestApp } from './helpers/app.ts';

// The README's curl examples, run as written (only the address is the test service's): a reader
// copies them first, so each must answer 200 with something found. A raw non-ASCII query in a URL
// is refused by Node before it reaches the service, which is why they pass Japanese words with
// --data-urlencode.

const run = promisify(execFile);
const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const EXAMPLES = README.split('\n').filter((line) => line.startsWith('curl '));

describe("the README's examples", () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(async () => {
    await app?.close();
  });

  test('there are examples to run', () => {
    assert.ok(EXAMPLES.length >= 2, EXAMPLES.join('\n'));
  });

  for (const example of EXAMPLES) {
    test(example, async () => {
      const command = `${example.replaceAll('http://localhost:8787', app.url)} --silent --show-error --write-out '\\n%{http_code}'`;
      const { stdout } = await run('sh', ['-c', command]);
      const status = stdout.slice(stdout.lastIndexOf('\n') + 1);
      const body = JSON.parse(stdout.slice(0, stdout.lastIndexOf('\n'))) as { products?: unknown[]; results?: unknown[] };
      assert.equal(status, '200', stdout);
      assert.ok((body.products ?? body.results ?? []).length > 0, `nothing found: ${stdout}`);
    });
  }
});
