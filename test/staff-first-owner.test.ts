import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { startTestApp } from './helpers/app.ts';

// The first setup from a terminal: `npm run staff:create-owner -- --email … --name …` creates an
// owner in the store the configuration names, the password read from stdin (or, at a terminal,
// typed without echo), never from the command line; then the owner signs in to the service.

const ROOT = join(import.meta.dirname, '..');
let dir: string;
let databaseUrl: string;

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'tenpo-first-owner-'));
  databaseUrl = `sqlite:${join(dir, 'tenpo.db')}`;
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the command as npm would, `stdin` piped in; its exit code and what it printed. */
function createOwner(args: string[], stdin: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['scripts/staff-create-owner.ts', ...args], {
      cwd: ROOT,
      // No .env in the repository root is read over these: the test's own store.
      env: { PATH: process.env.PATH, DATABASE_URL: databaseUrl, PREORDER_API_TOKEN: 'first-owner-test-token-0123456789' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
    child.stdin.end(stdin);
  });
}

test('creates an owner from the password on stdin, who then signs in; refuses what the API refuses, saying why', async () => {
  const password = 'the very first password';
  const made = await createOwner(['--email', 'Tencho@Example.jp', '--name', '店長 一郎'], `${password}\n`);
  assert.equal(made.code, 0, made.out);
  assert.match(made.out, /^tenpo: owner Tencho@Example\.jp created \(stf_[0-9a-f-]{36}\); sign in at http:\/\/localhost:8787\/admin\n$/);

  for (const [args, stdin, said] of [
    [
      ['--email', 'tencho@example.jp', '--name', '二人目'],
      `${password}\n`,
      /a staff account with the address tencho@example\.jp exists already/,
    ],
    [['--email', 'short@example.jp', '--name', '短い'], 'too short\n', /password must be 12 to 200 characters/],
    [['--email', 'spaces@example.jp', '--name', '空白'], `${' '.repeat(12)}\n`, /password must not be only spaces/],
    [['--email', 'same@example.jp', '--name', '同じ'], 'same@example.jp\n', /password must not be the account’s email address/],
    [['--email', 'not an address', '--name', '誰か'], `${password}\n`, /email must be a valid address/],
    [['--email', 'noname@example.jp'], `${password}\n`, /usage: npm run staff:create-owner/],
    [['--email', 'x@example.jp', '--name', 'x', '--password', password], '', /Unknown option '--password'/],
  ] as const) {
    const refused = await createOwner([...args], stdin);
    assert.equal(refused.code, 1, refused.out);
    assert.match(refused.out, said);
    assert.ok(!refused.out.includes(password), 'the password is never printed');
  }

  const app = await startTestApp({ env: { DATABASE_URL: databaseUrl } });
  try {
    const { staff } = (await app.call('/api/admin/staff/list', {})).success();
    assert.deepEqual(
      staff.map((account) => [account.email, account.name, account.role]),
      [['Tencho@Example.jp', '店長 一郎', 'owner']],
    );
    const signedIn = await app.request('/api/admin/session', {
      method: 'POST',
      body: JSON.stringify({ email: 'tencho@example.jp', password }),
    });
    assert.equal((await app.read('/api/admin/session', signedIn)).success().staff.role, 'owner');
  } finally {
    await app.close();
  }
});
