import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { promisify } from 'node:util';
import { after, describe, test } from 'node:test';
import { sql } from 'kysely';
import type { DatabaseTarget } from '../src/config.ts';
import { connectDatabase } from '../src/db/database.ts';
import { MIGRATIONS } from '../src/db/migrate.ts';
import { createLogger } from '../src/log.ts';
import { ADMIN_TOKEN, DIALECTS } from './helpers/app.ts';
import { freshTarget } from './helpers/dialects.ts';
import { startServiceProcess, type ServiceProcess } from './helpers/service-process.ts';

// The store's upkeep as an operator runs it: `npm run db:status`, `db:migrate`, `db:backup` and
// `db:restore` (scripts/db.ts) against the store a running or stopped service uses. The promise held
// here: a restore to an older backup never gives a reservation number again that a customer may have
// been sent (the file-copy restore documented before gave #1002 twice).

/** The newest migration this release knows, and how many there are. */
const LATEST = Object.keys(MIGRATIONS).at(-1)!;
const COUNT = Object.keys(MIGRATIONS).length;

const ROOT = join(import.meta.dirname, '..');
const dir = mkdtempSync(join(tmpdir(), 'tenpo-db-commands-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function urlOf(target: DatabaseTarget): string {
  return target.dialect === 'sqlite' ? `sqlite:${target.path}` : target.url;
}

/** Runs `node scripts/db.ts …` as `npm run db:…` does; its exit code and what it printed. */
async function db(target: DatabaseTarget, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['scripts/db.ts', ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, DATABASE_URL: urlOf(target) },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

async function reserve(service: ServiceProcess, name: string): Promise<void> {
  const response = await service.request('/api/reservation', {
    method: 'POST',
    body: JSON.stringify({ name, email: `${name}@example.com`, productSlug: 'kumo-vco-2' }),
  });
  assert.equal(response.status, 200, await response.text());
}

/** Every reservation's number, by name. */
async function numbers(target: DatabaseTarget): Promise<Map<string, number>> {
  const database = await connectDatabase(target, createLogger('silent'));
  try {
    const rows = await database.db.selectFrom('reservations').select(['name', 'number']).execute();
    return new Map(rows.map((row) => [row.name, Number(row.number)]));
  } finally {
    await database.close();
  }
}

function service(target: DatabaseTarget): Promise<ServiceProcess> {
  return startServiceProcess({ env: { DATABASE_URL: urlOf(target), PREORDER_API_TOKEN: ADMIN_TOKEN } });
}

for (const dialect of DIALECTS) {
  describe(`the database commands (${dialect})`, () => {
    test('status lists pending migrations, migrate applies them and exits, and a start logs what it applied', async () => {
      const target = await freshTarget(dialect);
      if (dialect === 'sqlite') {
        const none = await db(target, 'status');
        assert.match(none.stdout, /no store yet/);
        assert.equal(existsSync((target as { path: string }).path), false, 'status creates nothing');
      }
      const migrated = await db(target, 'migrate');
      assert.equal(migrated.code, 0, migrated.stderr);
      assert.match(migrated.stdout, new RegExp(`applied 001-initial, .*${LATEST}`));
      const status = await db(target, 'status');
      assert.match(status.stdout, /^applied {2}\S+Z {2}001-initial$/m);
      assert.match(status.stdout, new RegExp(`${COUNT} applied, 0 pending`));
      assert.match((await db(target, 'migrate')).stdout, /up to date, nothing to apply/);

      // A store one migration behind: status names it pending, a start applies it and says so.
      const database = await connectDatabase(target, createLogger('silent'));
      await sql`delete from kysely_migration where name = ${LATEST}`.execute(database.db);
      await database.close();
      assert.match((await db(target, 'status')).stdout, new RegExp(`^pending +- +${LATEST}$`, 'm'));
      const started = await service(target);
      const applied = started.logs().find((line) => line.msg === 'database migrations applied');
      assert.deepEqual(applied?.migrations, [LATEST]);
      await started.stop();
      const again = await service(target);
      assert.equal(
        again.logs().some((line) => line.msg === 'database migrations applied'),
        false,
      );
      await again.stop();
    });

    test('a release rolled back to runs on the schema of the newer one (migrations only add)', async () => {
      const target = await freshTarget(dialect);
      await db(target, 'migrate');
      const database = await connectDatabase(target, createLogger('silent'));
      await sql`insert into kysely_migration (name, timestamp) values ('099-from-a-newer-release', ${new Date().toISOString()})`.execute(
        database.db,
      );
      await database.close();
      assert.match((await db(target, 'status')).stdout, /^newer .* 099-from-a-newer-release {2}\(applied by a newer release\)$/m);
      const started = await service(target);
      await reserve(started, 'rolled-back');
      await started.stop();
    });

    test('backup while the service writes; a restore to it never gives a number customers were sent', async () => {
      const target = await freshTarget(dialect);
      const running = await service(target);
      await reserve(running, 'before-backup');
      const file = join(dir, `${dialect}-${Date.now()}.backup`);
      const backup = await db(target, 'backup', '--to', file);
      if (dialect === 'postgres' && /must be of the server's major version or newer/.test(backup.stderr)) {
        // A machine whose pg_dump is older than its server (the packaged PostgreSQL beside Debian's
        // client): the command says which versions it found and what to install, and writes nothing.
        assert.equal(backup.code, 1);
        assert.equal(existsSync(file), false);
        await running.stop();
        return;
      }
      assert.equal(backup.code, 0, backup.stderr);
      assert.match(backup.stdout, /checked; reservation numbers up to 1001/);
      assert.equal(statSync(file).mode & 0o777, 0o600);
      assert.equal((await db(target, 'backup', '--to', file)).code, 1, 'an existing file is never overwritten');

      // Sold after the backup: #1002 and #1003 went out in emails, then the store is lost to the backup.
      await reserve(running, 'after-backup-1');
      await reserve(running, 'after-backup-2');
      assert.deepEqual([...(await numbers(target)).values()].sort(), [1001, 1002, 1003]);
      const refused = await db(target, 'restore', file);
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, dialect === 'sqlite' ? /is open in process \d+: stop the service first/ : /stop every instance/);
      await running.stop();

      const restored = await db(target, 'restore', file);
      assert.equal(restored.code, 0, restored.stderr);
      assert.match(restored.stdout, /the next reservation is numbered after 1003/);
      assert.match(restored.stdout, /the store it replaced is kept in \S+/);
      if (dialect === 'sqlite') {
        const path = (target as { path: string }).path;
        assert.equal(statSync(path).mode & 0o777, 0o600);
        assert.ok(readdirSync(dir).length > 0);
      }
      const after = await service(target);
      await reserve(after, 'after-restore');
      await after.stop();
      const now = await numbers(target);
      assert.deepEqual([...now.keys()].sort(), ['after-restore', 'before-backup']);
      assert.equal(now.get('after-restore'), 1004, 'not 1002, a number already emailed');
    });

    test('a restore over a lost store asks for the last number sent, and keeps after it', async () => {
      const target = await freshTarget(dialect);
      const running = await service(target);
      await reserve(running, 'kept');
      await running.stop();
      const file = join(dir, `${dialect}-lost-${Date.now()}.backup`);
      const backup = await db(target, 'backup', '--to', file);
      if (backup.code !== 0) return assert.match(backup.stderr, /must be of the server's major version or newer/);
      if (dialect === 'sqlite') {
        const path = (target as { path: string }).path;
        for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
      } else {
        const database = await connectDatabase(target, createLogger('silent'));
        await sql`drop table reservations cascade`.execute(database.db);
        await database.close();
      }
      const refused = await db(target, 'restore', file);
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, /--last-sent-number/);
      assert.equal((await db(target, 'restore', file, '--last-sent-number', 'x')).code, 1);
      const restored = await db(target, 'restore', file, '--last-sent-number', '1500');
      assert.equal(restored.code, 0, restored.stderr);
      const after = await service(target);
      await reserve(after, 'next');
      await after.stop();
      assert.equal((await numbers(target)).get('next'), 1501);
    });

    test('bad use: an unknown command, a missing backup, a store that is not tenpo’s', async () => {
      const target = await freshTarget(dialect);
      await db(target, 'migrate');
      const unknown = await db(target, 'drop');
      assert.equal(unknown.code, 1);
      assert.match(unknown.stderr, /^tenpo: usage:/);
      const missing = await db(target, 'restore', join(dir, 'no-such-backup'));
      assert.equal(missing.code, 1);
      assert.match(missing.stderr, /^tenpo: there is no (backup|dump) at /);
      assert.doesNotMatch(missing.stderr, /\n\s+at /, 'no stack trace');
      if (dialect === 'sqlite') {
        const foreign = join(dir, `foreign-${Date.now()}.db`);
        const other = new DatabaseSync(foreign);
        other.exec('create table notes (text)');
        other.close();
        const refused = await db(target, 'restore', foreign);
        assert.equal(refused.code, 1);
        assert.match(refused.stderr, /is not a tenpo store/);
        assert.match((await db(target, 'status')).stdout, new RegExp(`${COUNT} applied`), 'the store is left as it was');
      }
    });
  });
}
