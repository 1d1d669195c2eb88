import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, test } from 'node:test';
import { JA } from '../src/http/storefront-texts.ts';
import { ADMIN_TOKEN } from './helpers/app.ts';
import { launchServiceProcess, startServiceProcess } from './helpers/service-process.ts';

// The embedded store when the disk refuses writes: full, or a read-only file. The service must say
// so clearly (the route's envelope to the client, a log line naming the cause to the operator),
// never corrupt the file, and carry on once space is back.

const dir = mkdtempSync(join(tmpdir(), 'tenpo-storage-faults-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const env = (path: string) => ({ DATABASE_URL: `sqlite:${path}`, PREORDER_API_TOKEN: ADMIN_TOKEN, RATE_LIMIT_PER_MINUTE: '0' });
const reservation = (i: number) => ({ name: `客 ${i}`, email: `buyer${i}@example.com`, productSlug: 'kumo-vco-2' });

/** A migrated store, closed cleanly (so its write-ahead log is checkpointed away). */
async function migratedStore(path: string): Promise<void> {
  const service = await startServiceProcess({ env: env(path) });
  assert.equal((await service.stop()).code, 0);
}

function integrityCheck(path: string): string {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return String((db.prepare('pragma integrity_check').get() as { integrity_check: string }).integrity_check);
  } finally {
    db.close();
  }
}

test('a full disk: writes answer the 500 envelope and log the cause, reads go on, nothing is corrupted, and writes resume when space returns', async () => {
  const path = join(dir, 'full.db');
  await migratedStore(path);
  // The file-size limit stands in for a full disk: a write past it fails (EFBIG; SIGXFSZ is ignored,
  // as the shell is told, so the process is not killed) exactly where a full disk's would. The
  // write-ahead log is where writes go, so it gets 128 KiB: a few dozen commits.
  const limitBytes = statSync(path).size + 128 * 1024;
  const service = await startServiceProcess({
    env: env(path),
    wrap: (command) => ['sh', '-c', `trap '' XFSZ; ulimit -S -f ${limitBytes / 512}; exec "$@"`, 'sh', ...command],
  });
  after(() => service.stop('SIGKILL'));

  const reserve = (i: number) => service.request('/api/reservation', { method: 'POST', body: JSON.stringify(reservation(i)) });
  const stored: string[] = [];
  let refused: Response | undefined;
  for (let i = 0; i < 1_000 && !refused; i++) {
    const response = await reserve(i);
    if (response.status === 200) stored.push(((await response.json()) as { reservationId: string }).reservationId);
    else refused = response;
  }
  assert.ok(refused, 'the disk filled up');
  assert.ok(stored.length > 0, 'writes succeeded before it did');
  assert.equal(refused.status, 500);
  assert.deepEqual(await refused.json(), { success: false, error: JA.serverError, code: 'internal_error' });
  const requestId = refused.headers.get('x-request-id');
  await new Promise((resolve) => setTimeout(resolve, 100));
  const logged = service.logs().find((line) => line.reqId === requestId && line.level === 50) as
    { msg: string; err: { message: string } } | undefined;
  assert.equal(logged?.msg, 'request failed');
  assert.match(logged.err.message, /database or disk is full|disk I\/O error/, 'the log names the cause, not a follow-on error');

  // While full: everything that only reads still answers.
  assert.equal((await service.request('/healthz')).status, 200);
  assert.equal((await service.request('/api/products?tag=vco')).status, 200);
  const list = await service.admin('/api/admin-reservations-list', {});
  assert.equal(list.status, 200);
  assert.deepEqual(((await list.json()) as { reservations: { id: string }[] }).reservations.map((r) => r.id).sort(), [...stored].sort());
  assert.equal((await reserve(-1)).status, 500, 'still full');

  // Space returns: lift the limit on the running process. The next write succeeds, no restart.
  execFileSync('prlimit', ['--pid', String(service.child.pid), '--fsize=unlimited']);
  const again = await reserve(10_000);
  assert.equal(again.status, 200);
  stored.push(((await again.json()) as { reservationId: string }).reservationId);

  assert.equal((await service.stop()).code, 0);
  assert.equal(integrityCheck(path), 'ok');
  const db = new DatabaseSync(path, { readOnly: true });
  const rows = db
    .prepare('select id from reservations order by id')
    .all()
    .map((r) => String(r.id));
  const outbox = Number((db.prepare('select count(*) as n from outbox').get() as { n: number }).n);
  db.close();
  assert.deepEqual(rows, [...stored].sort(), 'exactly the reservations answered 200: none half-written');
  assert.equal(outbox, 2 * stored.length, 'and each with both of its messages');
});

for (const [name, directoryMode] of [
  ['in a read-only directory', 0o555],
  ['in a directory it may write', 0o777],
] as const) {
  test(`a read-only database file ${name} stops the start with one line naming the file, and leaves the file untouched`, async () => {
    const storeDir = join(dir, `read-only-${directoryMode.toString(8)}`);
    mkdirSync(storeDir);
    const path = join(storeDir, 'tenpo.db');
    await migratedStore(path);
    chmodSync(path, 0o444);
    chmodSync(storeDir, directoryMode);
    // Root ignores file modes through its capabilities to override them: as root the service runs
    // without those, still root (so it reaches the checkout, wherever it is: a 0700 home or temp dir
    // shuts other accounts out), to whom the 0444 file is then read-only like to anyone.
    const asRoot = userInfo().uid === 0;
    const before = createHash('sha256').update(readFileSync(path)).digest('hex');

    const service = await launchServiceProcess({
      env: env(path),
      wrap: asRoot ? (command) => ['setpriv', '--bounding-set=-dac_override,-dac_read_search', '--', ...command] : undefined,
    });
    const started = await service.ready().then(
      () => true,
      () => false,
    );
    if (started) await service.kill();
    assert.equal(started, false, 'it must not start on a store it cannot write');
    assert.equal((await service.exited).code, 1);
    const lines = service.stderr.trim().split('\n');
    assert.equal(lines.length, 1, service.stderr);
    assert.equal(
      lines[0],
      `tenpo: cannot start: the SQLite database ${path} is read-only to this process; it needs to write the file and its directory`,
    );
    assert.equal(createHash('sha256').update(readFileSync(path)).digest('hex'), before, 'not a byte changed');
    // Writable again for the check, which opens the store's shared memory beside it, and for the cleanup.
    chmodSync(storeDir, 0o755);
    assert.equal(integrityCheck(path), 'ok');
  });
}
